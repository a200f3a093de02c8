#include "tools/registry/registry_views.hpp"

#include <algorithm>

#include "home/entity_docs.hpp"

namespace hamcp::tools::registry {

namespace {

using home::str_of;

bool has_string(const json::object& o, std::string_view key, std::string_view value) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_array()) return false;
  const json::array& a = v->get_array();
  return std::any_of(a.begin(), a.end(),
                     [&](const json::value& x) { return x.is_string() && x.get_string() == value; });
}

json::array entities_of_device(const ha::Snapshot& snap, std::string_view device_id) {
  json::array out;
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& v) {
    const json::object* e = v.if_object();
    if (!e || str_of(e, "device_id") != device_id) return;
    json::object view{{"entity_id", str_of(e, "entity_id")}, {"platform", str_of(e, "platform")}};
    const std::string name = str_of(e, "name");
    view["name"] = name.empty() ? json::value(str_of(e, "original_name")) : json::value(name);
    if (const json::value* d = e->if_contains("disabled_by"); d && !d->is_null()) view["disabled_by"] = *d;
    out.push_back(std::move(view));
  });
  return out;
}

// Entities placed in `area_id`: their own area, else their device's.
json::array entities_in_area(const ha::Snapshot& snap, std::string_view area_id) {
  json::array out;
  const ha::Registry& devices = snap.registry(ha::RegistryKind::device);
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& v) {
    const json::object* e = v.if_object();
    if (!e) return;
    std::string area = str_of(e, "area_id");
    if (area.empty())
      if (ha::RegistryItem d = devices.find(str_of(e, "device_id"))) area = str_of(d.get(), "area_id");
    if (area == area_id) out.emplace_back(str_of(e, "entity_id"));
  });
  return out;
}

json::array where_labelled(const ha::Registry& registry, std::string_view label_id, std::string_view key) {
  json::array out;
  registry.for_each([&](const json::value& v) {
    const json::object* o = v.if_object();
    if (o && has_string(*o, "labels", label_id)) out.emplace_back(str_of(o, key));
  });
  return out;
}

boost::asio::awaitable<void> add_device_details(ToolEnv& env, const ha::Snapshot& snap, json::object& view) {
  const std::string id = str_of(&view, "id");
  view["entities"] = entities_of_device(snap, id);
  auto reading = config_entries(env);  // named: GCC 12 coroutine temporaries
  const std::vector<json::object> entries = co_await std::move(reading);
  json::array mine;
  for (const auto& entry : entries)
    if (has_string(view, "config_entries", str_of(&entry, "entry_id")))
      mine.push_back(json::object{
          {"entry_id", entry.at("entry_id")},
          {"domain", str_of(&entry, "domain")},
          {"title", str_of(&entry, "title")},
          {"supports_remove_device",
           entry.contains("supports_remove_device") ? entry.at("supports_remove_device") : json::value(nullptr)}});
  const std::string primary = str_of(&view, "primary_config_entry");
  for (const auto& e : mine)
    if (str_of(e.if_object(), "entry_id") == primary || !view.contains("integration"))
      view["integration"] = e.at("domain");
  if (!mine.empty()) view["config_entries"] = std::move(mine);
  // An entry HA did not list (e.g. no admin rights): the integration named by the device's first identifier.
  const json::value* ids = view.if_contains("identifiers");
  if (!view.contains("integration") && ids && ids->is_array() && !ids->get_array().empty())
    if (const json::array* first = ids->get_array().front().if_array(); first && !first->empty())
      view["integration"] = first->front();
}

void add_area_details(const ha::Snapshot& snap, json::object& view) {
  const std::string id = str_of(&view, "area_id");
  if (ha::RegistryItem f = snap.registry(ha::RegistryKind::floor).find(str_of(&view, "floor_id")))
    view["floor_name"] = str_of(f.get(), "name");
  json::array devices;
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& v) {
    const json::object* d = v.if_object();
    if (d && str_of(d, "area_id") == id) devices.emplace_back(str_of(d, "id"));
  });
  view["devices"] = std::move(devices);
  view["entities"] = entities_in_area(snap, id);
}

}  // namespace

json::object list_view(const json::object& item, Kind kind) {
  json::object view = item;
  for (const char* bookkeeping :
       {"created_at", "modified_at", "identifiers", "connections", "config_entries_subentries"})
    view.erase(bookkeeping);
  (void)kind;
  for (auto it = view.begin(); it != view.end();) {
    const bool empty_list = it->value().is_array() && it->value().get_array().empty();
    it = empty_list || it->value().is_null() ? view.erase(it) : std::next(it);
  }
  return view;
}

boost::asio::awaitable<json::object> detail_view(ToolEnv& env, const ha::Snapshot& snap, const json::object& item,
                                                 Kind kind) {
  json::object view = item;
  view.erase("config_entries_subentries");
  if (kind == Kind::device) {
    auto adding = add_device_details(env, snap, view);  // named: GCC 12 coroutine temporaries
    co_await std::move(adding);
  } else if (kind == Kind::area) {
    add_area_details(snap, view);
  } else if (kind == Kind::floor) {
    json::array areas;
    snap.registry(ha::RegistryKind::area).for_each([&](const json::value& v) {
      const json::object* a = v.if_object();
      if (a && str_of(a, "floor_id") == str_of(&item, "floor_id"))
        areas.push_back(json::object{{"area_id", str_of(a, "area_id")}, {"name", str_of(a, "name")}});
    });
    view["areas"] = std::move(areas);
  } else if (kind == Kind::label) {
    const std::string id = str_of(&item, "label_id");
    view["entities"] = where_labelled(snap.registry(ha::RegistryKind::entity), id, "entity_id");
    view["devices"] = where_labelled(snap.registry(ha::RegistryKind::device), id, "id");
    view["areas"] = where_labelled(snap.registry(ha::RegistryKind::area), id, "area_id");
  }
  co_return view;
}

boost::asio::awaitable<std::vector<json::object>> config_entries(ToolEnv& env) {
  std::vector<json::object> out;
  try {
    json::object msg{{"type", "config_entries/get"}};
    auto asking = env.ha.command(std::move(msg));  // named: GCC 12 coroutine temporaries
    json::value r = co_await std::move(asking);
    if (r.is_array())
      for (auto& v : r.as_array())
        if (v.is_object()) out.push_back(std::move(v.as_object()));
  } catch (const ha::HaException&) {
    // Details are optional: a device still reads without its entries.
  }
  co_return out;
}

std::string device_of_entity(const ha::Snapshot& snap, std::string_view entity_id) {
  const ha::RegistryItem e = snap.registry(ha::RegistryKind::entity).find(entity_id);
  return e ? str_of(e.get(), "device_id") : std::string();
}

}  // namespace hamcp::tools::registry
