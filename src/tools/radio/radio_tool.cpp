// ha_manage_radio: one tool for the four radio networks, ha-mcp 8.7.0's name
// and arguments. The radio picks an action table (radio_zwave/zigbee/thread/
// matter.cpp); ha-mcp actions hamcp does not do yet answer not_implemented
// naming the ones that exist.
#include "common/join.hpp"
#include "tools/confirmation.hpp"
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace radio {

namespace {

RadioActions actions_of(const Radio& radio) {
  const std::string_view name = radio.name;
  if (name == "zwave") return zwave_actions();
  if (name == "zigbee") return zigbee_actions();
  if (name == "thread") return thread_actions();
  return matter_actions();
}

json::array names(const RadioActions& actions) {
  json::array out;
  for (const auto& a : actions.implemented) out.emplace_back(a.name);
  return out;
}

std::string joined(const json::array& names) {
  return join(names, ", ", [](const json::value& name) { return std::string_view(name.as_string()); });
}

}  // namespace

boost::asio::awaitable<json::object> network_status(ToolEnv& env, const Radio& radio) {
  json::object none;
  Args args(none);
  for (const auto& a : actions_of(radio).implemented)
    if (std::string_view(a.name) == "network_status") {
      auto running = a.run(args, env);
      json::object out = co_await std::move(running);
      co_return out;
    }
  throw std::logic_error("radio without network_status");
}

}  // namespace radio

namespace {

// A destructive action previews without confirm; when the user is asked and
// accepts, the action runs again with confirm=true.
boost::asio::awaitable<mcp::ToolResult> run_action(const radio::Action& a, Args& args, ToolEnv& env,
                                                   mcp::RequestContext& ctx) {
  auto running = a.run(args, env);
  json::object body = co_await std::move(running);
  if (!a.destructive || args.flag("confirm", false) || !is_preview_body(body)) co_return ok(std::move(body));
  auto asking = ask_user(env, ctx, std::move(body));
  std::optional<json::object> shown = co_await std::move(asking);
  if (shown) co_return ok(std::move(*shown));
  args.raw()["confirm"] = true;
  auto confirmed = a.run(args, env);
  json::object done = co_await std::move(confirmed);
  co_return ok(std::move(done));
}

boost::asio::awaitable<mcp::ToolResult> run_radio(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string radio_name = args.str("radio");
  const radio::Radio* r = radio::find_radio(radio_name);
  if (!r)
    throw ToolException(bad_argument("radio", radio_name.empty() ? "missing" : "unknown radio '" + radio_name + "'",
                                     "Use zwave, zigbee, thread or matter."));
  const radio::RadioActions actions = radio::actions_of(*r);
  const std::string action = args.str("action");
  for (const auto& a : actions.implemented)
    if (action == a.name) {
      auto running = run_action(a, args, env, ctx);
      mcp::ToolResult result = co_await std::move(running);
      co_return result;
    }
  const json::array available = radio::names(actions);
  for (const char* later : actions.not_implemented)
    if (action == later) {
      ToolError error{"not_implemented",
                      std::string("hamcp does not do ") + r->name + " action " + action + " yet.",
                      "Available for radio=" + std::string(r->name) + ": " + radio::joined(available) + ".",
                      {}};
      error.extra["available_actions"] = available;
      throw ToolException(std::move(error));
    }
  ToolError error = bad_argument(
      "action", action.empty() ? "missing" : "unknown " + std::string(r->name) + " action '" + action + "'",
      "Use one of: " + radio::joined(available) + ".");
  error.extra["available_actions"] = available;
  throw ToolException(std::move(error));
}

}  // namespace

ToolSpec make_manage_radio_spec() {
  ToolSpec s;
  s.name = "ha_manage_radio";
  s.title = "Radio networks";
  s.description = "Zigbee/Z-Wave/Thread/Matter networks. Inputs in params; risky actions need confirm=true.";
  s.input_schema = R"J({"type":"object","properties":{
"radio":{"type":"string","enum":["zwave","zigbee","matter","thread"]},
"action":{"type":"string","description":"all: network_status, diagnostics. zwave/zigbee/matter: firmware_update. zwave: get_config_params, get_config_param, set_config_param, reinterview, rebuild_routes, remove_device, ping, add, hard_reset. zigbee: groups, permit_join, bind, unbind, group_add/_remove, group_members_add/_remove, remove_device, network_backup/_restore, change_channel, reconfigure, cluster_read/_write/_command. thread: list_datasets, discover_routers, set_preferred_dataset, delete_dataset, add_dataset, create_network, set_network, set_channel. matter: ping, interview, remove_fabric, commission, commission_on_network, share_out, set_thread, set_wifi_credentials"},
"device_id":{"type":"string"},"entity_id":{"type":"string"},"params":{"type":"object"},"confirm":{"type":"boolean"}},
"required":["radio","action"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.mixed = true;
  s.run = run_radio;
  return s;
}

void register_radio_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_manage_radio_spec(), env));
}

}  // namespace hamcp::tools
