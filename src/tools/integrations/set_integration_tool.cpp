// ha_set_integration: one change to an integration per call, chosen by the
// arguments: remove (entry, subentry or storage helper; confirm), log_level,
// enabled, entry_id + reconfigure (identity checks, preflight, confirm_token),
// entry_id + config (options flow), domain (+ config: a new entry through its
// config flow). Flows are never retried; options and reconfigure writes are
// journaled with the values before.
#include "home/entity_docs.hpp"
#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/integrations/integration_change.hpp"
#include "tools/integrations/integration_tools.hpp"
#include "tools/system/system_tools.hpp"

namespace hamcp::tools {

namespace {

using home::str_of;
using namespace integrations;

boost::asio::awaitable<json::object> set_log_level(Args& args, ToolEnv& env, const std::vector<json::object>& entries) {
  std::string domain = args.str("domain");
  if (domain.empty() && args.has("entry_id")) {
    const json::object entry = find_entry(entries, args.str("entry_id"));
    domain = str_of(&entry, "domain");
  }
  if (domain.empty())
    throw ToolException(bad_argument("domain", "required with log_level", "Pass domain (e.g. hue) or entry_id."));
  std::string level = args.str("log_level");
  for (auto& ch : level) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (level == "DEFAULT") level = "NOTSET";
  auto setting = system::set_integration_level(env, domain, level, "none");
  json::object body = co_await std::move(setting);
  body["log_level"] = level;
  co_return body;
}

boost::asio::awaitable<json::object> set_enabled(ToolEnv& env, const json::object& entry, bool enabled) {
  const std::string entry_id = str_of(&entry, "entry_id");
  json::object msg{{"type", "config_entries/disable"}, {"entry_id", entry_id}};
  msg["disabled_by"] = enabled ? json::value(nullptr) : json::value("user");
  auto writing = helpers::ws_write(env, std::move(msg), "the enable/disable of " + entry_id);
  const json::value answer = co_await std::move(writing);
  json::object body = entry_view(entry);
  body["disabled_by_before"] = entry.contains("disabled_by") ? entry.at("disabled_by") : json::value(nullptr);
  body["disabled_by"] = enabled ? json::value(nullptr) : json::value("user");
  body["enabled"] = enabled;
  body.erase("state");
  if (const json::object* a = answer.if_object(); a && a->contains("require_restart"))
    body["require_restart"] = a->at("require_restart");
  co_return body;
}

boost::asio::awaitable<json::object> options_flow(Args& args, ToolEnv& env, const json::object& entry) {
  const std::string entry_id = str_of(&entry, "entry_id");
  if (entry.contains("supports_options") && entry.at("supports_options") == false)
    throw ToolException(
        ToolError{"options_not_supported",
                  "The " + str_of(&entry, "domain") + " integration has no options. Nothing was written.",
                  "reconfigure=true changes what its config flow set, where it supports that.",
                  {{"written", false}}});
  helpers::FlowRun run;
  run.handler = entry_id;
  run.options_flow = true;
  if (const json::object* config = args.object("config")) run.config = *config;
  run.menu_choice = args.opt_str("menu_choice");
  auto driving = helpers::drive_flow(env, std::move(run));
  const helpers::FlowOutcome outcome = co_await std::move(driving);
  json::object body = entry_view(entry);
  body["result"] = "options_updated";
  body["steps"] = outcome.steps;
  body["options_before"] = outcome.previous;
  json::value after = outcome.result.contains("options") ? outcome.result.at("options") : json::value(nullptr);
  if (!after.is_object()) {  // HA 2026.2's HTTP answer strips it: read the options again
    auto reading = helpers::current_options(env, entry_id);
    after = co_await std::move(reading);
  }
  body["options"] = after;
  if (!outcome.unused_keys.empty()) body["ignored_config_keys"] = outcome.unused_keys;
  helpers::journal(env, body, "integration", "options/" + entry_id, "", "update", json::value(outcome.previous), after);
  co_return body;
}

boost::asio::awaitable<json::object> config_flow(Args& args, ToolEnv& env) {
  helpers::FlowRun run;
  run.handler = args.str("domain");
  if (const json::object* config = args.object("config")) run.config = *config;
  run.menu_choice = args.opt_str("menu_choice");
  run.show_advanced_options = args.flag("show_advanced_options", false);
  auto driving = helpers::drive_flow(env, std::move(run));
  const helpers::FlowOutcome outcome = co_await std::move(driving);
  json::object body{{"result", "created"}, {"domain", args.str("domain")}, {"steps", outcome.steps}};
  if (const json::value* entry = outcome.result.if_contains("result"); entry && entry->is_object())
    for (auto& kv : entry_view(entry->as_object())) body[kv.key()] = kv.value();
  if (const json::value* title = outcome.result.if_contains("title")) body["title"] = *title;
  if (!outcome.unused_keys.empty()) body["ignored_config_keys"] = outcome.unused_keys;
  if (const json::value* id = body.if_contains("entry_id"); id && id->is_string()) {
    auto finding = entry_members(env, std::string(id->get_string()));
    json::object members = co_await std::move(finding);
    for (auto& kv : members) body[kv.key()] = kv.value();
  }
  co_return body;
}

boost::asio::awaitable<mcp::ToolResult> run_set_integration(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  if (args.flag("remove", false)) {
    auto removing = remove_integration(args, env, ctx);
    json::object removed = co_await std::move(removing);
    co_return ok(std::move(removed));
  }
  if (!args.has("entry_id") && !args.has("domain"))
    throw ToolException(bad_argument("entry_id", "missing", "Pass entry_id (change an entry) or domain (add one)."));
  std::vector<json::object> entries;
  if (args.has("entry_id") || args.has("log_level")) {
    auto listing = list_entries(env);
    entries = co_await std::move(listing);
  }
  json::object body;
  if (args.has("log_level")) {
    auto setting = set_log_level(args, env, entries);
    body = co_await std::move(setting);
  } else if (!args.has("entry_id")) {
    auto adding = config_flow(args, env);
    body = co_await std::move(adding);
  } else {
    const json::object entry = find_entry(entries, args.str("entry_id"));
    if (args.has("enabled")) {
      auto toggling = set_enabled(env, entry, args.flag("enabled", true));
      body = co_await std::move(toggling);
    } else if (args.flag("reconfigure", false)) {
      auto reconfiguring = reconfigure_entry(args, env, ctx, entry);
      body = co_await std::move(reconfiguring);
    } else if (args.has("config")) {
      auto updating = options_flow(args, env, entry);
      body = co_await std::move(updating);
    } else {
      throw ToolException(bad_argument("config", "nothing to change",
                                       "Pass enabled, config (options), reconfigure=true with config, log_level or "
                                       "remove=true."));
    }
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_set_integration_spec() {
  ToolSpec s;
  s.name = "ha_set_integration";
  s.title = "Add, change or remove an integration";
  s.description =
      "domain(+config): add via its config flow (menus: menu_choice). entry_id with: enabled; config (options flow); "
      "reconfigure+config (expected_* checked; preview, then confirm_token); log_level; remove (+subentry_id; "
      "confirm=true, else a preview).";
  s.input_schema = R"J({"type":"object","properties":{"entry_id":{"type":"string"},"domain":{"type":"string"},
"config":{"type":"object"},"menu_choice":{"type":"string"},"enabled":{"type":"boolean"},
"reconfigure":{"type":"boolean"},"expected_device_id":{"type":"string"},"expected_unique_id":{"type":"string"},
"expected_mac":{"type":"string"},"expected_entity_ids":{"type":"array","items":{"type":"string"}},
"confirm_token":{"type":"string"},"log_level":{"type":"string","enum":["DEBUG","INFO","WARNING","ERROR","CRITICAL","DEFAULT"]},
"remove":{"type":"boolean"},"subentry_id":{"type":"string"},"confirm":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"entry_id":{"type":"string"},"result":{"type":"string"}}})J";
  s.annotations = writes(true, false);
  s.legacy_args = {{"target", "entry_id"}};
  s.hidden_args = {"helper_type", "wait", "show_advanced_options"};
  s.also_accepts = {{"expected_entity_ids", R"({"type":["string","array"],"items":{"type":"string"}})"}};
  s.alias_args = {{"ha_remove_helpers_integrations", R"({"remove":true})"}};
  s.run = run_set_integration;
  return s;
}

void register_integration_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_get_integration_spec(), env));
  registry.add_tool(build_tool(make_set_integration_spec(), env));
}

}  // namespace hamcp::tools
