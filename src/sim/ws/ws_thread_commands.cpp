// The Thread integration's WebSocket API (homeassistant/components/thread/
// websocket_api.py) and OTBR's otbr/info (components/otbr/websocket_api.py)
// over Home::radios["thread"]: datasets (list, TLVs, preferred, delete).
// thread/* is unknown without a "thread" config entry, otbr/info without an
// "otbr" one. Network writes: ws_thread_network_commands.cpp.
#include "sim/ws/ws_radio_data.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;

json::object* dataset(WsConnection& c, const std::string& dataset_id) {
  for (auto& d : list(thread(c), "datasets"))
    if (d.as_object().at("dataset_id") == dataset_id.c_str()) return &d.as_object();
  return nullptr;
}

void list_datasets(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(id, json::object{{"datasets", list(thread(c), "datasets")}});
}

void get_dataset_tlv(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string dataset_id = req_string(msg, "dataset_id");
  const json::value* tlv = thread(c)["tlvs"].as_object().if_contains(dataset_id);
  if (!dataset(c, dataset_id) || !tlv) return c.send_error(id, "not_found", "unknown dataset");
  c.send_result(id, json::object{{"tlv", *tlv}});
}

void set_preferred_dataset(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string dataset_id = req_string(msg, "dataset_id");
  if (!dataset(c, dataset_id)) return c.send_error(id, "not_found", "unknown dataset");
  for (auto& d : list(thread(c), "datasets"))
    d.as_object()["preferred"] = d.as_object().at("dataset_id") == dataset_id.c_str();
  c.send_result(id, nullptr);
}

// thread/delete_dataset: the preferred dataset cannot be deleted (DatasetPreferredError).
void delete_dataset(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string dataset_id = req_string(msg, "dataset_id");
  const json::object* d = dataset(c, dataset_id);
  if (!d) return c.send_error(id, "not_found", "'" + dataset_id + "'");
  if (d->at("preferred").as_bool()) return c.send_error(id, "not_allowed", "attempt to remove preferred dataset");
  json::array& all = list(thread(c), "datasets");
  all.erase(std::remove_if(all.begin(), all.end(),
                           [&](const json::value& v) { return v.as_object().at("dataset_id") == dataset_id.c_str(); }),
            all.end());
  thread(c)["tlvs"].as_object().erase(dataset_id);
  c.send_result(id, nullptr);
}

// otbr/info: extended address -> the border router's active dataset and ids.
void otbr_info(WsConnection& c, int64_t id, const json::object&) {
  json::object out;
  for (const auto& [address, router] : thread(c)["otbr"].as_object()) {
    json::object r = router.as_object();
    r.erase("device_id");
    out[address] = std::move(r);
  }
  c.send_result(id, out);
}

// thread/discover_routers: the result, then each border router the sim "finds" on mDNS.
void discover_routers(WsConnection& c, int64_t id, const json::object&) {
  c.add_subscription(id, [] {});
  c.send_result(id, nullptr);
  for (const auto& [address, router] : thread(c)["otbr"].as_object()) {
    const json::object& r = router.as_object();
    json::object data{{"instance_name", "OpenThread Border Router #" + std::string(address).substr(12)},
                      {"addresses", json::array{"192.168.1.45"}},
                      {"border_agent_id", r.at("border_agent_id")},
                      {"brand", "homeassistant"},
                      {"extended_address", r.at("extended_address")},
                      {"extended_pan_id", r.at("extended_pan_id")},
                      {"model_name", "OpenThread Border Router"},
                      {"network_name", "MapleHouse"},
                      {"server", "core-openthread-border-router.local."},
                      {"thread_version", "1.3.0"},
                      {"unconfigured", nullptr},
                      {"vendor_name", "Home Assistant"}};
    c.send_event(id, json::object{{"type", "router_discovered"}, {"key", address}, {"data", std::move(data)}});
  }
}

}  // namespace

void register_thread_network_commands(ws_util::Table& t);  // ws_thread_network_commands.cpp

void register_thread_commands(ws_util::Table& t) {
  register_thread_network_commands(t);
  t["thread/list_datasets"] = when_loaded<kThread, list_datasets>;
  t["thread/get_dataset_tlv"] = when_loaded<kThread, get_dataset_tlv>;
  t["thread/set_preferred_dataset"] = when_loaded<kThread, set_preferred_dataset>;
  t["thread/delete_dataset"] = when_loaded<kThread, delete_dataset>;
  t["thread/discover_routers"] = when_loaded<kThread, discover_routers>;
  t["otbr/info"] = when_loaded<kOtbr, otbr_info>;
}

}  // namespace hamcp::sim
