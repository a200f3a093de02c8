// Z-Wave JS's WebSocket API (homeassistant/components/zwave_js/api.py) over
// Home::radios["zwave_js"]: network status, node status, configuration
// parameters (get, set), re-interview, route rebuilding, failed-node removal,
// inclusion (add_node, stop_inclusion) and the controller's hard reset.
// Nodes are found by their device-registry id as HA finds them. Unknown while
// there is no "zwave_js" config entry.
#include "sim/ws/ws_radio_data.hpp"
#include "sim/ws/ws_radio_devices.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;

// What HA's node_status() shows: the node without the sim's own fields.
json::object node_status(const json::object& node) {
  json::object out = node;
  out.erase("device_id");
  out.erase("config");
  return out;
}

json::object* node_of_device(WsConnection& c, const std::string& device_id) {
  for (auto& n : list(zwave(c), "nodes"))
    if (n.as_object().at("device_id") == device_id.c_str()) return &n.as_object();
  return nullptr;
}

// HA's _async_get_node: a device that is no Z-Wave node is not_found.
json::object* node_or_error(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string device_id = req_string(msg, "device_id");
  json::object* node = node_of_device(c, device_id);
  if (!node) c.send_error(id, "not_found", "Device " + device_id + " is not a valid Z-Wave device");
  return node;
}

std::string entry_id_of(WsConnection& c) {
  for (const auto& e : home(c).config_entries)
    if (e.at("entry").at("domain") == kZwave) return std::string(e.at("entry").at("entry_id").as_string());
  return {};
}

void network_status(WsConnection& c, int64_t id, const json::object& msg) {
  if (msg.contains("entry_id") == msg.contains("device_id"))
    return c.send_error(id, "invalid_format", "Must specify either device_id or entry_id");
  if (msg.contains("entry_id") && req_string(msg, "entry_id") != entry_id_of(c))
    return c.send_error(id, "not_found", "Config entry " + req_string(msg, "entry_id") + " not found");
  if (msg.contains("device_id") && !node_or_error(c, id, msg)) return;
  json::object controller = zwave(c)["controller"].as_object();
  json::array nodes;
  for (const auto& n : list(zwave(c), "nodes")) nodes.push_back(node_status(n.as_object()));
  controller["nodes"] = std::move(nodes);
  c.send_result(id, json::object{{"client", zwave(c)["client"]}, {"controller", std::move(controller)}});
}

void node_status_cmd(WsConnection& c, int64_t id, const json::object& msg) {
  if (const json::object* node = node_or_error(c, id, msg)) c.send_result(id, node_status(*node));
}

void get_config_parameters(WsConnection& c, int64_t id, const json::object& msg) {
  if (const json::object* node = node_or_error(c, id, msg)) c.send_result(id, node->at("config"));
}

// zwave_js/set_config_parameter {device_id, property, endpoint=0, property_key?, value}.
void set_config_parameter(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* node = node_or_error(c, id, msg);
  if (!node) return;
  const std::int64_t property = req_int(msg, "property");
  const std::int64_t endpoint = msg.contains("endpoint") ? req_int(msg, "endpoint") : 0;
  const std::int64_t value = req_int(msg, "value");
  for (auto& [value_id, param] : node->at("config").as_object()) {
    json::object& p = param.as_object();
    if (p.at("property").to_number<std::int64_t>() != property ||
        p.at("endpoint").to_number<std::int64_t>() != endpoint)
      continue;
    const json::object& meta = p.at("metadata").as_object();
    if (value < meta.at("min").to_number<std::int64_t>() || value > meta.at("max").to_number<std::int64_t>())
      return c.send_error(id, "not_supported",
                          "Value " + std::to_string(value) + " is not valid for parameter " + std::to_string(property));
    p["value"] = value;
    return c.send_result(id, json::object{{"value_id", value_id}, {"status", 1}});
  }
  c.send_error(id, "not_found",
               "Configuration parameter " + std::to_string(property) + " on node " +
                   std::to_string(node->at("node_id").to_number<std::int64_t>()) + " could not be found");
}

// zwave_js/refresh_node_info: answers at once, interview events follow.
void refresh_node_info(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* node = node_or_error(c, id, msg);
  if (!node) return;
  (*node)["interview_count"] = (node->contains("interview_count") ? node->at("interview_count").as_int64() : 0) + 1;
  // HA keeps the command open for interview events; the sim's interview ends at once, with none.
  c.send_result(id, nullptr);
}

void rebuild_node_routes(WsConnection& c, int64_t id, const json::object& msg) {
  if (json::object* node = node_or_error(c, id, msg)) c.send_result(id, node->at("status") != "dead");
}

void begin_rebuilding_routes(WsConnection& c, int64_t id, const json::object& msg) {
  if (req_string(msg, "entry_id") != entry_id_of(c))
    return c.send_error(id, "not_found", "Config entry " + req_string(msg, "entry_id") + " not found");
  zwave(c)["controller"].as_object()["is_rebuilding_routes"] = true;
  c.send_result(id, true);
}

// zwave_js/remove_failed_node: Z-Wave JS removes only a node the controller marked failed (dead).
void remove_failed_node(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* node = node_or_error(c, id, msg);
  if (!node) return;
  if (node->at("status") != "dead")
    return c.send_error(id, "zwave_error",
                        "Z-Wave error 1000 - The node could not be removed because it has not failed");
  const std::string device_id(node->at("device_id").as_string());
  json::array& nodes = list(zwave(c), "nodes");
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                             [&](const json::value& n) { return n.as_object().at("device_id") == device_id.c_str(); }),
              nodes.end());
  radio_devices::remove_device(c, device_id);  // with its entities, as HA's registries drop them
  // HA also streams a "node removed" event on the command's id; the sim sends only the result.
  c.send_result(id, nullptr);
}

constexpr std::int64_t kIdle = 0, kIncluding = 1;  // zwave-js InclusionState

bool entry_or_error(WsConnection& c, int64_t id, const json::object& msg) {
  if (req_string(msg, "entry_id") == entry_id_of(c)) return true;
  c.send_error(id, "not_found", "Config entry " + req_string(msg, "entry_id") + " not found");
  return false;
}

// zwave_js/add_node: the result (async_begin_inclusion's bool; true while already including),
// then the controller's events on the command's id. The sim's inclusion finds no node.
void add_node(WsConnection& c, int64_t id, const json::object& msg) {
  if (msg.contains("inclusion_strategy")) {  // the schema first, as voluptuous checks it
    const std::int64_t strategy = req_int(msg, "inclusion_strategy");
    if (strategy != 0 && strategy != 2 && strategy != 3 && strategy != 4)
      throw BadMessage{"value must be one of [0, 2, 3, 4] for dictionary value @ data['inclusion_strategy']"};
  }
  if (!entry_or_error(c, id, msg)) return;
  json::object& controller = zwave(c)["controller"].as_object();
  const bool already = controller["inclusion_state"] == kIncluding;
  controller["inclusion_state"] = kIncluding;
  c.add_subscription(id, [] {});
  c.send_result(id, true);
  if (!already) c.send_event(id, json::object{{"event", "inclusion started"}});
}

// zwave_js/stop_inclusion: async_stop_inclusion's bool (false when nothing was including).
void stop_inclusion(WsConnection& c, int64_t id, const json::object& msg) {
  if (!entry_or_error(c, id, msg)) return;
  json::object& controller = zwave(c)["controller"].as_object();
  const bool including = controller["inclusion_state"] == kIncluding;
  controller["inclusion_state"] = kIdle;
  c.send_result(id, including);
}

// zwave_js/hard_reset_controller: the controller forgets every node and gets a new home id;
// the old nodes' devices leave the registry (HA removes devices of nodes the driver no longer
// has) and HA answers with the controller's device id once it is registered again.
void hard_reset_controller(WsConnection& c, int64_t id, const json::object& msg) {
  if (!entry_or_error(c, id, msg)) return;
  json::object& controller = zwave(c)["controller"].as_object();
  const json::value own = controller.at("own_node_id");
  json::array& nodes = list(zwave(c), "nodes");
  for (const auto& n : nodes)
    if (n.at("node_id") != own) radio_devices::remove_device(c, std::string(n.at("device_id").as_string()));
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                             [&](const json::value& n) { return n.as_object().at("node_id") != own; }),
              nodes.end());
  controller["home_id"] = controller.at("home_id").to_number<std::int64_t>() + 1;
  controller["is_rebuilding_routes"] = false;
  c.send_result(id, nodes.empty() ? json::value(nullptr) : nodes.front().as_object().at("device_id"));
}

}  // namespace

void register_zwave_commands(ws_util::Table& t) {
  t["zwave_js/network_status"] = when_loaded<kZwave, network_status>;
  t["zwave_js/node_status"] = when_loaded<kZwave, node_status_cmd>;
  t["zwave_js/get_config_parameters"] = when_loaded<kZwave, get_config_parameters>;
  t["zwave_js/set_config_parameter"] = when_loaded<kZwave, set_config_parameter>;
  t["zwave_js/refresh_node_info"] = when_loaded<kZwave, refresh_node_info>;
  t["zwave_js/rebuild_node_routes"] = when_loaded<kZwave, rebuild_node_routes>;
  t["zwave_js/begin_rebuilding_routes"] = when_loaded<kZwave, begin_rebuilding_routes>;
  t["zwave_js/remove_failed_node"] = when_loaded<kZwave, remove_failed_node>;
  t["zwave_js/add_node"] = when_loaded<kZwave, add_node>;
  t["zwave_js/stop_inclusion"] = when_loaded<kZwave, stop_inclusion>;
  t["zwave_js/hard_reset_controller"] = when_loaded<kZwave, hard_reset_controller>;
}

}  // namespace hamcp::sim
