// ZHA's network and cluster commands (homeassistant/components/zha/
// websocket_api.py) over Home::radios["zha"]: network backups (list, create,
// restore), channel change, a device's clusters, a cluster's attributes and
// one attribute's value (sent as text, as HA's str(value) does). The sim's
// devices expose a small fixed cluster set derived from their device type.
#include "sim/core/time_util.hpp"
#include "sim/ws/ws_radio_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;

constexpr char kZha[] = "zha";

json::object& zha(WsConnection& c) { return data(c, "zha"); }
json::object& settings(WsConnection& c) { return zha(c)["network"].as_object()["settings"].as_object(); }

const json::object* device_by_ieee(WsConnection& c, const std::string& ieee) {
  for (const auto& d : list(zha(c), "devices"))
    if (d.as_object().at("ieee") == ieee.c_str()) return &d.as_object();
  return nullptr;
}

void backups_list(WsConnection& c, int64_t id, const json::object&) { c.send_result(id, list(zha(c), "backups")); }

// zigpy's create_backup: the current network settings stamped now; kept in the list.
void backups_create(WsConnection& c, int64_t id, const json::object&) {
  json::object backup = settings(c);
  backup["backup_time"] = iso_time(now_timestamp());
  list(zha(c), "backups").push_back(backup);
  c.send_result(id, json::object{{"backup", std::move(backup)}, {"is_complete", true}});
}

// NetworkBackup.from_dict refuses a dict without network_info / node_info.
void backups_restore(WsConnection& c, int64_t id, const json::object& msg) {
  const json::value* backup = msg.if_contains("backup");
  if (!backup) throw BadMessage{"required key not provided @ data['backup']"};
  const json::object* b = backup->if_object();
  if (!b || !b->contains("network_info") || !b->contains("node_info"))
    throw BadMessage{"expected a zigpy network backup for dictionary value @ data['backup']"};
  json::object restored = *b;
  restored["backup_time"] = settings(c).at("backup_time");
  settings(c) = std::move(restored);
  c.send_result(id, nullptr);
}

// vol.Any("auto", vol.Range(11, 26)); "auto" picks the sim's quietest channel, 25.
void change_channel(WsConnection& c, int64_t id, const json::object& msg) {
  const json::value* v = msg.if_contains("new_channel");
  if (!v) throw BadMessage{"required key not provided @ data['new_channel']"};
  std::int64_t channel = 25;
  if (!(v->is_string() && v->get_string() == "auto")) {
    if (!v->is_int64() || v->get_int64() < 11 || v->get_int64() > 26)
      throw BadMessage{"value must be at least 11 and at most 26 for dictionary value @ data['new_channel']"};
    channel = v->get_int64();
  }
  json::object& info = settings(c)["network_info"].as_object();
  info["channel"] = channel;
  info["channel_mask"] = json::array{channel};
  info["nwk_update_id"] = info["nwk_update_id"].to_number<std::int64_t>() + 1;
  c.send_result(id, nullptr);
}

struct Cluster {
  int id;
  const char* name;
  const char* type;  // "in" (server) or "out" (client)
};

std::vector<Cluster> clusters_of(const json::object& device) {
  std::vector<Cluster> out{{0x0000, "Basic", "in"}, {0x0003, "Identify", "in"}};
  const json::value* type = device.if_contains("device_type");
  if (type && *type == "EndDevice")
    out.push_back({0x0001, "PowerConfiguration", "in"});
  else
    out.push_back({0x0006, "OnOff", "in"});
  out.push_back({0x0019, "Ota", "out"});
  return out;
}

struct Attribute {
  int cluster, id;
  const char* name;
};
constexpr Attribute kAttributes[] = {
    {0x0000, 0x0000, "zcl_version"},   {0x0000, 0x0004, "manufacturer"},
    {0x0000, 0x0005, "model"},         {0x0000, 0x0007, "power_source"},
    {0x0003, 0x0000, "identify_time"}, {0x0001, 0x0021, "battery_percentage_remaining"},
    {0x0006, 0x0000, "on_off"},        {0x0019, 0x0002, "current_file_version"},
};

bool has_cluster(const json::object& device, std::int64_t cluster, const std::string& type) {
  for (const auto& c : clusters_of(device))
    if (c.id == cluster && type == c.type) return true;
  return false;
}

void device_clusters(WsConnection& c, int64_t id, const json::object& msg) {
  json::array out;
  if (const json::object* d = device_by_ieee(c, req_string(msg, "ieee")))
    for (const auto& cl : clusters_of(*d))
      out.push_back(json::object{{"type", cl.type}, {"id", cl.id}, {"name", cl.name}, {"endpoint_id", 1}});
  c.send_result(id, out);
}

void cluster_attributes(WsConnection& c, int64_t id, const json::object& msg) {
  const json::object* d = device_by_ieee(c, req_string(msg, "ieee"));
  const std::int64_t endpoint = req_int(msg, "endpoint_id"), cluster = req_int(msg, "cluster_id");
  const std::string type = req_string(msg, "cluster_type");
  json::array out;
  if (d && endpoint == 1 && has_cluster(*d, cluster, type))
    for (const auto& a : kAttributes)
      if (a.cluster == cluster) out.push_back(json::object{{"id", a.id}, {"name", a.name}});
  c.send_result(id, out);
}

// An attribute's value as HA sends it: Python's str() of what zigpy read.
std::string attribute_value(WsConnection& c, const json::object& d, std::int64_t cluster, std::int64_t attribute) {
  const std::string key =
      std::string(d.at("ieee").as_string()) + "/1/" + std::to_string(cluster) + "/" + std::to_string(attribute);
  const json::object* written = zha(c)["attribute_values"].if_object();
  if (const json::value* v = written ? written->if_contains(key) : nullptr) return std::string(v->as_string());
  auto text = [&](const char* k) { return d.contains(k) ? std::string(d.at(k).as_string()) : std::string("None"); };
  if (cluster == 0x0000 && attribute == 0x0000) return "8";
  if (cluster == 0x0000 && attribute == 0x0004) return text("manufacturer");
  if (cluster == 0x0000 && attribute == 0x0005) return text("model");
  if (cluster == 0x0000 && attribute == 0x0007) return d.at("power_source") == "Mains" ? "1" : "3";
  if (cluster == 0x0003 && attribute == 0x0000) return "0";
  if (cluster == 0x0001 && attribute == 0x0021) return "176";
  if (cluster == 0x0006 && attribute == 0x0000) return "True";
  if (cluster == 0x0019 && attribute == 0x0002) return "16777232";
  return "None";
}

void attribute_read(WsConnection& c, int64_t id, const json::object& msg) {
  const json::object* d = device_by_ieee(c, req_string(msg, "ieee"));
  const std::int64_t endpoint = req_int(msg, "endpoint_id"), cluster = req_int(msg, "cluster_id");
  const std::int64_t attribute = req_int(msg, "attribute");
  const std::string type = req_string(msg, "cluster_type");
  if (!d) return c.send_result(id, "None");  // HA: no device -> str(None)
  if (endpoint != 1 || !has_cluster(*d, cluster, type))
    // HA's async_get_cluster returns None, read_attributes raises: async_response's generic answer.
    return c.send_error(id, "unknown_error", "Unknown error");
  c.send_result(id, json::value(attribute_value(c, *d, cluster, attribute)));
}

}  // namespace

void register_zha_network_commands(ws_util::Table& t) {
  t["zha/network/backups/list"] = when_loaded<kZha, backups_list>;
  t["zha/network/backups/create"] = when_loaded<kZha, backups_create>;
  t["zha/network/backups/restore"] = when_loaded<kZha, backups_restore>;
  t["zha/network/change_channel"] = when_loaded<kZha, change_channel>;
  t["zha/devices/clusters"] = when_loaded<kZha, device_clusters>;
  t["zha/devices/clusters/attributes"] = when_loaded<kZha, cluster_attributes>;
  t["zha/devices/clusters/attributes/value"] = when_loaded<kZha, attribute_read>;
}

}  // namespace hamcp::sim
