#pragma once
// The system family (issue 13: health, repairs, restart, reload, logger
// levels): ha_get_system_health, ha_restart, ha_reload_core (ha-mcp 8.7.0's
// names and arguments), ha_set_log_level and ha_ignore_repair. Reading the
// logger's levels is ha_get_logs source=logger (entities/logs_tool.cpp).

#include <boost/asio/awaitable.hpp>
#include <memory>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_system_health_spec();
ToolSpec make_restart_spec();
ToolSpec make_reload_core_spec();
ToolSpec make_set_log_level_spec();
ToolSpec make_ignore_repair_spec();
ToolSpec make_report_issue_spec();

void register_system_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace system {

// POST /api/config/core/check_config: {"result": "valid"|"invalid", "errors", "warnings"}.
boost::asio::awaitable<json::object> check_config(ToolEnv& env);
// system_health/info's stream folded into {domain: {key: value}} (dates as ISO
// text, a key still pending after 10 s as "pending").
boost::asio::awaitable<json::object> read_health(ToolEnv& env);
// logger/log_info as {domain: level name}, e.g. {"hue": "DEBUG"}.
boost::asio::awaitable<json::object> logger_levels(ToolEnv& env);
// repairs/ignore_issue of a listed issue (else bad_argument issue_id naming
// the known ones): {domain, issue_id, ignored_before, ignored}.
boost::asio::awaitable<json::object> set_repair_ignored(ToolEnv& env, std::string domain, std::string issue_id,
                                                        bool ignore);
// 10 -> "DEBUG", ... (Python's logging numbers); other numbers as text.
std::string level_name(std::int64_t level);
// logger/integration_log_level for one loaded integration: {integration, before, after, persistence}
// (bad_argument "integration" when it is not loaded). Also ha_set_integration log_level.
boost::asio::awaitable<json::object> set_integration_level(ToolEnv& env, std::string integration, std::string level,
                                                           std::string persistence);

}  // namespace system

}  // namespace hamcp::tools
