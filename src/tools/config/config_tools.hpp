#pragma once
// The configuration family: automations, scripts and scenes (get, set,
// remove, runtime actions) and their traces. ha-mcp 8.7.0's nine
// ha_config_{get,set,remove}_{automation,script,scene} tools are hidden
// aliases of the three kind-generic tools, with ha-mcp's argument names
// (identifier, script_id, scene_id, ...) accepted as they are.

#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_config_get_spec();
ToolSpec make_config_set_spec();
ToolSpec make_config_remove_spec();
ToolSpec make_traces_spec();
ToolSpec make_blueprints_spec();

void register_config_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

}  // namespace hamcp::tools
