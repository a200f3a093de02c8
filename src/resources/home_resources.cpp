#include "resources/home_resources.hpp"

#include "resources/resource_kinds.hpp"

namespace hamcp::resources {

std::unique_ptr<ResourceFeed> register_home_resources(mcp::Server& server, ha::HaClient& ha) {
  auto ctx = std::make_shared<ResourceContext>(ha);
  mcp::Registry& registry = server.registry();
  registry.add_resource(home_resource(ctx));
  registry.add_resource_template(entity_template(ctx));
  registry.add_resource_template(area_template(ctx));
  registry.add_resource_template(floor_template(ctx));
  registry.add_resource_template(device_template(ctx));
  registry.set_completion_for("ref/resource", completion_handler(ctx));
  return std::make_unique<ResourceFeed>(ha, server, std::move(ctx));
}

}  // namespace hamcp::resources
