#pragma once
// The safety family (issue 14): ha_get_audit_log, the calls of tools that can
// write as the audit log recorded them (home/audit_log.hpp; the lines are
// written by build_tool for every such call).

#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_audit_log_spec();

void register_safety_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

}  // namespace hamcp::tools
