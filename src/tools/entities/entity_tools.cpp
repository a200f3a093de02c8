#include "tools/entities/entity_tools.hpp"

namespace hamcp::tools {

void register_entity_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  // Order = tools/list order: discovery first, then control, registry, history.
  using Maker = ToolSpec (*)();
  static constexpr Maker kMakers[] = {
      make_search_spec,        make_overview_spec,      make_get_state_spec,
      make_call_service_spec,  make_bulk_control_spec,  make_operation_status_spec,
      make_list_services_spec, make_call_event_spec,    make_get_entity_spec,
      make_set_entity_spec,    make_remove_entity_spec, make_eval_template_spec,
      make_history_spec,       make_logs_spec,
  };
  for (Maker make : kMakers) registry.add_tool(build_tool(make(), env));
}

}  // namespace hamcp::tools
