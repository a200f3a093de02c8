#include "tools/updates/updates_tools.hpp"

namespace hamcp::tools {

void register_updates_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_manage_updates_spec(), env));
  registry.add_tool(build_tool(make_manage_hacs_spec(), env));
}

}  // namespace hamcp::tools
