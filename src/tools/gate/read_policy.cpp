#include "tools/gate/read_policy.hpp"

#include <array>

namespace hamcp::tools {
namespace {

using K = RequestKind;

// One line per read request. Keep it to requests that change nothing in
// Home Assistant: a service is a read only when it just returns data.
constexpr std::array kReadRules{
    // WebSocket commands
    ReadRule{K::ws_command, "get_states"},
    ReadRule{K::ws_command, "get_config"},
    ReadRule{K::ws_command, "get_services"},
    ReadRule{K::ws_command, "get_panels"},
    ReadRule{K::ws_command, "ping"},
    ReadRule{K::ws_command, "*/list"},  // storage collections, registries, traces, blueprints, system_log
    ReadRule{K::ws_command, "config/entity_registry/get"},
    ReadRule{K::ws_command, "config/entity_registry/get_entries"},
    ReadRule{K::ws_command, "config/device_registry/get"},
    ReadRule{K::ws_command, "config/config_entries/get"},
    ReadRule{K::ws_command, "config_entries/get"},
    ReadRule{K::ws_command, "config_entries/get_single"},
    ReadRule{K::ws_command, "search/related"},
    ReadRule{K::ws_command, "history/history_during_period"},
    ReadRule{K::ws_command, "recorder/statistics_during_period"},
    ReadRule{K::ws_command, "recorder/list_statistic_ids"},
    ReadRule{K::ws_command, "logbook/get_events"},
    ReadRule{K::ws_command, "trace/get"},
    ReadRule{K::ws_command, "trace/contexts"},
    ReadRule{K::ws_command, "validate_config"},
    ReadRule{K::ws_command, "render_template"},
    ReadRule{K::ws_command, "blueprint/substitute"},
    ReadRule{K::ws_command, "lovelace/config"},
    ReadRule{K::ws_command, "lovelace/resources"},
    ReadRule{K::ws_command, "energy/get_prefs"},
    ReadRule{K::ws_command, "energy/info"},
    ReadRule{K::ws_command, "energy/validate"},
    ReadRule{K::ws_command, "assist_pipeline/pipeline/get"},
    ReadRule{K::ws_command, "system_health/info"},
    ReadRule{K::ws_command, "manifest/get"},
    ReadRule{K::ws_command, "integration/descriptions"},
    ReadRule{K::ws_command, "frontend/get_translations"},
    ReadRule{K::ws_command, "auth/current_user"},
    ReadRule{K::ws_command, "frontend/get_themes"},
    ReadRule{K::ws_command, "repairs/list_issues"},
    ReadRule{K::ws_command, "logger/log_info"},
    ReadRule{K::ws_command, "backup/info"},
    ReadRule{K::ws_command, "backup/details"},
    ReadRule{K::ws_command, "backup/agents/info"},
    ReadRule{K::ws_command, "backup/config/info"},
    ReadRule{K::ws_command, "update/release_notes"},
    ReadRule{K::ws_command, "hacs/info"},
    ReadRule{K::ws_command, "hacs/repository/info"},  // also clears its "new" mark (HACS's UI does the same)
    // Radio networks (ha_manage_radio): status and diagnostics only
    ReadRule{K::ws_command, "zha/network/settings"},
    ReadRule{K::ws_command, "zha/devices"},
    ReadRule{K::ws_command, "zha/device"},
    ReadRule{K::ws_command, "zha/groups"},
    ReadRule{K::ws_command, "zha/network/backups/list"},
    ReadRule{K::ws_command, "zha/devices/clusters"},
    ReadRule{K::ws_command, "zha/devices/clusters/attributes"},
    ReadRule{K::ws_command, "zha/devices/clusters/attributes/value"},  // a ZCL read of the device
    ReadRule{K::ws_command, "zha/devices/clusters/commands"},
    ReadRule{K::ws_command, "zwave_js/network_status"},
    ReadRule{K::ws_command, "zwave_js/node_status"},
    ReadRule{K::ws_command, "zwave_js/get_config_parameters"},
    ReadRule{K::ws_command, "thread/list_datasets"},
    ReadRule{K::ws_command, "otbr/info"},
    ReadRule{K::ws_command, "matter/node_diagnostics"},
    // WebSocket subscriptions (they only listen)
    ReadRule{K::ws_subscribe, "subscribe_events"},
    ReadRule{K::ws_subscribe, "subscribe_entities"},
    ReadRule{K::ws_subscribe, "subscribe_trigger"},
    ReadRule{K::ws_subscribe, "thread/discover_routers"},  // listens to mDNS for border routers
    ReadRule{K::ws_subscribe, "render_template"},
    ReadRule{K::ws_subscribe, "config_entries/subscribe"},
    ReadRule{K::ws_subscribe, "system_health/info"},  // streams its answer, changes nothing
    ReadRule{K::ws_subscribe, "backup/subscribe_events"},
    // REST: every GET of HA's API reads; POST only where named
    ReadRule{K::rest_get, "/api/*"},
    ReadRule{K::rest_post, "/api/template"},
    ReadRule{K::rest_post, "/api/config/core/check_config"},
    // Services that only return data
    ReadRule{K::service, "calendar.get_events"},
    ReadRule{K::service, "weather.get_forecasts"},
    ReadRule{K::service, "todo.get_items"},
    // The Supervisor (add-ons): its GETs read (lists, info, stats, logs)
    ReadRule{K::supervisor, "GET /*"},
    // An add-on's own API (ha_manage_app proxy): a GET reads, as HTTP defines it
    ReadRule{K::supervisor, "PROXY GET *"},
};

bool matches(std::string_view pattern, std::string_view text) {
  const auto star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == text;
  const std::string_view head = pattern.substr(0, star);
  const std::string_view tail = pattern.substr(star + 1);
  return text.size() >= head.size() + tail.size() && text.substr(0, head.size()) == head &&
         text.substr(text.size() - tail.size()) == tail;
}

}  // namespace

std::string_view to_string(RequestKind kind) {
  switch (kind) {
    case K::ws_command:
      return "WebSocket command";
    case K::ws_subscribe:
      return "WebSocket subscription";
    case K::rest_get:
      return "GET";
    case K::rest_post:
      return "POST";
    case K::rest_delete:
      return "DELETE";
    case K::service:
      return "service call";
    case K::supervisor:
      return "Supervisor request";
  }
  return "request";
}

std::span<const ReadRule> read_rules() { return kReadRules; }

bool is_known_read(RequestKind kind, std::string_view what) {
  const bool rest = kind == K::rest_get || kind == K::rest_post || kind == K::supervisor;
  if (rest) what = what.substr(0, what.find('?'));
  // ".." or an encoded path could make "/api/x/../y" name something else.
  if (rest && (what.find("..") != std::string_view::npos || what.find('%') != std::string_view::npos)) return false;
  for (const ReadRule& rule : kReadRules)
    if (rule.kind == kind && matches(rule.pattern, what)) return true;
  return false;
}

}  // namespace hamcp::tools
