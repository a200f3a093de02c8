#include "tools/registry/registry_tools.hpp"

namespace hamcp::tools {

void register_registry_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  using Maker = ToolSpec (*)();
  static constexpr Maker kMakers[] = {make_get_registry_spec, make_set_registry_spec, make_remove_registry_spec};
  for (Maker make : kMakers) registry.add_tool(build_tool(make(), env));
}

}  // namespace hamcp::tools
