// ha_set_integration reconfigure=true: the expected_* identity checks run
// against the mirror's device and entity registries before anything is sent;
// without a matching confirm_token the call only shows the reconfigure form
// (flow started and aborted) and the token; with it the flow is driven once.
#include <algorithm>
#include <functional>

#include "common/ascii.hpp"
#include "home/entity_docs.hpp"
#include "tools/confirmation.hpp"
#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/integrations/integration_change.hpp"
#include "tools/integrations/integration_tools.hpp"

namespace hamcp::tools::integrations {

namespace {

using home::str_of;

// What identifies the entry: its devices (ids, identifiers, MACs) and entities (ids, unique ids).
struct Identity {
  std::vector<std::string> device_ids, unique_ids, macs, entity_ids;
};

void add_pairs(const json::object* device, const char* key, std::vector<std::string>& out, bool macs_only) {
  const json::value* pairs = device ? device->if_contains(key) : nullptr;
  if (!pairs || !pairs->is_array()) return;
  for (const auto& p : pairs->as_array()) {
    const json::array* pair = p.if_array();
    if (!pair || pair->size() != 2 || !(*pair)[1].is_string()) continue;
    if (macs_only && (*pair)[0] != json::value("mac")) continue;
    out.push_back(ascii_lower(std::string((*pair)[1].get_string())));
  }
}

Identity identity_of(const ha::Snapshot& snap, const std::string& entry_id) {
  Identity id;
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& item) {
    const json::object* o = item.if_object();
    const json::value* entries = o ? o->if_contains("config_entries") : nullptr;
    if (!entries || !entries->is_array()) return;
    const auto& a = entries->as_array();
    if (std::find(a.begin(), a.end(), json::value(entry_id)) == a.end()) return;
    id.device_ids.push_back(str_of(o, "id"));
    add_pairs(o, "identifiers", id.unique_ids, false);
    add_pairs(o, "connections", id.macs, true);
  });
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& item) {
    const json::object* o = item.if_object();
    if (str_of(o, "config_entry_id") != entry_id) return;
    id.entity_ids.push_back(str_of(o, "entity_id"));
    id.unique_ids.push_back(ascii_lower(str_of(o, "unique_id")));
  });
  return id;
}

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Throws identity_mismatch naming each expectation that does not hold.
void check_identity(Args& args, const Identity& id, const std::string& entry_id) {
  json::array failed;
  auto expect = [&](const char* field, const std::string& value, const std::vector<std::string>& known) {
    if (!value.empty() && !has(known, value))
      failed.push_back(json::object{{"field", field}, {"expected", value}, {"found", strings(known)}});
  };
  expect("expected_device_id", args.str("expected_device_id"), id.device_ids);
  expect("expected_unique_id", ascii_lower(args.str("expected_unique_id")), id.unique_ids);
  std::string mac = ascii_lower(args.str("expected_mac"));
  std::replace(mac.begin(), mac.end(), '-', ':');
  expect("expected_mac", mac, id.macs);
  for (const auto& e : args.list("expected_entity_ids")) expect("expected_entity_ids", e, id.entity_ids);
  if (failed.empty()) return;
  throw ToolException(ToolError{"identity_mismatch",
                                "Config entry '" + entry_id +
                                    "' is not the one expected: " + json::serialize(failed.at(0).at("field")) +
                                    " does not match. Nothing was sent to Home Assistant.",
                                "Check the entry_id (ha_get_integration) or the expected_* values.",
                                {{"mismatches", std::move(failed)}, {"written", false}}});
}

std::string token_of(const std::string& entry_id, const json::object& config) {
  const std::size_t h = std::hash<std::string>{}("reconfigure|" + entry_id + "|" + json::serialize(config));
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016zx", h);
  return buf;
}

// The reconfigure flow's first step, shown and aborted: what the confirmed call will answer.
boost::asio::awaitable<json::object> preflight(ToolEnv& env, const json::object& entry) {
  const std::string base = "/api/config/config_entries/flow";
  json::object start{{"handler", str_of(&entry, "domain")}, {"entry_id", str_of(&entry, "entry_id")}};
  auto starting = helpers::rest_call(env, "POST", base, json::value(std::move(start)), false);
  const helpers::RestAnswer step = co_await std::move(starting);
  const json::object* body = step.body.if_object();
  if (step.status >= 400 || !body) throw_http_failure(step.status, json::serialize(step.body));
  if (str_of(body, "type") == "abort")
    throw ToolException(ToolError{
        "reconfigure_not_supported",
        "Home Assistant refused to reconfigure this entry: " + str_of(body, "reason") + ". Nothing was written.",
        "Change its options instead (entry_id + config), or remove and add it again.",
        {{"reason", str_of(body, "reason")}, {"written", false}}});
  const std::string flow_id = str_of(body, "flow_id");
  auto aborting = helpers::rest_call(env, "DELETE", base + "/" + flow_id, nullptr, false);
  co_await std::move(aborting);
  json::object form;
  for (const char* k : {"step_id", "data_schema", "menu_options"})
    if (const json::value* v = body->if_contains(k)) form[k] = *v;
  co_return form;
}

// The preflight's preview (form, devices, entities, confirm_token). ha-mcp's
// two-step reconfigure: the retry carries confirm_token (not confirm). A client
// that can be asked is asked like at every other confirm: nullopt = accepted
// (the flow runs now); otherwise the preview, marked declined when asked.
boost::asio::awaitable<std::optional<json::object>> preview_or_ask(const Args& args, ToolEnv& env,
                                                                   mcp::RequestContext& ctx, const json::object& entry,
                                                                   const Identity& id, const json::object& config,
                                                                   const std::string& token) {
  const std::string entry_id = str_of(&entry, "entry_id");
  json::object body = entry_view(entry);
  auto checking = preflight(env, entry);
  json::object form = co_await std::move(checking);
  body["form"] = std::move(form);
  body["devices"] = strings(id.device_ids);
  body["entities"] = strings(id.entity_ids);
  body["confirm_token"] = token;
  json::object would_change{{"config", config}, {"form", body["form"]}};
  std::string note = args.has("confirm_token") ? "confirm_token does not match this entry_id and config"
                                               : "call again with the same entry_id, config and this confirm_token";
  Preview preview{"reconfigure", json::string(entry_id), std::move(would_change), std::move(note), std::move(body)};
  json::object shown = preview_body(std::move(preview));
  shown["next"] = "call again with confirm_token";
  auto asking = ask_user(env, ctx, std::move(shown));
  std::optional<json::object> not_accepted = co_await std::move(asking);
  co_return not_accepted;
}

}  // namespace

boost::asio::awaitable<json::object> reconfigure_entry(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                       const json::object& entry) {
  const std::string entry_id = str_of(&entry, "entry_id");
  if (entry.contains("supports_reconfigure") && entry.at("supports_reconfigure") == false)
    throw ToolException(
        ToolError{"reconfigure_not_supported",
                  "The " + str_of(&entry, "domain") + " integration cannot be reconfigured. Nothing was written.",
                  "Change its options instead (entry_id + config), or remove and add it again.",
                  {{"written", false}}});
  const Identity id = identity_of(*env.ha.snapshot(), entry_id);
  check_identity(args, id, entry_id);
  const json::object config = args.object("config") ? *args.object("config") : json::object{};
  const std::string token = token_of(entry_id, config);
  json::object body = entry_view(entry);
  if (args.str("confirm_token") != token) {
    auto asking = preview_or_ask(args, env, ctx, entry, id, config, token);
    std::optional<json::object> not_accepted = co_await std::move(asking);
    if (not_accepted) co_return std::move(*not_accepted);
  }
  helpers::FlowRun run;
  run.handler = str_of(&entry, "domain");
  run.reconfigure_entry_id = entry_id;
  run.config = config;
  run.menu_choice = args.opt_str("menu_choice");
  auto driving = helpers::drive_flow(env, std::move(run));
  const helpers::FlowOutcome outcome = co_await std::move(driving);
  body["result"] = "reconfigured";
  body["steps"] = outcome.steps;
  body["before"] = outcome.previous;
  body["sent"] = config;
  if (!outcome.unused_keys.empty()) body["ignored_config_keys"] = outcome.unused_keys;
  json::object after = outcome.previous;
  for (const auto& kv : config) after[kv.key()] = kv.value();
  helpers::journal(env, body, "integration", "reconfigure/" + entry_id, "", "update", json::value(outcome.previous),
                   json::value(std::move(after)));
  co_return body;
}

}  // namespace hamcp::tools::integrations
