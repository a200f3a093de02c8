// Health and administration over the WebSocket API: system_health/info (a
// subscription: result null, an "initial" event with every domain's info,
// one "update" per pending key, then "finish"), the repairs issue registry
// (repairs/list_issues, repairs/ignore_issue) and the logger's levels
// (logger/log_info, logger/integration_log_level), in HA 2026.2's shapes.
#include <set>

#include "sim/core/time_util.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

int level_number(std::string_view name) {
  static const std::map<std::string_view, int> kLevels = {{"CRITICAL", 50}, {"FATAL", 50}, {"ERROR", 40},
                                                          {"WARNING", 30},  {"WARN", 30},  {"INFO", 20},
                                                          {"DEBUG", 10},    {"NOTSET", 0}};
  auto it = kLevels.find(name);
  return it == kLevels.end() ? 30 : it->second;
}

// Python's getEffectiveLevel: the nearest configured ancestor, else the default.
int effective_level(const SystemAdmin& sys, std::string name) {
  while (!name.empty()) {
    if (auto it = sys.logger_levels.find(name); it != sys.logger_levels.end() && level_number(it->second) != 0)
      return level_number(it->second);  // NOTSET: ask the parent
    const auto dot = name.rfind('.');
    name = dot == std::string::npos ? std::string() : name.substr(0, dot);
  }
  return level_number(sys.default_log_level);
}

json::object health_data(WsConnection& c) {
  const CoreConfig& cfg = home(c).config;
  json::object core_info{{"installation_type", "Home Assistant Container"},
                         {"version", "core-" + cfg.version},  // HA's system health names the core so
                         {"dev", false},
                         {"hassio", false},
                         {"docker", true},
                         {"user", "root"},
                         {"virtualenv", false},
                         {"python_version", "3.13.3"},
                         {"os_name", "Linux"},
                         {"os_version", "6.12.0"},
                         {"arch", "x86_64"},
                         {"timezone", cfg.time_zone},
                         {"config_dir", "/config"}};
  const Timestamp started = now_timestamp() - 86400;
  json::object recorder{{"oldest_recorder_run", json::object{{"value", iso_time(started)}, {"type", "date"}}},
                        {"current_recorder_run", json::object{{"value", iso_time(started)}, {"type", "date"}}},
                        {"estimated_db_size", "14.82 MiB"},
                        {"database_engine", "sqlite"},
                        {"database_version", "3.48.0"}};
  json::object cloud{{"logged_in", false}, {"can_reach_cert_server", json::object{{"type", "pending"}}}};
  return json::object{{"homeassistant", json::object{{"info", std::move(core_info)}}},
                      {"recorder", json::object{{"info", std::move(recorder)}}},
                      {"cloud", json::object{{"info", std::move(cloud)}, {"manage_url", "/config/cloud"}}}};
}

void system_health_info(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(id, nullptr);
  c.add_subscription(id, [] {});
  c.send_event(id, json::object{{"type", "initial"}, {"data", health_data(c)}});
  c.send_event(id, json::object{{"type", "update"},
                                {"domain", "cloud"},
                                {"key", "can_reach_cert_server"},
                                {"success", true},
                                {"data", "ok"}});
  c.send_event(id, json::object{{"type", "finish"}});
}

void list_issues(WsConnection& c, int64_t id, const json::object&) {
  json::array issues;
  for (const auto& issue : home(c).system.repairs) issues.push_back(issue);
  c.send_result(id, json::object{{"issues", std::move(issues)}});
}

void ignore_issue(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string domain = req_string(msg, "domain");
  const std::string issue_id = req_string(msg, "issue_id");
  const json::value* ignore = msg.if_contains("ignore");
  if (!ignore || !ignore->is_bool()) throw BadMessage{"required key not provided @ data['ignore']"};
  for (auto& issue : home(c).system.repairs) {
    if (issue.at("domain").as_string() != domain || issue.at("issue_id").as_string() != issue_id) continue;
    issue["ignored"] = ignore->get_bool();
    issue["dismissed_version"] = ignore->get_bool() ? json::value(home(c).config.version) : json::value(nullptr);
    fire(c, "repairs_issue_registry_updated", {{"action", "update"}, {"domain", domain}, {"issue_id", issue_id}});
    return c.send_result(id, nullptr);
  }
  c.send_error(id, "unknown_error", "Unknown error");  // HA: KeyError from the issue registry
}

// Loaded integrations: every domain with a state or a config entry, plus the always-loaded ones.
std::set<std::string> loaded_integrations(WsConnection& c) {
  std::set<std::string> domains{"logger", "system_log", "homeassistant", "recorder", "websocket_api"};
  for (const auto& s : c.core().store().all()) domains.emplace(domain_of(s->entity_id));
  for (const auto& e : home(c).config_entries)
    if (const json::value* d = e.at("entry").as_object().if_contains("domain"); d && d->is_string())
      domains.emplace(d->get_string());
  return domains;
}

void log_info(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& domain : loaded_integrations(c))
    out.push_back(json::object{{"domain", domain},
                               {"level", effective_level(home(c).system, "homeassistant.components." + domain)}});
  c.send_result(id, out);
}

void integration_log_level(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string integration = req_string(msg, "integration");
  const std::string level = req_string(msg, "level");
  req_string(msg, "persistence");
  if (!loaded_integrations(c).count(integration)) return c.send_error(id, "not_found", "Integration not found");
  home(c).system.logger_levels["homeassistant.components." + integration] = level;
  c.send_result(id, nullptr);
}

}  // namespace

void register_system_commands(Table& t) {
  t["system_health/info"] = system_health_info;
  t["repairs/list_issues"] = list_issues;
  t["repairs/ignore_issue"] = ignore_issue;
  t["logger/log_info"] = log_info;
  t["logger/integration_log_level"] = integration_log_level;
}

}  // namespace hamcp::sim
