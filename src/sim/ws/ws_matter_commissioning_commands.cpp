// The Matter integration's commissioning commands (homeassistant/components/
// matter/api.py) over Home::radios["matter"]: commission with a setup code or
// on the network with a PIN, open a node's commissioning window (sharing it
// with another controller), and the Thread dataset / Wi-Fi credentials the
// server gives devices it commissions. The sim's commissioning finds a device
// for every well-formed code and records it in "commissioned".
#include <algorithm>
#include <cctype>

#include "sim/ws/ws_radio_data.hpp"

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

void commission(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string code = req_string(msg, "code");
  if (!well_formed_code(code)) return commission_failed(c, id);
  list(matter(c), "commissioned")
      .push_back(json::object{{"code", code}, {"network_only", opt_bool(msg, "network_only", true)}});
  c.send_result(id, nullptr);
}

void commission_on_network(WsConnection& c, int64_t id, const json::object& msg) {
  const std::int64_t pin = req_int(msg, "pin");
  if (pin <= 0 || pin > 99999998) return commission_failed(c, id);
  json::object record{{"pin", pin}};
  if (msg.contains("ip_addr")) record["ip_addr"] = req_string(msg, "ip_addr");
  list(matter(c), "commissioned").push_back(std::move(record));
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
