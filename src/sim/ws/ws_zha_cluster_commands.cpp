// ZHA's per-device ZCL commands (homeassistant/components/zha/websocket_api.py)
// over Home::radios["zha"] and the sim's cluster model (core/zha_clusters.*):
// a device's clusters, a cluster's attributes and commands, one attribute's
// value (sent as text, as HA's str(value) does), and zha/devices/reconfigure,
// which, as in HA, never answers with a result: it streams the cluster
// handlers' bind and configure-reporting messages on the command's id until
// unsubscribed (the sim sends them at once, ending with zha_channel_cfg_done;
// nothing for a device listed in radios["zha"]["asleep"]).
#include <cctype>

#include "sim/core/zha_clusters.hpp"
#include "sim/ws/ws_radio_data.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;
namespace zm = zha_model;

void device_clusters(WsConnection& c, int64_t id, const json::object& msg) {
  json::array out;
  if (const json::object* d = zha_device(c, req_string(msg, "ieee")))
    for (const auto& cl : zm::clusters_of(*d))
      out.push_back(json::object{{"type", cl.type}, {"id", cl.id}, {"name", cl.name}, {"endpoint_id", 1}});
  c.send_result(id, out);
}

struct ClusterMsg {
  const json::object* device;
  std::int64_t endpoint, cluster;
  std::string type;
  bool found() const { return device && zm::has_cluster(*device, endpoint, cluster, type); }
};

ClusterMsg cluster_msg(WsConnection& c, const json::object& msg) {
  const json::object* d = zha_device(c, req_string(msg, "ieee"));
  const std::int64_t endpoint = req_int(msg, "endpoint_id"), cluster = req_int(msg, "cluster_id");
  return ClusterMsg{d, endpoint, cluster, req_string(msg, "cluster_type")};
}

void cluster_attributes(WsConnection& c, int64_t id, const json::object& msg) {
  const ClusterMsg m = cluster_msg(c, msg);
  json::array out;
  if (m.found())
    for (const auto& a : zm::attributes_of(m.cluster)) out.push_back(json::object{{"id", a.id}, {"name", a.name}});
  c.send_result(id, out);
}

// The server commands with their voluptuous_serialize'd schema (HA also lists client commands; the sim has none).
void cluster_commands(WsConnection& c, int64_t id, const json::object& msg) {
  const ClusterMsg m = cluster_msg(c, msg);
  json::array out;
  if (m.found() && m.type == "in")
    for (const auto& cmd : zm::server_commands_of(m.cluster)) {
      json::array schema;
      if (*cmd.argument)
        schema.push_back(json::object{
            {"type", "integer"}, {"valueMin", 0}, {"valueMax", 65535}, {"name", cmd.argument}, {"required", true}});
      out.push_back(
          json::object{{"type", "server"}, {"id", cmd.id}, {"name", cmd.name}, {"schema", std::move(schema)}});
    }
  c.send_result(id, out);
}

void attribute_read(WsConnection& c, int64_t id, const json::object& msg) {
  const ClusterMsg m = cluster_msg(c, msg);
  const std::int64_t attribute = req_int(msg, "attribute");
  if (!m.device) return c.send_result(id, "None");  // HA: no device -> str(None)
  if (!m.found())
    // HA's async_get_cluster returns None, read_attributes raises: async_response's generic answer.
    return c.send_error(id, "unknown_error", "Unknown error");
  c.send_result(id, json::value(zm::attribute_value(c.core().store(), zha(c), *m.device, m.cluster, attribute)));
}

// IEEE_SCHEMA (EUI64.convert): eight hex pairs separated by colons.
bool eui64(const std::string& text) {
  if (text.size() != 23) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (i % 3 == 2 ? text[i] != ':' : !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

// What ZHA's cluster handlers report while configuring: a bind per bound cluster, reporting
// for the ones with reportable attributes, then cfg_done. An unavailable device fails each.
json::array reconfigure_events(const json::object& device) {
  const bool ok = !(device.contains("available") && device.at("available") == false);
  json::array events;
  for (const auto& cl : zm::clusters_of(device)) {
    if (std::string_view(cl.type) != "in" || cl.id == 0x0000 || cl.id == 0x0003) continue;
    events.push_back(
        json::object{{"type", "zha_channel_bind"},
                     {"zha_channel_msg_data", {{"cluster_name", cl.name}, {"cluster_id", cl.id}, {"success", ok}}}});
    json::object attributes;
    for (const auto& a : zm::attributes_of(cl.id)) {
      const bool battery = cl.id == 0x0001;
      attributes[a.name] = json::object{{"min", battery ? 3600 : 0},
                                        {"max", battery ? 10800 : 900},
                                        {"id", a.id},
                                        {"name", a.name},
                                        {"change", 1},
                                        {"status", ok ? "SUCCESS" : "FAILURE"}};
    }
    events.push_back(json::object{
        {"type", "zha_channel_configure_reporting"},
        {"zha_channel_msg_data", {{"cluster_name", cl.name}, {"cluster_id", cl.id}, {"attributes", attributes}}}});
  }
  events.push_back(json::object{{"type", "zha_channel_cfg_done"}});
  return events;
}

void reconfigure(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string ieee = req_string(msg, "ieee");
  if (!eui64(ieee)) throw BadMessage{"not a valid value for dictionary value @ data['ieee']"};
  // HA registers the subscription before `assert device`: an unknown device is AssertionError's generic answer.
  c.add_subscription(id, [] {});
  const json::object* d = zha_device(c, ieee);
  if (!d) return c.send_error(id, "unknown_error", "Unknown error");
  list(zha(c), "reconfigured").push_back(json::value(ieee));  // for tests: what was reconfigured
  // A sleeping end device (tests list it in "asleep") configures when it wakes: nothing to report until then.
  for (const auto& sleeping : list(zha(c), "asleep"))
    if (sleeping == ieee.c_str()) return;
  for (const auto& event : reconfigure_events(*d)) c.send_event(id, event);
}

}  // namespace

void register_zha_cluster_commands(ws_util::Table& t) {
  t["zha/devices/clusters"] = when_loaded<kZha, device_clusters>;
  t["zha/devices/clusters/attributes"] = when_loaded<kZha, cluster_attributes>;
  t["zha/devices/clusters/commands"] = when_loaded<kZha, cluster_commands>;
  t["zha/devices/clusters/attributes/value"] = when_loaded<kZha, attribute_read>;
  t["zha/devices/reconfigure"] = when_loaded<kZha, reconfigure>;
}

}  // namespace hamcp::sim
