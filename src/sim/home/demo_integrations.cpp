// The demo home's integration config entry beyond the helpers: a sim_bridge hub
// (sim/flows/integration_flows.cpp) with its device, a status sensor and two
// room subentries, so `hamcp --demo` shows options, reconfigure, subentries and
// diagnostics.
#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

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
  entry["supported_subentry_types"] = json::object{{"room", json::object{{"supports_reconfigure", false}}}};
  entry["num_subentries"] = 2;
  json::array subentries{json::object{{"subentry_id", "01JDEMOBRIDGEROOMKITCHEN01"},
                                      {"subentry_type", "room"},
                                      {"title", "Kitchen"},
                                      {"unique_id", "room-kitchen"}},
                         json::object{{"subentry_id", "01JDEMOBRIDGEROOMHALLWAY01"},
                                      {"subentry_type", "room"},
                                      {"title", "Hallway"},
                                      {"unique_id", "room-hallway"}}};
  b.home().config_entries.push_back(json::object{
      {"entry", std::move(entry)},
      {"options", json::object{{"host", host}, {"port", 80}, {"name", "Hallway Bridge"}, {"poll_interval", 30}}},
      {"subentries", std::move(subentries)}});
}

}  // namespace hamcp::sim
