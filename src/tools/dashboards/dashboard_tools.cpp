#include "tools/dashboards/dashboard_tools.hpp"

namespace hamcp::tools {

void register_dashboard_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  using Maker = ToolSpec (*)();
  // ha_remove_dashboard is ha_set_dashboard remove=true (a hidden alias).
  static constexpr Maker kMakers[] = {dashboards::make_get_dashboard_spec, dashboards::make_set_dashboard_spec,
                                      dashboards::make_resources_spec, dashboards::make_theme_spec};
  for (Maker make : kMakers) registry.add_tool(build_tool(make(), env));
}

}  // namespace hamcp::tools
