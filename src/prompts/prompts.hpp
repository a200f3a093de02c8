#pragma once
// hamcp's MCP prompts (issue 15): each builds its message from the live home
// (the mirror and the HA reads the tools use, through the same gate) and
// names the hamcp tools to use. Argument completion answers ref/prompt.

#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"

namespace hamcp::prompts {

mcp::Prompt make_troubleshoot_automation(std::shared_ptr<tools::ToolEnv> env);
mcp::Prompt make_review_energy(std::shared_ptr<tools::ToolEnv> env);
mcp::Prompt make_tidy_areas_and_names(std::shared_ptr<tools::ToolEnv> env);
mcp::Prompt make_write_automation(std::shared_ptr<tools::ToolEnv> env);

// Every prompt above plus completion for their arguments (ref/prompt).
void register_prompts(mcp::Registry& registry, std::shared_ptr<tools::ToolEnv> env);

}  // namespace hamcp::prompts
