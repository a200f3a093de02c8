// The demo home's radio networks, each linked to device-registry entries:
// a ZHA coordinator with three Zigbee devices and a group, a Z-Wave JS
// controller with three nodes (configuration parameters included), one Thread
// dataset with its OpenThread Border Router, and a Matter node. The data is
// kept in Home::radios in the shapes the integrations' WebSocket APIs answer
// with (sim/ws/ws_{zha,zwave,thread,matter}_commands.cpp).
#include <set>

#include "sim/core/update_progress.hpp"
#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"
#include "sim/home/matter_diagnostics.hpp"

namespace hamcp::sim {

namespace {

Device& device_by_id(Home& home, const std::string& id) {
  for (auto& d : home.devices)
    if (d.id == id) return d;
  throw std::logic_error("demo_radios: no device " + id);
}

std::optional<std::string> area_if_present(const Home& home, const std::string& area_id) {
  for (const auto& a : home.areas)
    if (a.area_id == area_id) return area_id;
  return std::nullopt;
}

// A device of `domain` whose registry identifier is (domain, identifier).
std::string radio_device(HomeBuilder& b, const char* domain, const char* name, const char* manufacturer,
                         const char* model, const std::string& identifier, const char* area) {
  DeviceSpec spec;
  spec.name = name;
  spec.manufacturer = manufacturer;
  spec.model = model;
  spec.platform = domain;
  spec.area_id = area_if_present(b.home(), area);
  const std::string id = b.add_device(std::move(spec));
  device_by_id(b.home(), id).identifiers = {{domain, identifier}};
  return id;
}

// A radio device's firmware update entity, as ZHA, Z-Wave JS and Matter add
// one (ha_manage_radio firmware_update installs through it).
void add_firmware(HomeBuilder& b, const std::string& device_id, const char* platform, const char* installed,
                  const char* latest) {
  EntitySpec s;
  s.domain = "update";
  s.device_id = device_id;
  s.platform = platform;
  s.original_name = "Firmware";
  s.device_class = "firmware";
  s.entity_category = "config";
  s.state = std::string(installed) == latest ? "off" : "on";
  s.attributes = {{"auto_update", false},
                  {"display_precision", 0},
                  {"installed_version", installed},
                  {"in_progress", false},
                  {"latest_version", latest},
                  {"release_summary", nullptr},
                  {"release_url", nullptr},
                  {"skipped_version", nullptr},
                  {"title", nullptr},
                  {"update_percentage", nullptr},
                  {"supported_features", kUpdateInstall | kUpdateProgress}};
  b.add_entity(std::move(s));
}

// Z-Wave JS's per-node ping button (button.py; translation key "ping").
void add_ping_button(HomeBuilder& b, const std::string& device_id) {
  EntitySpec s;
  s.domain = "button";
  s.device_id = device_id;
  s.platform = "zwave_js";
  s.original_name = "Ping";
  s.entity_category = "config";
  s.state = "unknown";
  const std::string entity_id = b.add_entity(std::move(s));
  for (auto& e : b.home().entities)
    if (e.entity_id == entity_id) e.translation_key = "ping";
}

json::object zha_device(const std::string& ieee, const char* nwk, const std::string& reg_id, const Device& d,
                        const char* type, const char* power, int lqi) {
  return json::object{{"ieee", ieee},
                      {"nwk", nwk},
                      {"manufacturer", d.manufacturer},
                      {"model", d.model},
                      {"name", d.manufacturer + " " + d.model},
                      {"quirk_applied", false},
                      {"quirk_class", "zigpy.device.Device"},
                      {"manufacturer_code", 4447},
                      {"power_source", power},
                      {"lqi", lqi},
                      {"rssi", -60},
                      {"last_seen", "2026-01-01T11:58:00"},
                      {"available", true},
                      {"device_type", type},
                      {"user_given_name", d.name},
                      {"device_reg_id", reg_id},
                      {"area_id", d.area_id ? json::value(*d.area_id) : json::value(nullptr)},
                      {"active_coordinator", std::string(type) == "Coordinator"},
                      {"entities", json::array{}},
                      {"neighbors", json::array{}},
                      {"routes", json::array{}},
                      {"endpoint_names", json::array{json::object{{"name", "ON_OFF_LIGHT"}}}}};
}

// "0123456789abcdef" -> "01:23:45:67:89:ab:cd:ef".
std::string ieee_of(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size() && i < 16; i += 2) out += (out.empty() ? "" : ":") + hex.substr(i, 2);
  return out;
}

// The demo's other Zigbee devices (lights, plugs, sensors from device_kinds) join the same
// network: their registry identifier becomes their IEEE address.
void add_other_zha_devices(Home& home, json::array& devices) {
  std::set<std::string> known;
  for (const auto& d : devices) known.insert(std::string(d.at("device_reg_id").as_string()));
  for (auto& d : home.devices) {
    if (d.identifiers.empty() || d.identifiers.front().first != "zha" || known.count(d.id)) continue;
    const std::string ieee = ieee_of(d.identifiers.front().second);
    d.identifiers = {{"zha", ieee}};
    const bool mains = d.model.find("bulb") != std::string::npos || d.model.find("plug") != std::string::npos ||
                       d.model.find("ZBMINI") != std::string::npos || d.model.find("Switch") != std::string::npos;
    const std::string nwk = "0x" + ieee.substr(0, 2) + ieee.substr(3, 2);
    devices.push_back(zha_device(ieee, nwk.c_str(), d.id, d, mains ? "Router" : "EndDevice",
                                 mains ? "Mains" : "Battery or Unknown", mains ? 190 : 130));
  }
}

void add_zha(HomeBuilder& b) {
  struct Spec {
    const char *name, *manufacturer, *model, *ieee, *nwk, *type, *power, *area;
    int lqi;
  };
  const Spec specs[] = {
      {"Zigbee Coordinator", "Nabu Casa", "Home Assistant Connect ZBT-1", "00:12:4b:00:2a:51:c3:07", "0x0000",
       "Coordinator", "Mains", "hallway", 255},
      {"Hallway Motion Sensor", "LUMI", "lumi.sensor_motion.aq2", "00:15:8d:00:05:7a:31:2c", "0x5A1B", "EndDevice",
       "Battery or Unknown", "hallway", 148},
      {"Desk Lamp Plug", "IKEA of Sweden", "TRADFRI control outlet", "84:2e:14:ff:fe:6b:0d:91", "0x3C4D", "Router",
       "Mains", "office", 201},
      {"Bedroom Window Sensor", "LUMI", "lumi.sensor_magnet.aq2", "00:15:8d:00:07:11:ab:42", "0x7E02", "EndDevice",
       "Battery or Unknown", "bedroom", 122},
  };
  json::array devices;
  for (const auto& s : specs) {
    const std::string id = radio_device(b, "zha", s.name, s.manufacturer, s.model, s.ieee, s.area);
    // ZHA agrees to remove any device but its coordinator (async_remove_config_entry_device).
    device_by_id(b.home(), id).orphaned = std::string(s.type) != "Coordinator";
    devices.push_back(zha_device(s.ieee, s.nwk, id, device_by_id(b.home(), id), s.type, s.power, s.lqi));
    if (std::string(s.name) == "Desk Lamp Plug") add_firmware(b, id, "zha", "0x02040054", "0x02040062");
  }
  add_other_zha_devices(b.home(), devices);
  json::object network_info{{"extended_pan_id", "6d:61:70:6c:65:68:6f:75"},
                            {"pan_id", "0x4C2A"},
                            {"nwk_update_id", 0},
                            {"nwk_manager_id", "0x0000"},
                            {"channel", 15},
                            {"channel_mask", json::array{15}},
                            {"security_level", 5},
                            {"network_key", json::object{{"key", "**REDACTED**"}, {"tx_counter", 48213}}},
                            {"stack_specific", json::object{}},
                            {"source", "zigpy-znp@0.14.1"},
                            {"metadata", json::object{}}};
  json::object node_info{{"nwk", "0x0000"},
                         {"ieee", specs[0].ieee},
                         {"logical_type", "coordinator"},
                         {"model", specs[0].model},
                         {"manufacturer", specs[0].manufacturer},
                         {"version", "20240710"}};
  // zigpy keeps its automatic backups; the demo has the night's one (zha/network/backups/list).
  json::object nightly{{"version", 1},
                       {"backup_time", "2026-01-01T03:00:00+00:00"},
                       {"network_info", network_info},
                       {"node_info", node_info}};
  b.home().radios["zha"] = json::object{
      {"backups", json::array{std::move(nightly)}},
      {"network", json::object{{"radio_type", "znp"},
                               {"device", json::object{{"path", "/dev/serial/by-id/usb-Nabu_Casa_ZBT-1-if00-port0"},
                                                       {"baudrate", 115200},
                                                       {"flow_control", nullptr}}},
                               {"settings", json::object{{"version", 1},
                                                         {"backup_time", "2026-01-01T10:00:00+00:00"},
                                                         {"network_info", std::move(network_info)},
                                                         {"node_info", std::move(node_info)}}}}},
      {"devices", std::move(devices)},
      {"groups",
       json::array{json::object{{"group_id", 2},
                                {"name", "Hallway Lights"},
                                {"members", json::array{json::object{{"ieee", specs[2].ieee}, {"endpoint_id", 1}}}}}}},
      {"bindings", json::array{}}};
}

json::object zwave_param(int property, const char* label, int value, int min, int max, int def,
                         json::object states = {}) {
  json::object metadata{
      {"description", nullptr}, {"label", label},    {"type", "number"}, {"min", min},    {"max", max},
      {"unit", nullptr},        {"writeable", true}, {"readable", true}, {"default", def}};
  if (!states.empty()) metadata["states"] = std::move(states);
  return json::object{{"property", property},
                      {"property_key", nullptr},
                      {"endpoint", 0},
                      {"configuration_value_type", "enumerated"},
                      {"metadata", std::move(metadata)},
                      {"value", value}};
}

json::object zwave_node(int node_id, const std::string& device_id, const char* status, bool routing,
                        json::object config) {
  return json::object{{"node_id", node_id},
                      {"device_id", device_id},
                      {"is_routing", routing},
                      {"status", status},
                      {"is_secure", node_id != 1},
                      {"ready", true},
                      {"zwave_plus_version", 2},
                      {"highest_security_class", node_id == 1 ? json::value(nullptr) : json::value(1)},
                      {"is_controller_node", node_id == 1},
                      {"has_firmware_update_cc", node_id != 1},
                      {"config", std::move(config)}};
}

void add_zwave(HomeBuilder& b) {
  const char* home_id = "3967215031";
  auto node_device = [&](int node, const char* name, const char* manufacturer, const char* model, const char* area) {
    return radio_device(b, "zwave_js", name, manufacturer, model, std::string(home_id) + "-" + std::to_string(node),
                        area);
  };
  const std::string controller = node_device(1, "Z-Wave Controller", "Zooz", "ZST39 800 Long Range", "hallway");
  const std::string lock = node_device(2, "Front Door Lock", "Yale", "YRD226 Assure Lock", "hallway");
  const std::string dimmer = node_device(3, "Basement Dimmer", "Zooz", "ZEN77 800LR", "basement");
  add_firmware(b, dimmer, "zwave_js", "2.10.0", "2.10.0");  // up to date
  const std::string siren = node_device(4, "Garage Siren", "Aeotec", "ZW164 Indoor Siren 6", "garage");
  for (const std::string& node : {lock, dimmer, siren}) add_ping_button(b, node);
  json::object lock_config{
      {"2-112-0-1", zwave_param(1, "Volume", 2, 1, 3, 2, {{"1", "High"}, {"2", "Low"}, {"3", "Silent"}})},
      {"2-112-0-2", zwave_param(2, "Auto Relock", 255, 0, 255, 255, {{"0", "Disable"}, {"255", "Enable"}})}};
  json::object dimmer_config{
      {"3-112-0-1", zwave_param(1, "Paddle Orientation", 0, 0, 2, 0,
                                {{"0", "Normal"}, {"1", "Reverse"}, {"2", "Any paddle toggles"}})},
      {"3-112-0-2", zwave_param(2, "LED Indicator", 0, 0, 3, 0)},
      {"3-112-0-20", zwave_param(20, "Minimum Brightness", 1, 1, 99, 1)}};
  json::object siren_config{{"4-112-0-1", zwave_param(1, "Tamper Alarm", 1, 0, 1, 1, {{"0", "Off"}, {"1", "On"}})}};
  b.home().radios["zwave_js"] =
      json::object{{"client", json::object{{"ws_server_url", "ws://core-zwave-js:3000"},
                                           {"state", "connected"},
                                           {"driver_version", "15.15.0"},
                                           {"server_version", "3.2.1"},
                                           {"server_logging_enabled", false}}},
                   {"controller", json::object{{"home_id", 3967215031LL},
                                               {"sdk_version", "7.23.1"},
                                               {"type", 1},
                                               {"own_node_id", 1},
                                               {"is_primary", true},
                                               {"is_suc", true},
                                               {"node_type", 0},
                                               {"firmware_version", "1.40"},
                                               {"manufacturer_id", 634},
                                               {"product_id", 4},
                                               {"product_type", 1},
                                               {"supports_long_range", true},
                                               {"is_rebuilding_routes", false},
                                               {"inclusion_state", 0},
                                               {"rf_region", 1},
                                               {"status", 0}}},
                   {"nodes", json::array{zwave_node(1, controller, "alive", true, {}),
                                         zwave_node(2, lock, "asleep", false, std::move(lock_config)),
                                         zwave_node(3, dimmer, "alive", true, std::move(dimmer_config)),
                                         zwave_node(4, siren, "dead", true, std::move(siren_config))}}};
}

void add_thread(HomeBuilder& b) {
  const std::string otbr = radio_device(b, "otbr", "OpenThread Border Router", "OpenThread", "OTBR (Silicon Labs)",
                                        "e6a1c9b0f04d2a17", "hallway");
  const std::string entry_id = "01JDEMOTHREAD0000000000001";
  b.home().config_entries.push_back(json::object{{"entry", flows::entry_json("thread", "Thread", entry_id, kHomeEpoch)},
                                                 {"options", json::object{}}});
  json::object dataset{{"channel", 15},
                       {"created", "2026-01-01T10:00:00+00:00"},
                       {"dataset_id", "01JDEMODATASET000000000001"},
                       {"extended_pan_id", "f1d3a2b5c4e60798"},
                       {"network_name", "MapleHouse"},
                       {"pan_id", "4c2b"},
                       {"preferred", true},
                       {"preferred_border_agent_id", "230c6a1ac57f6f4be262acf32e5ef52c"},
                       {"preferred_extended_address", "e6a1c9b0f04d2a17"},
                       {"source", "OpenThread Border Router"}};
  json::object router{{"active_dataset_tlvs", "0e080000000000010000000300000f35060004001fffe0"},
                      {"border_agent_id", "230c6a1ac57f6f4be262acf32e5ef52c"},
                      {"channel", 15},
                      {"extended_address", "e6a1c9b0f04d2a17"},
                      {"extended_pan_id", "f1d3a2b5c4e60798"},
                      {"url", "http://core-openthread-border-router:8081"},
                      {"device_id", otbr}};
  b.home().radios["thread"] = json::object{
      {"datasets", json::array{std::move(dataset)}},
      {"otbr", json::object{{"e6a1c9b0f04d2a17", std::move(router)}}},
      {"tlvs", json::object{{"01JDEMODATASET000000000001", "0e080000000000010000000300000f35060004001fffe0"}}}};
}

void add_matter(HomeBuilder& b) {
  const std::string plug = radio_device(b, "matter", "Living Room Matter Plug", "Eve Systems", "Eve Energy",
                                        "deviceid_0000000000000001-0000000000000005-MatterNodeDevice", "living_room");
  add_firmware(b, plug, "matter", "1.2.3", "1.3.0");
  const MatterNode thread_node{5, "thread", "end_device", "MapleHouse", "fd11:22::1c2d:3e4f:5a6b:7c8d", true};
  json::array nodes{json::object{{"device_id", plug}, {"diagnostics", matter_diagnostics(thread_node)}}};
  // The demo's other Matter devices (device_kinds) are Wi-Fi nodes of the same fabric.
  std::int64_t node_id = 6;
  for (const auto& d : b.home().devices) {
    if (d.identifiers.empty() || d.identifiers.front().first != "matter" || d.id == plug) continue;
    MatterNode wifi{node_id++, "wifi", "sleepy_end_device", "MapleHouse-WiFi", "", true};
    wifi.ip_address = "192.168.1." + std::to_string(100 + node_id);
    nodes.push_back(json::object{{"device_id", d.id}, {"diagnostics", matter_diagnostics(wifi)}});
  }
  b.home().radios["matter"] = json::object{{"nodes", std::move(nodes)}};
}

}  // namespace

void add_demo_radios(HomeBuilder& b) {
  add_zha(b);
  add_zwave(b);
  add_thread(b);
  add_matter(b);
}

}  // namespace hamcp::sim
