// The demo home's integration config entries beyond the helpers: one per
// device integration (hue, shelly, ...: the entries its devices name; no
// options, devices removable as HA asks the integration), and a sim_bridge hub
// (sim/flows/integration_flows.cpp) with its device, a status sensor and two
// room subentries, so `hamcp --demo` shows options, reconfigure, subentries and
// diagnostics.
#include <cctype>
#include <set>

#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

namespace {

// "tplink_kasa" -> "Tplink Kasa": the entry title HA takes from the integration's name.
std::string title_of(const std::string& domain) {
  std::string title;
  bool upper = true;
  for (char ch : domain) {
    if (ch == '_') {
      title += ' ';
      upper = true;
      continue;
    }
    title += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return title;
}

void add_device_integration_entries(Home& home) {
  std::set<std::string> known;
  for (const auto& e : home.config_entries) known.insert(std::string(e.at("entry").at("entry_id").as_string()));
  for (const auto& d : home.devices) {
    const std::string domain = d.identifiers.empty() ? std::string() : d.identifiers.front().first;
    for (const auto& entry_id : d.config_entries) {
      // A domain with a sim flow (sun) gets its entry from that flow, as the helper tests expect.
      if (domain.empty() || flows::handler_of(domain) || !known.insert(entry_id).second) continue;
      json::object entry = flows::entry_json(domain, title_of(domain), entry_id, kHomeEpoch);
      entry["supports_options"] = false;
      entry["supports_remove_device"] = true;
      home.config_entries.push_back(json::object{{"entry", std::move(entry)}, {"options", json::object{}}});
    }
  }
}

}  // namespace

void add_integration_entries(HomeBuilder& b) {
  const std::string host = "192.168.1.40";
  DeviceSpec spec;
  spec.name = "Hallway Bridge";
  spec.manufacturer = "hamcp";
  spec.model = "Sim Bridge";
  spec.platform = "sim_bridge";
  spec.sw_version = "1.4.2";
  const std::string device_id = b.add_device(std::move(spec));
  Device* device = nullptr;
  for (auto& d : b.home().devices)
    if (d.id == device_id) device = &d;
  device->identifiers = {{"sim_bridge", "bridge-" + host}};
  const std::string entry_id = device->primary_config_entry.value_or("");
  EntitySpec status;
  status.domain = "sensor";
  status.object_id = "hallway_bridge_status";
  status.state = "connected";
  status.device_id = device_id;
  status.original_name = "Status";
  status.platform = "sim_bridge";
  const std::string eid = b.add_entity(std::move(status));
  for (auto& e : b.home().entities)
    if (e.entity_id == eid) {
      e.unique_id = "bridge-" + host + "-status";
      e.config_entry_id = entry_id;
    }
  json::object entry = flows::entry_json("sim_bridge", "Hallway Bridge", entry_id, kHomeEpoch);
  entry["supports_reconfigure"] = true;
  entry["supports_remove_device"] = true;
  entry["supported_subentry_types"] = json::object{{"room", json::object{{"supports_reconfigure", true}}}};
  entry["num_subentries"] = 2;
  json::array subentries{json::object{{"subentry_id", "01JDEMOBRIDGEROOMKITCHEN01"},
                                      {"subentry_type", "room"},
                                      {"title", "Kitchen"},
                                      {"unique_id", "room-kitchen"},
                                      {"data", json::object{{"sensors", 2}}}},
                         json::object{{"subentry_id", "01JDEMOBRIDGEROOMHALLWAY01"},
                                      {"subentry_type", "room"},
                                      {"title", "Hallway"},
                                      {"unique_id", "room-hallway"},
                                      {"data", json::object{{"sensors", 1}}}}};
  b.home().config_entries.push_back(json::object{
      {"entry", std::move(entry)},
      {"options", json::object{{"host", host}, {"port", 80}, {"name", "Hallway Bridge"}, {"poll_interval", 30}}},
      {"subentries", std::move(subentries)}});
  add_device_integration_entries(b.home());
}

}  // namespace hamcp::sim
