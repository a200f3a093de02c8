#include "tools/system/system_tools.hpp"

namespace hamcp::tools {

void register_system_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  using Maker = ToolSpec (*)();
  // ha_ignore_repair is ha_manage_updates action=ignore_repair (a hidden alias; updates/manage_updates_tool.cpp).
  static constexpr Maker kMakers[] = {make_system_health_spec, make_restart_spec, make_reload_core_spec,
                                      make_set_log_level_spec, make_report_issue_spec};
  for (Maker make : kMakers) registry.add_tool(build_tool(make(), env));
}

namespace system {

boost::asio::awaitable<json::object> check_config(ToolEnv& env) {
  // HA checks every YAML file: slow on big configurations.
  ha::RequestOptions options;
  options.timeout = std::chrono::milliseconds(120000);
  auto checking = env.ha.rest_post_json("/api/config/core/check_config", json::object{}, options);
  json::value answer = co_await std::move(checking);
  json::object out;
  if (json::object* o = answer.if_object()) out = std::move(*o);
  co_return out;
}

std::string level_name(std::int64_t level) {
  switch (level) {
    case 50:
      return "CRITICAL";
    case 40:
      return "ERROR";
    case 30:
      return "WARNING";
    case 20:
      return "INFO";
    case 10:
      return "DEBUG";
    case 0:
      return "NOTSET";
    default:
      return std::to_string(level);
  }
}

boost::asio::awaitable<json::object> logger_levels(ToolEnv& env) {
  json::object message{{"type", "logger/log_info"}};
  auto reading = env.ha.command(std::move(message));
  json::value info = co_await std::move(reading);
  json::object levels;
  if (const json::array* rows = info.if_array())
    for (const auto& row : *rows) {
      const json::object* o = row.if_object();
      if (!o || !o->contains("domain") || !o->at("domain").is_string()) continue;
      const json::value* level = o->if_contains("level");
      levels[o->at("domain").get_string()] = level_name(level && level->is_int64() ? level->get_int64() : 0);
    }
  co_return levels;
}

}  // namespace system

}  // namespace hamcp::tools
