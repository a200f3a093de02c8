#pragma once
// Internal to the radio command files: devices a radio integration adds to or
// drops from HA's registries at run time (a commissioned Matter node, the
// Z-Wave nodes a controller reset forgets), with their entities and states and
// the registry-updated events HA fires for them.
#include <string>

#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim::radio_devices {

// The config entry id of `domain` ("" when it has none).
std::string entry_of(WsConnection& c, std::string_view domain);

struct NewEntity {
  std::string domain;     // "switch"
  std::string platform;   // the integration: "matter"
  std::string unique_id;  // the integration's
  std::string state;
};

// Adds `device` (its id derived from its identifiers when empty) and one entity
// of it named after it; returns the device id.
std::string add_device(WsConnection& c, Device device, const NewEntity& entity);

// Removes the device, its entities and their states (device_registry_updated and
// entity_registry_updated "remove", as HA's registries fire them). False: no such device.
bool remove_device(WsConnection& c, const std::string& device_id);

}  // namespace hamcp::sim::radio_devices
