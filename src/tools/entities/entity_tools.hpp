#pragma once
// The entity tool family: the tools an assistant calls first and most
// (search, overview, state, control, registry edits, history, logs).
// One file per tool (or small group); each exposes make_<tool>_spec().

#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_search_spec();
ToolSpec make_overview_spec();
ToolSpec make_get_state_spec();
ToolSpec make_call_service_spec();
ToolSpec make_bulk_control_spec();
ToolSpec make_operation_status_spec();
ToolSpec make_list_services_spec();
ToolSpec make_call_event_spec();
ToolSpec make_get_entity_spec();
ToolSpec make_set_entity_spec();
ToolSpec make_remove_entity_spec();
ToolSpec make_eval_template_spec();
ToolSpec make_history_spec();
ToolSpec make_logs_spec();

// Registers the whole family (and its 6.x aliases) on `registry`.
void register_entity_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

}  // namespace hamcp::tools
