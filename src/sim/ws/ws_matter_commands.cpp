// The Matter integration's WebSocket API (homeassistant/components/matter/
// api.py) over Home::radios["matter"]: node diagnostics, ping, interview,
// fabric removal; commissioning and credentials in ws_matter_commissioning_commands.cpp.
// Nodes are found by their device-registry id. Unknown while there is no
// "matter" config entry.
#include "sim/ws/ws_radio_data.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;

json::object* node_or_error(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string device_id = req_string(msg, "device_id");
  for (auto& n : list(matter(c), "nodes"))
    if (n.as_object().at("device_id") == device_id.c_str()) return &n.as_object();
  c.send_error(id, "node_not_found", "Node not found for device " + device_id);
  return nullptr;
}

void node_diagnostics(WsConnection& c, int64_t id, const json::object& msg) {
  if (const json::object* node = node_or_error(c, id, msg)) c.send_result(id, node->at("diagnostics"));
}

// matter/ping_node: each of the node's IP addresses -> whether it answered.
void ping_node(WsConnection& c, int64_t id, const json::object& msg) {
  const json::object* node = node_or_error(c, id, msg);
  if (!node) return;
  const json::object& diag = node->at("diagnostics").as_object();
  json::object out;
  for (const auto& ip : diag.at("ip_adresses").as_array()) out[ip.as_string()] = diag.at("available").as_bool();
  c.send_result(id, out);
}

void interview_node(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* node = node_or_error(c, id, msg);
  if (!node) return;
  (*node)["interviews"] = (node->contains("interviews") ? node->at("interviews").as_int64() : 0) + 1;
  c.send_result(id, nullptr);
}

// matter/remove_matter_fabric {device_id, fabric_index}: the node leaves that fabric.
void remove_matter_fabric(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* node = node_or_error(c, id, msg);
  if (!node) return;
  const std::int64_t index = radio_util::req_int(msg, "fabric_index");
  json::array& fabrics = node->at("diagnostics").as_object()["active_fabrics"].as_array();
  const auto before = fabrics.size();
  fabrics.erase(
      std::remove_if(fabrics.begin(), fabrics.end(),
                     [&](const json::value& f) { return f.at("fabric_index").to_number<std::int64_t>() == index; }),
      fabrics.end());
  // The server's FailedCommand for an unknown fabric index.
  if (fabrics.size() == before) return c.send_error(id, "0", "Fabric index " + std::to_string(index) + " not found");
  c.send_result(id, nullptr);
}

}  // namespace

void register_matter_commissioning_commands(ws_util::Table& t);  // ws_matter_commissioning_commands.cpp

void register_matter_commands(ws_util::Table& t) {
  register_matter_commissioning_commands(t);
  t["matter/node_diagnostics"] = when_loaded<kMatter, node_diagnostics>;
  t["matter/ping_node"] = when_loaded<kMatter, ping_node>;
  t["matter/interview_node"] = when_loaded<kMatter, interview_node>;
  t["matter/remove_matter_fabric"] = when_loaded<kMatter, remove_matter_fabric>;
}

}  // namespace hamcp::sim
