#pragma once
// The helper family: storage helpers (input_*, counter, timer, schedule, zone,
// person, tag), config-flow helpers (template, group, utility_meter, ...,
// driven through HA's config and options flows) and old-style groups
// (group.set / group.remove). ha-mcp 8.7.0's five tools keep their names and
// arguments; removal of a helper is ha_config_set_helper action=remove.

#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_list_helpers_spec();
ToolSpec make_set_helper_spec();
ToolSpec make_list_groups_spec();
ToolSpec make_set_group_spec();
ToolSpec make_remove_group_spec();

void register_helper_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

}  // namespace hamcp::tools
