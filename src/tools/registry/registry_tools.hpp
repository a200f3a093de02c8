#pragma once
// The registry family: devices, areas, floors, labels, categories, zones and
// voice exposure through three tools with a `kind` (get, set, remove).
// ha-mcp 8.7.0's fifteen tools of these sections are hidden names of them
// (ToolSpec::alias_args fixes their kind).

#include <memory>

#include "mcp/registry.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/registry/registry_kinds.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_get_registry_spec();
ToolSpec make_set_registry_spec();
ToolSpec make_remove_registry_spec();

void register_registry_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

}  // namespace hamcp::tools
