// ha_config_set_helper for config-flow helpers: create drives the config
// flow, update the entry's options flow, remove deletes the config entry
// (its options read first, for the journal). Journaled; bounded wait for the
// entry's entities to appear / disappear.
#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_write.hpp"

namespace hamcp::tools::helpers {

namespace {

boost::asio::awaitable<json::object> wait_entities(ToolEnv& env, const std::string& entry_id,
                                                   std::vector<std::string> entities, bool present) {
  auto done = [entry_id, entities, present](const ha::Snapshot& s) {
    if (present) {
      const auto now = entities_of_entry(s, entry_id);
      if (now.empty()) return false;
      for (const auto& e : now)
        if (!s.states.find(e)) return false;
      return true;
    }
    for (const auto& e : entities)
      if (s.states.find(e)) return false;
    return true;
  };
  auto waiting = wait_for(env, done, env.options.default_wait);
  json::object report = co_await std::move(waiting);
  json::array listed;
  const auto now = present ? entities_of_entry(*env.ha.snapshot(), entry_id) : entities;
  for (const auto& e : now) listed.emplace_back(e);
  json::object out{{present ? "appeared" : "removed", report.at("done")},
                   {"entities", std::move(listed)},
                   {"waited_ms", report.at("waited_ms")}};
  co_return out;
}

boost::asio::awaitable<json::object> remove_entry(ToolEnv& env, const HelperCall& call) {
  auto reading = current_options(env, call.id);
  json::object before = co_await std::move(reading);
  const std::vector<std::string> entities = entities_of_entry(*env.ha.snapshot(), call.id);
  auto deleting = rest_call(env, "DELETE", "/api/config/config_entries/entry/" + call.id, nullptr, true);
  const RestAnswer answer = co_await std::move(deleting);
  if (answer.status == 404)
    throw ToolException(ToolError{"helper_not_found",
                                  "Home Assistant has no config entry '" + call.id + "'. Nothing was removed.",
                                  "Pass the entry_id that ha_config_list_helpers helper_type=" + call.type + " lists.",
                                  {{"written", false}}});
  if (answer.status >= 400) throw_http_failure(answer.status, json::serialize(answer.body));
  json::object body{{"helper_type", call.type}, {"entry_id", call.id}, {"result", "removed"}};
  journal(env, body, "helper", call.type + "/" + call.id, "", "remove", json::value(std::move(before)), nullptr);
  if (call.wait) {
    auto waiting = wait_entities(env, call.id, entities, false);
    body["wait"] = co_await std::move(waiting);
  }
  co_return body;
}

}  // namespace

boost::asio::awaitable<json::object> write_flow_helper(ToolEnv& env, const HelperCall& call) {
  if (call.action == "remove") {
    auto removing = remove_entry(env, call);
    json::object removed = co_await std::move(removing);
    co_return removed;
  }
  FlowRun run;
  const bool options_flow = call.action == "update";
  run.options_flow = options_flow;
  run.handler = options_flow ? call.id : call.type;
  run.config = call.config;
  if (call.name && !options_flow) run.config["name"] = *call.name;
  if (call.icon) run.config["icon"] = *call.icon;
  run.menu_choice = call.menu_choice;
  run.show_advanced_options = call.show_advanced_options;
  auto driving = drive_flow(env, std::move(run));
  FlowOutcome outcome = co_await std::move(driving);
  const json::object& result = outcome.result;
  std::string entry_id = call.id;
  if (const json::value* entry = result.if_contains("result"); entry && entry->is_object())
    entry_id = std::string(entry->at("entry_id").as_string());
  json::object body{{"helper_type", call.type},
                    {"entry_id", entry_id},
                    {"result", options_flow ? "updated" : "created"},
                    {"steps", outcome.steps}};
  if (const json::value* title = result.if_contains("title"); title && !options_flow) body["title"] = *title;
  json::value options = result.contains("options") ? result.at("options") : json::value(nullptr);
  if (options_flow && !options.is_object()) {  // HA's HTTP answer to an options flow drops them: read them again
    auto reading = current_options(env, entry_id);
    options = co_await std::move(reading);
  }
  body["options"] = options;
  if (!outcome.unused_keys.empty()) body["ignored_config_keys"] = outcome.unused_keys;
  json::value before = options_flow ? json::value(outcome.previous) : json::value(nullptr);
  const std::string action = call.journal_action.empty() ? call.action : call.journal_action;
  journal(env, body, "helper", call.type + "/" + entry_id, "", action, std::move(before), options);
  if (call.wait && !options_flow) {
    auto waiting = wait_entities(env, entry_id, {}, true);
    body["wait"] = co_await std::move(waiting);
  }
  co_return body;
}

}  // namespace hamcp::tools::helpers
