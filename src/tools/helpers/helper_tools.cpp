#include "tools/helpers/helper_tools.hpp"

namespace hamcp::tools {

void register_helper_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  using Maker = ToolSpec (*)();
  static constexpr Maker kMakers[] = {make_list_helpers_spec, make_set_helper_spec, make_list_groups_spec,
                                      make_set_group_spec, make_remove_group_spec};
  for (Maker make : kMakers) registry.add_tool(build_tool(make(), env));
}

}  // namespace hamcp::tools
