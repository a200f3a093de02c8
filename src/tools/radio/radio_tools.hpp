#pragma once
// The radio family (issue 12 item 5): ha_manage_radio, ha-mcp 8.7.0's name and
// arguments (radio, action, device_id, entity_id, params, confirm) over the
// integrations' own WebSocket APIs: Z-Wave JS (zwave_js/*), ZHA (zha/*),
// Thread (thread/*, otbr/info) and Matter (matter/*). Reads answer in
// read-only sessions (mixed); destructive actions preview without confirm.
// network_status() also answers ha_get_system_health's *_network includes.

#include <boost/asio/awaitable.hpp>
#include <memory>
#include <span>
#include <string>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_manage_radio_spec();
void register_radio_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace radio {

struct Radio {
  const char* name;    // the tool's radio value: zwave, zigbee, thread, matter
  const char* domain;  // the integration: zwave_js, zha, thread, matter
  const char* label;   // "Z-Wave JS", "ZHA", ...
};

// zwave/zigbee/thread/matter (also zha, zwave_js); nullptr for anything else.
const Radio* find_radio(std::string_view name);

// The radio's config entry id; radio_not_configured when HA has none,
// radio_not_loaded when it is not loaded.
boost::asio::awaitable<std::string> entry_id(ToolEnv& env, const Radio& radio);

// One WebSocket command of the radio's API. unknown_command (the integration
// is not set up) -> radio_not_configured; another refusal -> radio_refused
// with HA's code and words.
boost::asio::awaitable<json::value> command(ToolEnv& env, const Radio& radio, json::object message);

// A command whose answer is a list ([] when HA answers anything else).
boost::asio::awaitable<json::array> command_list(ToolEnv& env, const Radio& radio, json::object message);

// One service of the radio's integration (zha.set_zigbee_cluster_attribute...), with
// command()'s refusals: the service unknown -> radio_not_configured; else radio_refused.
boost::asio::awaitable<json::value> service(ToolEnv& env, const Radio& radio, ha::ServiceCall call);

// The device the call names (device_id, or entity_id's device), checked to be
// one of the radio's: its registry id, name and the radio's identifier
// (ZHA: the IEEE address; Z-Wave: "<home id>-<node id>").
struct Device {
  std::string id;
  std::string name;
  std::string identifier;
};
boost::asio::awaitable<Device> device_arg(Args& args, ToolEnv& env, const Radio& radio);
// The same, when the call may name no device (std::nullopt then).
boost::asio::awaitable<std::optional<Device>> optional_device(Args& args, ToolEnv& env, const Radio& radio);
// The radio's devices in the device registry (id, name, identifier).
std::vector<Device> radio_devices(const ha::Snapshot& snap, const Radio& radio);

// params.<key> as text / integer; bad_argument naming params.<key> when missing.
std::string param_str(Args& args, std::string_view key);
std::int64_t param_int(Args& args, std::string_view key);
const json::value* param(Args& args, std::string_view key);

using ActionFn = boost::asio::awaitable<json::object> (*)(Args& args, ToolEnv& env);
struct Action {
  const char* name;
  ActionFn run;
  bool destructive = false;  // refuses to act without confirm (the action previews)
};
struct RadioActions {
  std::span<const Action> implemented;
  std::span<const char* const> not_implemented;  // ha-mcp's actions hamcp does not do yet
};
// radio_zigbee_network.cpp, radio_zigbee_clusters.cpp, radio_zigbee_reconfigure.cpp (in zigbee_actions()).
boost::asio::awaitable<json::object> zigbee_network_backup(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> zigbee_network_restore(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> zigbee_change_channel(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> zigbee_cluster_read(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> zigbee_cluster_write(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> zigbee_cluster_command(Args& args, ToolEnv& env);
// radio_zigbee_reconfigure.cpp.
boost::asio::awaitable<json::object> zigbee_reconfigure(Args& args, ToolEnv& env);

// radio_zwave_network.cpp (in zwave_actions()).
boost::asio::awaitable<json::object> zwave_ping(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> zwave_add(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> zwave_hard_reset(Args& args, ToolEnv& env);

// radio_thread_network.cpp (in thread_actions()).
boost::asio::awaitable<json::object> thread_create_network(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> thread_set_network(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> thread_set_channel(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> thread_add_dataset(Args& args, ToolEnv& env);

// radio_matter_commissioning.cpp (in matter_actions()).
boost::asio::awaitable<json::object> matter_commission(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> matter_commission_on_network(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> matter_share_out(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> matter_set_thread(Args& args, ToolEnv& env);
boost::asio::awaitable<json::object> matter_set_wifi_credentials(Args& args, ToolEnv& env);

// radio_firmware.cpp: a device's firmware through its update entity (update.install).
boost::asio::awaitable<json::object> firmware_update(Args& args, ToolEnv& env, const Radio& radio);

RadioActions zwave_actions();
RadioActions zigbee_actions();
RadioActions thread_actions();
RadioActions matter_actions();

// network_status of one radio (ha_get_system_health's zha_network, ...).
boost::asio::awaitable<json::object> network_status(ToolEnv& env, const Radio& radio);
// {"configured": false, "message": ...} instead of radio_not_configured.
boost::asio::awaitable<json::object> network_status_or_absent(ToolEnv& env, const Radio& radio);

// A destructive action's preview in the one shape (tools/confirmation.hpp); `what` is its action.
json::object preview(std::string what, json::object details);

}  // namespace radio

}  // namespace hamcp::tools
