#pragma once
// The dashboard family: dashboards (list, read whole / one view / found cards,
// create, metadata, config by full config / patch / one card, delete),
// Lovelace resources and frontend themes. ha-mcp 8.7.0's seven default tools
// of "Dashboards, resources, themes" are hidden aliases with their arguments.

#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

namespace dashboards {

ToolSpec make_get_dashboard_spec();
ToolSpec make_set_dashboard_spec();
ToolSpec make_remove_dashboard_spec();
ToolSpec make_resources_spec();
ToolSpec make_theme_spec();

// Journal kinds this family writes (dashboard, dashboard_meta, resource, theme).
bool is_dashboard_kind(std::string_view kind);
// ha_config_set restore=<edit id> of one of them (dashboard_restore.cpp).
boost::asio::awaitable<json::object> restore_dashboard_edit(ToolEnv& env, const home::EditRecord& rec);

}  // namespace dashboards

void register_dashboard_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

}  // namespace hamcp::tools
