// Config entries as the integration tools show them: the list (one
// config_entries/get), one entry by id, its short view, and its entities and
// devices from the mirror's registries.
#include <algorithm>

#include "home/entity_docs.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/integrations/integration_tools.hpp"

namespace hamcp::tools::integrations {

using home::str_of;

boost::asio::awaitable<std::vector<json::object>> list_entries(ToolEnv& env) {
  auto reading = helpers::ws_read(env, json::object{{"type", "config_entries/get"}});
  const json::value listed = co_await std::move(reading);
  std::vector<json::object> out;
  if (const json::array* a = listed.if_array())
    for (const auto& e : *a)
      if (e.is_object()) out.push_back(e.as_object());
  co_return out;
}

json::object find_entry(const std::vector<json::object>& entries, const std::string& entry_id) {
  for (const auto& e : entries)
    if (str_of(&e, "entry_id") == entry_id) return e;
  json::array close;
  for (const auto& e : entries)  // an id passed as a domain or title is the usual slip
    if (str_of(&e, "domain") == entry_id || str_of(&e, "title") == entry_id)
      close.push_back(json::object{{"entry_id", str_of(&e, "entry_id")}, {"title", str_of(&e, "title")}});
  throw ToolException(ToolError{"entry_not_found",
                                "Home Assistant has no config entry '" + entry_id + "'.",
                                close.empty()
                                    ? "List entries with ha_get_integration (query or domain) for the entry_id."
                                    : "Did you mean one of these entry ids?",
                                {{"suggestions", std::move(close)}}});
}

json::object entry_view(const json::object& entry) {
  json::object view;
  for (const char* k : {"entry_id", "domain", "title", "state", "disabled_by", "source", "supports_options",
                        "supports_reconfigure", "num_subentries"})
    if (const json::value* v = entry.if_contains(k)) view[k] = *v;
  if (const json::value* reason = entry.if_contains("reason"); reason && !reason->is_null()) view["reason"] = *reason;
  return view;
}

namespace {

std::string device_name(const ha::Snapshot& snap, const std::string& id) {
  std::string name;
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& item) {
    const json::object* o = item.if_object();
    if (!name.empty() || str_of(o, "id") != id) return;
    const std::string by_user = str_of(o, "name_by_user");
    name = by_user.empty() ? str_of(o, "name") : by_user;
  });
  return name;
}

json::object members_from_mirror(const ha::Snapshot& snap, const std::string& entry_id) {
  json::array entities, devices;
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& item) {
    const json::object* o = item.if_object();
    if (str_of(o, "config_entry_id") == entry_id) entities.emplace_back(str_of(o, "entity_id"));
  });
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& item) {
    const json::object* o = item.if_object();
    const json::value* entries = o ? o->if_contains("config_entries") : nullptr;
    if (!entries || !entries->is_array()) return;
    const auto& a = entries->as_array();
    if (std::find(a.begin(), a.end(), json::value(entry_id)) != a.end()) devices.emplace_back(str_of(o, "id"));
  });
  return json::object{{"entity", std::move(entities)}, {"device", std::move(devices)}};
}

}  // namespace

boost::asio::awaitable<json::object> entry_members(ToolEnv& env, std::string entry_id) {
  json::object related;
  bool answered = false;
  try {
    json::object msg{{"type", "search/related"}, {"item_type", "config_entry"}, {"item_id", entry_id}};
    auto asking = env.ha.command(std::move(msg));
    json::value answer = co_await std::move(asking);
    answered = answer.is_object();
    if (answered) related = std::move(answer.as_object());
  } catch (const ha::HaException&) {
    answered = false;
  }
  if (!answered) related = members_from_mirror(*env.ha.snapshot(), entry_id);  // an HA without search
  ha::SnapshotPtr snap = env.ha.snapshot();
  json::array entities, devices;
  if (const json::value* e = related.if_contains("entity"); e && e->is_array()) entities = e->as_array();
  if (const json::value* d = related.if_contains("device"); d && d->is_array())
    for (const auto& id : d->as_array())
      if (id.is_string()) {
        const std::string device_id(id.get_string());
        devices.push_back(json::object{{"id", device_id}, {"name", device_name(*snap, device_id)}});
      }
  co_return json::object{{"entities", std::move(entities)}, {"devices", std::move(devices)}};
}

}  // namespace hamcp::tools::integrations
