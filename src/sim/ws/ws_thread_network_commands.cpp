// Thread network writes over Home::radios["thread"]: thread/add_dataset_tlv
// (components/thread/websocket_api.py; the store parses the TLVs and updates a
// dataset of the same extended PAN id), otbr/create_network, otbr/set_network
// and otbr/set_channel (components/otbr/websocket_api.py; a border router is
// named by its extended address, unknown_router otherwise).
#include <cstdio>

#include "sim/core/time_util.hpp"
#include "sim/ws/ws_radio_data.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;

struct Dataset {
  std::int64_t channel = 0;
  std::string pan_id, extended_pan_id, network_name;
};

int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

// MeshCoP TLVs: type, length, value; channel (0), PAN id (1), extended PAN id (2), name (3).
Dataset parse_tlvs(const std::string& hex) {
  std::vector<unsigned char> bytes;
  if (hex.size() % 2) throw BadMessage{"odd-length string"};
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) throw BadMessage{"non-hexadecimal number found in fromhex() arg"};
    bytes.push_back(static_cast<unsigned char>(hi * 16 + lo));
  }
  Dataset d;
  for (std::size_t i = 0; i + 1 < bytes.size();) {
    const std::size_t type = bytes[i], len = bytes[i + 1];
    if (i + 2 + len > bytes.size())
      throw BadMessage{"expected " + std::to_string(len) + " bytes for TLV " + std::to_string(type)};
    const std::string value_hex = hex.substr((i + 2) * 2, len * 2);
    if (type == 0 && len == 3) d.channel = bytes[i + 3] * 256 + bytes[i + 4];
    if (type == 1) d.pan_id = value_hex;
    if (type == 2) d.extended_pan_id = value_hex;
    if (type == 3)
      d.network_name.assign(bytes.begin() + static_cast<long>(i + 2), bytes.begin() + static_cast<long>(i + 2 + len));
    i += 2 + len;
  }
  return d;
}

std::string tlv(unsigned type, const std::string& value_hex) {
  char head[5];
  std::snprintf(head, sizeof head, "%02x%02x", type, static_cast<unsigned>(value_hex.size() / 2));
  return head + value_hex;
}

std::string make_tlvs(const Dataset& d) {
  char channel[7];
  std::snprintf(channel, sizeof channel, "00%04x", static_cast<unsigned>(d.channel));
  std::string name_hex;
  for (unsigned char ch : d.network_name) {
    char b[3];
    std::snprintf(b, sizeof b, "%02x", ch);
    name_hex += b;
  }
  return tlv(0, channel) + tlv(1, d.pan_id) + tlv(2, d.extended_pan_id) + tlv(3, name_hex);
}

// The dataset store's add: same extended PAN id -> that dataset's TLVs replaced.
std::string add_dataset(WsConnection& c, const std::string& source, const std::string& tlvs) {
  const Dataset d = parse_tlvs(tlvs);
  json::array& all = list(thread(c), "datasets");
  for (auto& v : all) {
    json::object& o = v.as_object();
    if (o.at("extended_pan_id") != d.extended_pan_id.c_str()) continue;
    o["channel"] = d.channel;
    o["network_name"] = d.network_name;
    o["pan_id"] = d.pan_id;
    const std::string id(o.at("dataset_id").as_string());
    thread(c)["tlvs"].as_object()[id] = tlvs;
    return id;
  }
  char id[32];
  std::snprintf(id, sizeof id, "01JSIMDATASET%013zu", all.size() + 1);
  all.push_back(json::object{{"channel", d.channel},
                             {"created", iso_time(now_timestamp())},
                             {"dataset_id", id},
                             {"extended_pan_id", d.extended_pan_id},
                             {"network_name", d.network_name},
                             {"pan_id", d.pan_id},
                             {"preferred", all.empty()},
                             {"preferred_border_agent_id", nullptr},
                             {"preferred_extended_address", nullptr},
                             {"source", source}});
  thread(c)["tlvs"].as_object()[id] = tlvs;
  return id;
}

void add_dataset_tlv(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string source = req_string(msg, "source"), tlvs = req_string(msg, "tlv");
  try {
    add_dataset(c, source, tlvs);
  } catch (const BadMessage& e) {
    return c.send_error(id, "invalid_format", e.message);  // the store's TLVError
  }
  c.send_result(id, nullptr);
}

json::object* router_or_error(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string address = req_string(msg, "extended_address");
  json::value* r = thread(c)["otbr"].as_object().if_contains(address);
  if (!r) c.send_error(id, "unknown_router", "");
  return r ? &r->as_object() : nullptr;
}

void activate(json::object& router, const std::string& tlvs) {
  const Dataset d = parse_tlvs(tlvs);
  router["active_dataset_tlvs"] = tlvs;
  router["channel"] = d.channel;
  router["extended_pan_id"] = d.extended_pan_id;
}

// otbr/create_network: factory reset, then a new network on channel 15 with a fresh PAN id.
void create_network(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* router = router_or_error(c, id, msg);
  if (!router) return;
  const std::size_t n = list(thread(c), "datasets").size() + 1;
  char pan[5], ext[17];
  std::snprintf(pan, sizeof pan, "%04x", static_cast<unsigned>((0x1a2b + n) & 0xffffU));  // a PAN id is 16 bits
  std::snprintf(ext, sizeof ext, "%016llx", 0x0123456789abcdefULL + n);
  const Dataset d{15, pan, ext, std::string("ha-thread-") + pan};
  const std::string tlvs = make_tlvs(d);
  activate(*router, tlvs);
  add_dataset(c, "OpenThread Border Router", tlvs);
  c.send_result(id, nullptr);
}

void set_network(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* router = router_or_error(c, id, msg);
  if (!router) return;
  const json::value* tlvs = thread(c)["tlvs"].as_object().if_contains(req_string(msg, "dataset_id"));
  if (!tlvs) return c.send_error(id, "unknown_dataset", "Unknown dataset");
  activate(*router, std::string(tlvs->as_string()));
  c.send_result(id, nullptr);
}

// otbr/set_channel: the router moves after PENDING_DATASET_DELAY_TIMER (300 s); the sim at once.
void set_channel(WsConnection& c, int64_t id, const json::object& msg) {
  json::object* router = router_or_error(c, id, msg);
  if (!router) return;
  (*router)["channel"] = req_int(msg, "channel");
  c.send_result(id, json::object{{"delay", 300.0}});
}

}  // namespace

void register_thread_network_commands(ws_util::Table& t) {
  t["thread/add_dataset_tlv"] = when_loaded<kThread, add_dataset_tlv>;
  t["otbr/create_network"] = when_loaded<kOtbr, create_network>;
  t["otbr/set_network"] = when_loaded<kOtbr, set_network>;
  t["otbr/set_channel"] = when_loaded<kOtbr, set_channel>;
}

}  // namespace hamcp::sim
