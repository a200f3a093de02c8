// Integrations beside the helpers: `sim_bridge`, the simulator's own hub
// integration (no real HA has it), whose flows cover what the integration tools
// must handle: a menu, two form steps, an abort with a reason (the cloud
// option), an options flow, a reconfigure flow, subentries and diagnostics.
// Its entry makes a device (identifiers ("sim_bridge", "bridge-<host>"), a MAC
// connection) and a status sensor whose unique_id is "bridge-<host>-status".
#include <cstdio>
#include <functional>

#include "sim/core/time_util.hpp"
#include "sim/flows/flow_engine.hpp"

namespace hamcp::sim::flows {

namespace {

std::string text_of(const json::object& o, std::string_view key, std::string fallback = {}) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : fallback;
}

// A stable, MAC-shaped address and 32-hex device id derived from the host.
std::string mac_of(const std::string& host) {
  const std::size_t h = std::hash<std::string>{}(host);
  char buf[18];
  std::snprintf(buf, sizeof buf, "02:%02x:%02x:%02x:%02x:%02x", unsigned(h & 0xff), unsigned((h >> 8) & 0xff),
                unsigned((h >> 16) & 0xff), unsigned((h >> 24) & 0xff), unsigned((h >> 32) & 0xff));
  return buf;
}

std::string device_id_of(const std::string& entry_id) {
  const std::size_t h = std::hash<std::string>{}(entry_id), g = std::hash<std::string>{}(entry_id + "/device");
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016zx%016zx", h, g);
  return buf;
}

void add_bridge_device(FlowState& flow, const std::string& title, const std::string& host) {
  Device d;
  d.id = device_id_of(flow.entry_id);
  d.name = title;
  d.manufacturer = "hamcp";
  d.model = "Sim Bridge";
  d.sw_version = "1.4.2";
  d.config_entries = {flow.entry_id};
  d.primary_config_entry = flow.entry_id;
  d.identifiers = {{"sim_bridge", "bridge-" + host}};
  d.connections = {{"mac", mac_of(host)}};
  d.created_at = d.modified_at = now_timestamp();
  flow.store.home().devices.push_back(d);
  flow.store.fire("device_registry_updated", {{"action", "create"}, {"device_id", d.id}}, flow.store.new_context());
  const std::string eid = add_entry_entity(flow, "sensor", title + " status", "sim_bridge", "connected", {});
  for (auto& e : flow.store.home().entities)
    if (e.entity_id == eid) {
      e.unique_id = "bridge-" + host + "-status";
      e.device_id = d.id;
    }
}

json::object bridge_diagnostics(const json::object& stored) {
  const json::object& entry = stored.at("entry").as_object();
  const json::object& options = stored.at("options").as_object();
  json::object data{{"host", options.contains("host") ? options.at("host") : json::value(nullptr)},
                    {"port", options.contains("port") ? options.at("port") : json::value(nullptr)},
                    {"api_key", "**REDACTED**"}};
  json::array subentries = stored.contains("subentries") ? stored.at("subentries").as_array() : json::array{};
  json::array rooms;
  for (int i = 0; i < 40; ++i)  // enough to need paging
    rooms.push_back(json::object{{"index", i}, {"rssi", -40 - i}, {"firmware", "1.4.2"}});
  return json::object{{"entry", json::object{{"entry_id", entry.at("entry_id")},
                                             {"title", entry.at("title")},
                                             {"data", std::move(data)},
                                             {"options", options}}},
                      {"subentries", std::move(subentries)},
                      {"bridge", json::object{{"uptime_s", 86400},
                                              {"token", "sk-sim-bridge-secret-0123456789"},
                                              {"radio_channels", std::move(rooms)}}}};
}

Handler sim_bridge_handler() {
  Handler h;
  h.domain = "sim_bridge";
  h.integration_type = "hub";
  h.steps["user"].menu_options = {"manual", "cloud"};
  h.steps["manual"].schema = json::parse(R"([
{"name":"host","required":true,"type":"string"},
{"name":"port","required":true,"default":80,"type":"integer"}])")
                                 .as_array();
  h.steps["manual"].submit = [](FlowState& flow, const json::object& answer) {
    const std::string host = text_of(answer, "host");
    if (host.empty() || host.find(' ') != std::string::npos)
      return StepResult::fail(json::object{{"host", "cannot_connect"}});
    for (const auto& e : list_entries(flow.store, "sim_bridge")) {
      const json::object* stored = stored_entry(flow.store, e.at("entry_id").as_string());
      if (stored && flow.entry_id.empty() && text_of(stored->at("options").as_object(), "host") == host)
        return StepResult::abort("already_configured");
    }
    return StepResult::go("settings");
  };
  h.steps["settings"].schema = json::parse(R"([
{"name":"name","required":true,"type":"string"},
{"name":"poll_interval","required":true,"default":30,"selector":{"number":{"min":5,"max":3600,"mode":"box"}}}])")
                                   .as_array();
  h.steps["cloud"].schema = json::parse(R"([{"name":"account","required":true,"type":"string"}])").as_array();
  h.steps["cloud"].submit = [](FlowState&, const json::object&) { return StepResult::abort("cloud_not_supported"); };
  h.options_step = "settings";
  h.reconfigure_step = "manual";
  h.subentry_types = json::object{{"room", json::object{{"supports_reconfigure", true}}}};
  h.subentry_forms["room"] = json::parse(R"([
{"name":"name","required":true,"type":"string"},
{"name":"sensors","required":true,"default":1,"selector":{"number":{"min":0,"max":16,"mode":"box"}}}])")
                                 .as_array();
  h.setup = [](FlowState& flow, const std::string& title, const json::object& options) {
    add_bridge_device(flow, title, text_of(options, "host", "bridge"));
  };
  h.diagnostics = bridge_diagnostics;
  return h;
}

}  // namespace

void add_integration_flow_handlers(HandlerTable& table) {
  Handler bridge = sim_bridge_handler();
  std::string domain = bridge.domain;
  table.emplace(std::move(domain), std::move(bridge));
}

}  // namespace hamcp::sim::flows
