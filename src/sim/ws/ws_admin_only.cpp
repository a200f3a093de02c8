#include "sim/ws/ws_admin_only.hpp"

#include <iterator>
#include <set>
#include <string>

namespace hamcp::sim {

namespace {

// Sorted; from HA 2026.2.3's source (components/*: @require_admin).
constexpr std::string_view kAdminOnlyCommands[] = {
    "analytics",
    "analytics/preferences",
    "assist_pipeline/device/capture",
    "assist_pipeline/device/list",
    "assist_pipeline/pipeline_debug/get",
    "assist_pipeline/pipeline_debug/list",
    "backup/agents/info",
    "backup/can_decrypt_on_download",
    "backup/config/info",
    "backup/config/update",
    "backup/delete",
    "backup/details",
    "backup/generate",
    "backup/generate_with_automatic_settings",
    "backup/info",
    "backup/restore",
    "backup/subscribe_events",
    "blueprint/delete",
    "blueprint/import",
    "blueprint/list",
    "blueprint/save",
    "blueprint/substitute",
    "bluetooth/subscribe_advertisements",
    "bluetooth/subscribe_connection_allocations",
    "bluetooth/subscribe_scanner_details",
    "bluetooth/subscribe_scanner_state",
    "cloud/alexa/entities",
    "cloud/alexa/entities/get",
    "cloud/alexa/sync",
    "cloud/google_assistant/entities",
    "cloud/google_assistant/entities/get",
    "cloud/google_assistant/entities/update",
    "cloud/remote/connect",
    "cloud/remote/disconnect",
    "cloud/remove_data",
    "config/auth/create",
    "config/auth/list",
    "config/auth/update",
    "config/core/detect",
    "config/core/update",
    "config/device_registry/remove_config_entry",
    "config/device_registry/update",
    "config/entity_registry/remove",
    "config/entity_registry/update",
    "config_entries/disable",
    "config_entries/flow/progress",
    "config_entries/flow/subscribe",
    "config_entries/get_single",
    "config_entries/ignore_flow",
    "config_entries/subentries/delete",
    "config_entries/subentries/list",
    "config_entries/subentries/update",
    "config_entries/update",
    "dhcp/subscribe_discovery",
    "diagnostics/get",
    "diagnostics/list",
    "energy/save_prefs",
    "hassio/update/config/info",
    "hassio/update/config/update",
    "homeassistant/expose_entity",
    "homeassistant/expose_entity/list",
    "homeassistant/expose_new_entities/get",
    "homeassistant/expose_new_entities/set",
    "knx/create_device",
    "knx/create_entity",
    "knx/delete_entity",
    "knx/get_base_data",
    "knx/get_entity_config",
    "knx/get_entity_entries",
    "knx/get_knx_project",
    "knx/get_schema",
    "knx/group_monitor_info",
    "knx/group_telegrams",
    "knx/project_file_process",
    "knx/project_file_remove",
    "knx/subscribe_telegrams",
    "knx/update_entity",
    "knx/validate_entity",
    "labs/list",
    "labs/update",
    "lcn/devices",
    "lcn/devices/add",
    "lcn/devices/delete",
    "lcn/devices/scan",
    "lcn/entities",
    "lcn/entities/add",
    "lcn/entities/delete",
    "lovelace/config/delete",
    "lovelace/config/save",
    "network",
    "network/configure",
    "recorder/adjust_sum_statistics",
    "recorder/change_statistics_unit",
    "recorder/clear_statistics",
    "recorder/import_statistics",
    "recorder/update_statistics_metadata",
    "ssdp/subscribe_discovery",
    "system_log/list",
    "thread/add_dataset_tlv",
    "thread/delete_dataset",
    "thread/discover_routers",
    "thread/get_dataset_tlv",
    "thread/list_datasets",
    "thread/set_preferred_border_agent",
    "thread/set_preferred_dataset",
    "trace/contexts",
    "trace/debug/breakpoint/clear",
    "trace/debug/breakpoint/list",
    "trace/debug/breakpoint/set",
    "trace/debug/breakpoint/subscribe",
    "trace/debug/continue",
    "trace/debug/step",
    "trace/debug/stop",
    "trace/get",
    "trace/list",
    "update/release_notes",
    "usb/scan",
    "wyoming/info",
    "zeroconf/subscribe_discovery",
    "zha/devices/permit",
    "zha/devices/reconfigure",
};

}  // namespace

bool ws_command_requires_admin(std::string_view type) {
  static const std::set<std::string_view> kAdminOnly(std::begin(kAdminOnlyCommands), std::end(kAdminOnlyCommands));
  return kAdminOnly.contains(type);
}

bool service_requires_admin(std::string_view domain, std::string_view service) {
  // homeassistant's own admin services (components/homeassistant/__init__.py).
  static const std::set<std::string, std::less<>> kAdminServices = {
      "homeassistant.restart", "homeassistant.check_config", "homeassistant.stop", "homeassistant.reload_core_config",
      "homeassistant.set_location", "homeassistant.reload_all", "homeassistant.reload_config_entry",
      "homeassistant.reload_custom_templates",
      // zha's async_register_admin_service ones
      "zha.set_zigbee_cluster_attribute", "zha.issue_zigbee_cluster_command"};
  std::string name(domain);
  name += '.';
  name += service;
  return kAdminServices.contains(name);
}

}  // namespace hamcp::sim
