// ha_config_set_helper helper_type=config_subentry: a config entry's subentry
// (a room of a hub, a conversation agent of an AI integration, ...) created
// through its subentry flow (entry_id + subentry_type) or reconfigured
// (entry_id + subentry_id). The entry is read first, so an unknown type or a
// type without reconfigure is named before any flow starts. Journaled under
// the integration kind: a reconfigure is restorable (the flow run again with
// the values before), a creation is undone by removing the subentry.
#include <algorithm>
#include <set>
#include <vector>

#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_write.hpp"

namespace hamcp::tools::helpers {

namespace {

std::string text_of(const json::value* v, std::string_view key) {
  const json::object* o = v ? v->if_object() : nullptr;
  const json::value* x = o ? o->if_contains(key) : nullptr;
  return x && x->is_string() ? std::string(x->get_string()) : std::string();
}

boost::asio::awaitable<json::array> list_subentries(ToolEnv& env, const std::string& entry_id) {
  auto listing = ws_read(env, json::object{{"type", "config_entries/subentries/list"}, {"entry_id", entry_id}});
  const json::value listed = co_await std::move(listing);
  co_return listed.is_array() ? listed.as_array() : json::array{};
}

boost::asio::awaitable<json::object> entry_of(ToolEnv& env, const std::string& entry_id) {
  auto reading = ws_read(env, json::object{{"type", "config_entries/get_single"}, {"entry_id", entry_id}});
  const json::value answer = co_await std::move(reading);
  const json::value* entry = answer.is_object() ? answer.as_object().if_contains("config_entry") : nullptr;
  if (!entry || !entry->is_object())
    throw ToolException(ToolError{"entry_not_found",
                                  "Home Assistant has no config entry '" + entry_id + "'.",
                                  "Pass an entry_id from ha_get_integration.",
                                  {{"written", false}}});
  co_return entry->as_object();
}

// The subentry types the entry offers, checked against the call; throws naming them.
void check_type(const json::object& entry, const std::string& entry_id, const std::string& type, bool reconfigure) {
  const json::value* types = entry.if_contains("supported_subentry_types");
  const json::object* offered = types ? types->if_object() : nullptr;
  json::array names;
  if (offered)
    for (const auto& kv : *offered) names.emplace_back(kv.key());
  const json::value* one = offered ? offered->if_contains(type) : nullptr;
  if (!one)
    throw ToolException(
        ToolError{"invalid_argument",
                  "Config entry '" + entry_id + "' has no subentry type '" + type + "'. Nothing was written.",
                  "Pass subentry_type as one of supported_subentry_types.",
                  {{"supported_subentry_types", std::move(names)}, {"written", false}}});
  const json::value* can = one->is_object() ? one->as_object().if_contains("supports_reconfigure") : nullptr;
  if (reconfigure && !(can && can->is_bool() && can->get_bool()))
    throw ToolException(ToolError{"not_supported",
                                  "Subentries of type '" + type + "' cannot be reconfigured. Nothing was written.",
                                  "Remove it (ha_remove_helpers_integrations) and create it again.",
                                  {{"written", false}}});
}

}  // namespace

json::object journaled_subentry_values(ToolEnv& env, const std::string& entry_id, const std::string& subentry_id) {
  std::vector<std::string> ids;
  for (const char* prefix : {"subentry/", "subentry_reconfigure/"})
    for (const auto& r : env.journal.list("integration", prefix + entry_id + "/" + subentry_id, 64))
      if (r.action != "remove") ids.push_back(r.id);
  std::sort(ids.begin(), ids.end());  // "e" + fixed-width increasing numbers: oldest first
  json::object out;
  for (const auto& id : ids) {
    const std::optional<home::EditRecord> rec = env.journal.get(id);
    if (rec && rec->after.is_object())
      for (const auto& kv : rec->after.get_object())
        if (kv.key() != "name") out[kv.key()] = kv.value();
  }
  return out;
}

boost::asio::awaitable<json::object> write_subentry(ToolEnv& env, const HelperCall& call) {
  auto reading = entry_of(env, call.id);
  const json::object entry = co_await std::move(reading);
  std::string type = call.subentry_type;
  json::value before = nullptr;
  auto listing = list_subentries(env, call.id);
  const json::array listed = co_await std::move(listing);
  std::set<std::string> existing;
  for (const auto& s : listed) {
    existing.insert(text_of(&s, "subentry_id"));
    if (!call.subentry_id.empty() && text_of(&s, "subentry_id") == call.subentry_id) {
      before = s;
      type = text_of(&s, "subentry_type");
    }
  }
  if (!call.subentry_id.empty() && before.is_null())
    throw ToolException(
        ToolError{"subentry_not_found",
                  "Config entry '" + call.id + "' has no subentry '" + call.subentry_id + "'. Nothing was written.",
                  "ha_get_integration include_subentries=true lists its subentries.",
                  {{"written", false}}});
  check_type(entry, call.id, type, !call.subentry_id.empty());
  FlowRun run;
  run.handler = call.id;
  run.subentry_type = type;
  run.subentry_id = call.subentry_id;
  run.config = call.config;
  if (call.name) run.config["name"] = *call.name;
  run.menu_choice = call.menu_choice;
  run.show_advanced_options = call.show_advanced_options;
  auto driving = drive_flow(env, std::move(run));
  FlowOutcome outcome = co_await std::move(driving);
  auto relisting = list_subentries(env, call.id);
  const json::array now = co_await std::move(relisting);
  json::value after = nullptr;  // the reconfigured subentry, or the one that was not there before
  for (const auto& s : now) {
    const std::string id = text_of(&s, "subentry_id");
    if (call.subentry_id.empty() ? !existing.count(id) : id == call.subentry_id) after = s;
  }
  const std::string sub_id = text_of(&after, "subentry_id");
  json::object body{{"helper_type", "config_subentry"},
                    {"entry_id", call.id},
                    {"subentry_type", type},
                    {"subentry_id", sub_id},
                    {"result", call.subentry_id.empty() ? "created" : "updated"},
                    {"subentry", after},
                    {"steps", outcome.steps}};
  if (!outcome.unused_keys.empty()) body["ignored_config_keys"] = outcome.unused_keys;
  const bool reconfigure = !call.subentry_id.empty();
  // The values before, as far as HA shows them: the form's suggested values
  // (an integration may suggest none: then those hamcp gave it itself) and the
  // title the "name" field sets.
  json::object previous = outcome.previous;
  if (reconfigure) {
    if (!previous.contains("name")) previous["name"] = text_of(&before, "title");
    for (const auto& kv : journaled_subentry_values(env, call.id, call.subentry_id))
      if (!previous.contains(kv.key())) previous[kv.key()] = kv.value();
  }
  json::value journal_before = reconfigure ? json::value(std::move(previous)) : json::value(nullptr);
  json::object journal_after = call.config;
  if (call.name) journal_after["name"] = *call.name;
  const std::string key = (reconfigure ? "subentry_reconfigure/" : "subentry/") + call.id + "/" + sub_id;
  const std::string action = call.journal_action.empty() ? call.action : call.journal_action;
  journal(env, body, "integration", key, "", action, std::move(journal_before), json::value(std::move(journal_after)));
  co_return body;
}

}  // namespace hamcp::tools::helpers
