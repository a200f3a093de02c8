// Config entry administration over WebSocket, as HA's config_entries.py:
// config_entries/get_single, config_entries/disable (disabled_by "user" | null;
// a disabled entry is not_loaded), config_entries/subentries/list and
// config_entries/subentries/delete. Entries live in sim/flows/.
#include "sim/core/time_util.hpp"
#include "sim/flows/flow_engine.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {

namespace {

using namespace ws_util;

void entry_not_found(WsConnection& c, int64_t id) { c.send_error(id, "not_found", "Config entry not found"); }

json::object* entry_of(WsConnection& c, int64_t id, const json::object& msg) {
  const auto entry_id = opt_string(msg, "entry_id");
  if (!entry_id) throw BadMessage{"required key not provided @ data['entry_id']"};
  json::object* stored = flows::stored_entry(c.core().store(), *entry_id);
  if (!stored) entry_not_found(c, id);
  return stored;
}

void get_single(WsConnection& c, int64_t id, const json::object& msg) {
  if (json::object* stored = entry_of(c, id, msg))
    c.send_result(id, json::object{{"config_entry", stored->at("entry")}});
}

void disable(WsConnection& c, int64_t id, const json::object& msg) {
  const auto [present, disabled_by] = nullable(msg, "disabled_by");
  if (!present) throw BadMessage{"required key not provided @ data['disabled_by']"};
  if (disabled_by && *disabled_by != "user")
    throw BadMessage{"value must be one of ['user', None] for dictionary value @ data['disabled_by']"};
  json::object* stored = entry_of(c, id, msg);
  if (!stored) return;
  json::object& entry = stored->at("entry").as_object();
  entry["disabled_by"] = opt(disabled_by);
  entry["state"] = disabled_by ? "not_loaded" : "loaded";
  entry["modified_at"] = now_timestamp();
  flows::signal_entry_change(c.core().store(), "updated", entry);
  c.send_result(id, json::object{{"require_restart", false}});
}

json::array& subentries_of(json::object& stored) {
  if (!stored.contains("subentries")) stored["subentries"] = json::array{};
  return stored.at("subentries").as_array();
}

void subentries_list(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* stored = entry_of(c, id, msg);
  if (!stored) return;
  json::array listed;  // HA lists these four keys; a subentry's data stays inside
  for (const auto& s : subentries_of(*stored)) {
    json::object item;
    for (const char* k : {"subentry_id", "subentry_type", "title", "unique_id"})
      item[k] = s.as_object().contains(k) ? s.as_object().at(k) : json::value(nullptr);
    listed.push_back(std::move(item));
  }
  c.send_result(id, listed);
}

void subentries_delete(WsConnection& c, int64_t id, const json::object& msg) {
  const auto subentry_id = opt_string(msg, "subentry_id");
  if (!subentry_id) throw BadMessage{"required key not provided @ data['subentry_id']"};
  json::object* stored = entry_of(c, id, msg);
  if (!stored) return;
  json::array& subs = subentries_of(*stored);
  for (auto it = subs.begin(); it != subs.end(); ++it)
    if (it->as_object().at("subentry_id").as_string() == *subentry_id) {
      subs.erase(it);
      json::object& entry = stored->at("entry").as_object();
      entry["num_subentries"] = static_cast<std::int64_t>(subs.size());
      flows::signal_entry_change(c.core().store(), "updated", entry);
      c.send_result(id, nullptr);
      return;
    }
  c.send_error(id, "not_found", "Config subentry not found");
}

}  // namespace

void register_config_entry_commands(ws_util::Table& t) {
  t["config_entries/get_single"] = get_single;
  t["config_entries/disable"] = disable;
  t["config_entries/subentries/list"] = subentries_list;
  t["config_entries/subentries/delete"] = subentries_delete;
}

}  // namespace hamcp::sim
