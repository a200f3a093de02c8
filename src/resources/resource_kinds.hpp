#pragma once
// One factory per resource kind (one file each); home_resources.cpp registers them.

#include <memory>

#include "mcp/registry.hpp"
#include "resources/resource_context.hpp"

namespace hamcp::resources {

mcp::Resource home_resource(std::shared_ptr<ResourceContext> ctx);                // ha://home
mcp::ResourceTemplate entity_template(std::shared_ptr<ResourceContext> ctx);      // ha://entity/{entity_id}
mcp::ResourceTemplate area_template(std::shared_ptr<ResourceContext> ctx);        // ha://area/{area_id}
mcp::ResourceTemplate floor_template(std::shared_ptr<ResourceContext> ctx);       // ha://floor/{floor_id}
mcp::ResourceTemplate device_template(std::shared_ptr<ResourceContext> ctx);      // ha://device/{device_id}
mcp::CompletionHandler completion_handler(std::shared_ptr<ResourceContext> ctx);  // the templates' variables

}  // namespace hamcp::resources
