#pragma once
// How registry items read in ha_get_registry: a slim list view per kind, and
// one item with its details (a device with its entities and config entries,
// an area with its floor and members, a floor with its areas, a label with
// what carries it).

#include <boost/asio/awaitable.hpp>
#include <vector>

#include "tools/registry/registry_kinds.hpp"

namespace hamcp::tools::registry {

// The item without bookkeeping (timestamps, identifiers, subentries).
json::object list_view(const json::object& item, Kind kind);

// One item with its details; may make one WebSocket call (device: config entries).
boost::asio::awaitable<json::object> detail_view(ToolEnv& env, const ha::Snapshot& snap, const json::object& item,
                                                 Kind kind);

// entry_id -> config entry ({entry_id, domain, title, supports_remove_device...});
// empty when HA does not answer config_entries/get.
boost::asio::awaitable<std::vector<json::object>> config_entries(ToolEnv& env);

// The device an entity belongs to ("" when none).
std::string device_of_entity(const ha::Snapshot& snap, std::string_view entity_id);

}  // namespace hamcp::tools::registry
