#include "tools/config/config_tools.hpp"

namespace hamcp::tools {

void register_config_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  using Maker = ToolSpec (*)();
  static constexpr Maker kMakers[] = {make_config_get_spec, make_config_set_spec, make_config_remove_spec,
                                      make_traces_spec, make_blueprints_spec};
  for (Maker make : kMakers) registry.add_tool(build_tool(make(), env));
}

}  // namespace hamcp::tools
