#pragma once
// The simulated ZHA devices' ZCL model, shared by the zha/* WebSocket commands
// (sim/ws/ws_zha_*.cpp) and the zha.* cluster services (services_zha.cpp):
// a small fixed cluster set per device type on endpoint 1, their attributes
// (values as HA's str() of what zigpy read) and server commands. `zha` is
// Home::radios["zha"]; written values live in its "attribute_values", except
// OnOff's on_off of a device with a light or switch entity: as in HA, that
// entity's state and the attribute are one (on_off_entity()).
#include <boost/json.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/state_store.hpp"

namespace hamcp::sim::zha_model {

namespace json = boost::json;

struct Cluster {
  int id;
  const char* name;
  const char* type;  // "in" (server) or "out" (client)
};

struct Attribute {
  int cluster, id;
  const char* name;
  bool boolean;  // ZCL Bool (else a number or, for Basic's texts, a string)
};

struct Command {
  int cluster, id;
  const char* name;
  const char* argument;  // the one argument it takes ("" for none)
};

std::vector<Cluster> clusters_of(const json::object& device);
bool has_cluster(const json::object& device, std::int64_t endpoint, std::int64_t cluster, std::string_view type);
std::vector<Attribute> attributes_of(std::int64_t cluster);
// By id (a number) or name (a string); null when the cluster has none.
const Attribute* find_attribute(std::int64_t cluster, const json::value& id_or_name);
std::vector<Command> server_commands_of(std::int64_t cluster);
const Command* find_command(std::int64_t cluster, std::int64_t command);

// The device in zha["devices"] with this IEEE address; null when unknown.
const json::object* device_by_ieee(const json::object& zha, std::string_view ieee);
// The light or switch entity ZHA made of the device's OnOff cluster: its state
// follows the on_off attribute's reports and its turn_on/turn_off send On/Off
// ("" when the device has none). Under the store's lock.
std::string on_off_entity(const StateStore& store, const json::object& device);
// An attribute's value as zha/devices/clusters/attributes/value answers it.
std::string attribute_value(const StateStore& store, const json::object& zha, const json::object& device,
                            std::int64_t cluster, std::int64_t attribute);
void store_value(json::object& zha, const json::object& device, std::int64_t cluster, std::int64_t attribute,
                 std::string text);

}  // namespace hamcp::sim::zha_model
