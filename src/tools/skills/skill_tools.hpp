#pragma once
// ha_get_skill_guide: hamcp's skills guide (src/skills/) for clients that do
// not read resources. ha-mcp 8.7.0 has the same name with a `file` argument,
// accepted here as a hidden argument.

#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_skill_guide_spec();
void register_skill_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

}  // namespace hamcp::tools
