#pragma once
// The home as MCP resources (an adapter over the live mirror, like a tool
// family): ha://home and the templates ha://entity/{entity_id},
// ha://area/{area_id}, ha://floor/{floor_id}, ha://device/{device_id} (JSON),
// completion of their variables (ref/resource), and resources/updated for
// subscribed uris fed by the mirror's change events.

#include <memory>

#include "ha/ha_client.hpp"
#include "mcp/server.hpp"
#include "resources/resource_feed.hpp"

namespace hamcp::resources {

// Registers everything on `server`; the returned feed sends the updates until
// it is detached or destroyed (before `ha` or `server` go away).
std::unique_ptr<ResourceFeed> register_home_resources(mcp::Server& server, ha::HaClient& ha);

}  // namespace hamcp::resources
