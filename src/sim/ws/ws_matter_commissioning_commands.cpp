// The Matter integration's commissioning commands (homeassistant/components/
// matter/api.py) over Home::radios["matter"]: commission with a setup code or
// on the network with a PIN, open a node's commissioning window (sharing it
// with another controller), and the Thread dataset / Wi-Fi credentials the
// server gives devices it commissions. The sim's commissioning finds an Eve
// Energy plug for every well-formed code and records it in "commissioned";
// as HA's matter integration does on the server's node_added, the new node
// gets a device (identifier deviceid_<fabric>-<node>-MatterNodeDevice), a
// switch entity and the registries' create events.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "sim/home/matter_diagnostics.hpp"
#include "sim/ws/ws_radio_data.hpp"
#include "sim/ws/ws_radio_devices.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;

// A manual pairing code (11 or 21 digits, dashes allowed) or a QR payload ("MT:...").
bool well_formed_code(const std::string& code) {
  if (code.rfind("MT:", 0) == 0) return code.size() > 3;
  std::string digits;
  for (char ch : code)
    if (ch != '-' && ch != ' ') digits += ch;
  const bool numeric =
      std::all_of(digits.begin(), digits.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
  return numeric && (digits.size() == 11 || digits.size() == 21);
}

// matter-server's NodeCommissionFailed (error code 1), as HA passes it on.
void commission_failed(WsConnection& c, int64_t id) { c.send_error(id, "1", "Commission with code failed"); }

// The commissioned node in HA: a device of the matter entry, an on/off plug's switch, its node.
void add_node(WsConnection& c, const char* network_type) {
  std::int64_t node_id = 1;
  for (const auto& n : list(matter(c), "nodes"))
    node_id = std::max<std::int64_t>(node_id, n.at("diagnostics").at("node_id").to_number<std::int64_t>() + 1);
  char node_hex[17];
  std::snprintf(node_hex, sizeof node_hex, "%016llX", static_cast<unsigned long long>(node_id));
  const std::string identifier = std::string("deviceid_0000000000000001-") + node_hex + "-MatterNodeDevice";
  Device d;
  d.name = "Eve Energy";
  d.manufacturer = "Eve Systems";
  d.model = "Eve Energy";
  d.sw_version = "3.5.0";
  d.identifiers = {{"matter", identifier}};
  const std::string entry = radio_devices::entry_of(c, kMatter);
  if (!entry.empty()) {
    d.config_entries = {entry};
    d.primary_config_entry = entry;
  }
  const std::string device_id = radio_devices::add_device(
      c, std::move(d),
      {"switch", "matter", std::string("0000000000000001-") + node_hex + "-MatterNodeDevice-1-MatterPlug-6-0", "off"});
  const MatterNode node{node_id, network_type, "end_device", std::nullopt, "fd11:22::" + std::to_string(node_id)};
  list(matter(c), "nodes").push_back(json::object{{"device_id", device_id}, {"diagnostics", matter_diagnostics(node)}});
}

void commission(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string code = req_string(msg, "code");
  if (!well_formed_code(code)) return commission_failed(c, id);
  const bool network_only = opt_bool(msg, "network_only", true);
  list(matter(c), "commissioned").push_back(json::object{{"code", code}, {"network_only", network_only}});
  add_node(c, network_only ? "wifi" : "thread");
  c.send_result(id, nullptr);
}

void commission_on_network(WsConnection& c, int64_t id, const json::object& msg) {
  const std::int64_t pin = req_int(msg, "pin");
  if (pin <= 0 || pin > 99999998) return commission_failed(c, id);
  json::object record{{"pin", pin}};
  if (msg.contains("ip_addr")) record["ip_addr"] = req_string(msg, "ip_addr");
  list(matter(c), "commissioned").push_back(std::move(record));
  add_node(c, "wifi");
  c.send_result(id, nullptr);
}

void set_thread(WsConnection& c, int64_t id, const json::object& msg) {
  matter(c)["thread_dataset"] = req_string(msg, "thread_operation_dataset");
  c.send_result(id, nullptr);
}

// The password is kept only as "set": the sim has no device to hand it to.
void set_wifi_credentials(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string ssid = req_string(msg, "network_name");
  req_string(msg, "password");
  matter(c)["wifi"] = json::object{{"network_name", ssid}, {"password_set", true}};
  c.send_result(id, nullptr);
}

// matter/open_commissioning_window: CommissioningParameters of the node's new window.
void open_commissioning_window(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string device_id = req_string(msg, "device_id");
  for (const auto& n : list(matter(c), "nodes"))
    if (n.as_object().at("device_id") == device_id.c_str())
      return c.send_result(id, json::object{{"setup_pin_code", 20202021},
                                            {"setup_manual_code", "34970112332"},
                                            {"setup_qr_code", "MT:Y.K9042C00KA0648G00"}});
  c.send_error(id, "node_not_found", "Node not found for device " + device_id);
}

}  // namespace

void register_matter_commissioning_commands(ws_util::Table& t) {
  t["matter/commission"] = when_loaded<kMatter, commission>;
  t["matter/commission_on_network"] = when_loaded<kMatter, commission_on_network>;
  t["matter/set_thread"] = when_loaded<kMatter, set_thread>;
  t["matter/set_wifi_credentials"] = when_loaded<kMatter, set_wifi_credentials>;
  t["matter/open_commissioning_window"] = when_loaded<kMatter, open_commissioning_window>;
}

}  // namespace hamcp::sim
