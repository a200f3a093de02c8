#pragma once
// The simulated home as plain data: what a Home Assistant instance knows about a
// house (states, entity/device/area/floor/label/category registries, automation,
// script and scene configs). No behaviour here: the state store (state_store.hpp)
// owns a Home at run time, the generators below build one.
//
// Field names follow Home Assistant's own wire names so serialisation is a
// 1:1 mapping (see home_json.hpp).

#include <boost/json.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/supervisor/supervisor_model.hpp"

namespace hamcp::sim {

namespace json = boost::json;

// Seconds since the Unix epoch, UTC, with sub-second precision (HA's float
// timestamps). ISO-8601 strings are produced from it on the wire.
using Timestamp = double;

// The fixed instant generated homes are built at. The state store rebases all
// timestamps to "now" when it loads a home, so generated data stays
// deterministic while a running simulator still looks current.
inline constexpr Timestamp kHomeEpoch = 1767225600.0;  // 2026-01-01T00:00:00Z

struct Context {
  std::string id;  // 26-char ULID-like id, as HA uses
  std::optional<std::string> parent_id;
  std::optional<std::string> user_id;
};

struct EntityState {
  std::string entity_id;    // "<domain>.<object_id>"
  std::string state;        // always a string ("on", "21.5", "unavailable"…)
  json::object attributes;  // includes friendly_name, icon, unit_of_measurement…
  Timestamp last_changed = kHomeEpoch;
  Timestamp last_updated = kHomeEpoch;
  Timestamp last_reported = kHomeEpoch;
  Context context;
};

struct EntityRegistryEntry {
  std::string entity_id;
  std::string id;         // registry id (32 hex chars)
  std::string unique_id;  // integration-provided
  std::string platform;   // integration domain, e.g. "hue", "shelly", "input_boolean"
  std::optional<std::string> config_entry_id;
  std::optional<std::string> device_id;
  std::optional<std::string> area_id;  // own area; when empty the device's area applies
  std::optional<std::string> name;     // user override
  std::optional<std::string>
      original_name;  // integration-provided (with has_entity_name: the part after the device name)
  std::optional<std::string> icon;
  std::optional<std::string> original_icon;
  std::optional<std::string> device_class;           // user override
  std::optional<std::string> original_device_class;  // integration-provided
  std::optional<std::string> entity_category;        // "config" | "diagnostic"
  std::optional<std::string> hidden_by;              // "user" | "integration"
  std::optional<std::string> disabled_by;            // "user" | "integration" | …
  std::optional<std::string> translation_key;
  std::optional<std::string> unit_of_measurement;
  std::vector<std::string> aliases;
  std::vector<std::string> labels;                // label_ids
  std::map<std::string, std::string> categories;  // scope -> category_id
  bool has_entity_name = true;
  json::object options;
  json::object capabilities;  // e.g. {"min_color_temp_kelvin":2000,…} or {"state_class":"measurement"}
  Timestamp created_at = kHomeEpoch;
  Timestamp modified_at = kHomeEpoch;
};

struct Device {
  std::string id;  // 32 hex chars
  std::string name;
  std::optional<std::string> name_by_user;
  std::string manufacturer;
  std::string model;
  std::optional<std::string> model_id;
  std::optional<std::string> sw_version;
  std::optional<std::string> hw_version;
  std::optional<std::string> serial_number;
  std::optional<std::string> area_id;
  std::optional<std::string> via_device_id;
  std::optional<std::string> entry_type;  // "service" for cloud/virtual devices
  std::optional<std::string> disabled_by;
  std::optional<std::string> configuration_url;
  std::vector<std::string> config_entries;
  std::optional<std::string> primary_config_entry;
  std::vector<std::string> labels;
  std::vector<std::pair<std::string, std::string>> identifiers;  // (domain, id)
  std::vector<std::pair<std::string, std::string>> connections;  // ("mac", "aa:bb:…")
  Timestamp created_at = kHomeEpoch;
  Timestamp modified_at = kHomeEpoch;
  // The integration no longer provides it, so it agrees to its removal
  // (HA asks the integration: async_remove_config_entry_device).
  bool orphaned = false;
};

struct Area {
  std::string area_id;  // slug of the name, e.g. "living_room", "kuche"
  std::string name;
  std::optional<std::string> floor_id;
  std::vector<std::string> aliases;
  std::optional<std::string> icon;
  std::optional<std::string> picture;
  std::optional<std::string> humidity_entity_id;
  std::optional<std::string> temperature_entity_id;
  std::vector<std::string> labels;
  Timestamp created_at = kHomeEpoch;
  Timestamp modified_at = kHomeEpoch;
};

struct Floor {
  std::string floor_id;
  std::string name;
  std::vector<std::string> aliases;
  std::optional<std::string> icon;
  std::optional<int> level;
  Timestamp created_at = kHomeEpoch;
  Timestamp modified_at = kHomeEpoch;
};

struct Label {
  std::string label_id;
  std::string name;
  std::optional<std::string> color;
  std::optional<std::string> description;
  std::optional<std::string> icon;
  Timestamp created_at = kHomeEpoch;
  Timestamp modified_at = kHomeEpoch;
};

struct Category {
  std::string category_id;  // 26-char ULID-like id
  std::string scope;        // "automation", "script", "helpers"…
  std::string name;
  std::optional<std::string> icon;
  Timestamp created_at = kHomeEpoch;
  Timestamp modified_at = kHomeEpoch;
};

// Location and unit settings reported by /api/config and get_config.
struct CoreConfig {
  std::string location_name = "Home";
  double latitude = 52.3731;
  double longitude = 4.8922;
  int elevation = 2;
  std::string time_zone = "Europe/Amsterdam";
  std::string country = "NL";
  std::string currency = "EUR";
  std::string language = "en";
  std::string unit_system = "metric";  // "metric" | "us_customary"
  std::string version = "2025.11.2";   // reported ha_version
};

// A blueprint file under <config>/blueprints/<domain>/<path>: the YAML as
// saved, and its parse (HA's tags as {"!input": name}; see yaml/yaml_json.hpp).
struct BlueprintFile {
  std::string yaml;
  json::object data;
};

// Health and administration (issue 13): the repairs issue registry as
// repairs/list_issues returns it, logger levels (logger name -> "DEBUG".."CRITICAL"),
// and what the configuration check finds (set: "invalid" with this text).
struct SystemAdmin {
  std::vector<json::object> repairs;
  std::map<std::string, std::string> logger_levels;
  std::string default_log_level = "WARNING";
  std::optional<std::string> config_errors;
  int restarts = 0;  // homeassistant.restart calls served
};

// HA's backup integration (sim/ws/ws_backup_commands.cpp): whether it is
// loaded (not: every backup/* command is unknown, as on a Core without it),
// the local agent's backups as backup/info lists them (ManagerBackup JSON,
// agent "backup.local"), the manager's state and last event. hold_create
// leaves a new backup in progress for ever (a test's slow backup);
// stage_delay_ms > 0 spaces a backup's stages in time, as a real one is (the
// demo's), 0 makes them at once.
struct BackupManager {
  bool loaded = false;
  std::vector<json::object> backups;
  std::string state = "idle";
  json::object last_event{{"manager_state", "idle"}};
  bool hold_create = false;
  int stage_delay_ms = 0;
  int restores = 0;
  int jobs = 0;
};

// Lovelace and the frontend (sim/ws/ws_lovelace_commands.cpp): storage and
// YAML dashboards (dashboard id -> item as lovelace/dashboards/list shows it),
// saved configs by url_path ("" = the default dashboard; none = never saved),
// resources (id -> {id, type, url}) and themes.
struct Lovelace {
  std::map<std::string, json::object> dashboards;
  std::map<std::string, json::value> configs;
  std::map<std::string, json::object> resources;
  json::object themes;  // name -> CSS variables
  std::string default_theme = "default";
  std::optional<std::string> default_dark_theme;
};

// A local calendar's stored event (HA's local_calendar, as far as the sim
// goes): times as epoch seconds (all-day: midnight UTC of the date, end
// exclusive); a series has an rrule and maybe excluded instances; an edited
// instance is its own event with the series' uid and a recurrence_id.
struct CalendarEvent {
  std::string uid, summary, description, location, rrule, recurrence_id;
  Timestamp start = 0, end = 0;
  bool all_day = false;
  std::vector<Timestamp> excluded;  // instance starts removed from the series
};

// A to-do list item as todo/item/list shows it; due: "" none, else a date or datetime text.
struct TodoItem {
  std::string uid, summary, status = "needs_action", due, description;
};

// Energy dashboard preferences and Assist pipelines (sim/ws/ws_energy_commands.cpp,
// ws_assist_commands.cpp): prefs as energy/get_prefs returns them (null: never
// saved, "No prefs"); pipelines as assist_pipeline/pipeline/get returns them.
struct Voice {
  std::vector<json::object> pipelines;
  std::string preferred;
};

struct Home {
  CoreConfig config;
  std::vector<EntityState> states;            // one per entity (also for non-registry ones)
  std::vector<EntityRegistryEntry> entities;  // registry entries (not every state has one)
  std::vector<Device> devices;
  std::vector<Area> areas;
  std::vector<Floor> floors;
  std::vector<Label> labels;
  std::vector<Category> categories;
  // Editable configs (what /api/config/<kind>/config/<id> serves), keyed by
  // the automation/scene `id` and the script object_id.
  std::map<std::string, json::object> automation_configs;
  std::map<std::string, json::object> script_configs;
  std::map<std::string, json::object> scene_configs;
  // Stored traces of automation/script runs, "<domain>/<item_id>" -> the
  // last few full traces (oldest first), as trace/get returns them.
  std::map<std::string, std::vector<json::object>> traces;
  // Config entries ({"entry": HA's entry JSON, "options": {...}}) and the
  // config/options flows in progress (flow_id -> flow), see sim/flows/.
  std::vector<json::object> config_entries;
  std::map<std::string, json::object> flows;
  // Blueprints, "<domain>/<path>" ("automation/homeassistant/motion_light.yaml").
  std::map<std::string, BlueprintFile> blueprints;
  // The tag storage collection, tag id -> stored item (id, tag_id, name?,
  // description?, last_scanned?); each tag also has a tag.* entity.
  std::map<std::string, json::object> tags;
  SystemAdmin system;
  BackupManager backup;
  Lovelace lovelace;
  // Local calendars and to-do lists, by entity id (calendar.*, todo.*).
  std::map<std::string, std::vector<CalendarEvent>> calendars;
  std::map<std::string, std::vector<TodoItem>> todo_lists;
  // Cameras turned off (camera.turn_off): HA keeps their state "idle" and answers 503 for an image.
  std::vector<std::string> cameras_off;
  // Update entities' full release notes (update/release_notes), by entity id.
  std::map<std::string, std::string> release_notes;
  // HACS's repositories as hacs/repository/info shows them (sim/ws/ws_hacs_commands.cpp);
  // HACS answers only while a "hacs" config entry exists.
  std::vector<json::object> hacs_repositories;
  // Radio networks (sim/ws/ws_{zha,zwave,thread,matter}_commands.cpp; the demo's in
  // home/demo_radios.cpp): "zha", "zwave_js", "thread", "matter", each the
  // integration's data in the shapes its WebSocket API answers with. A radio's
  // commands are unknown while no config entry of its domain exists.
  json::object radios;
  json::value energy_prefs;
  Voice voice;
  // The Supervisor (HA OS / Supervised); empty: HA Container/Core, no add-ons.
  std::optional<SupervisorData> supervisor;
};

// A hand-made, realistic house (~200 entities, ~25 domains, two floors with
// English and German-named rooms, devices with manufacturers and models,
// labels, aliases, helpers, automations, scripts and scenes).
Home demo_home();

// A deterministic home of exactly `entity_count` entities: rooms × device kinds
// with realistic names, manufacturers and models, aliases on some entities,
// labels, floors. The same (entity_count, seed) always yields the same home.
Home generate_home(std::size_t entity_count, uint64_t seed);

// The domain of an entity id ("light.kitchen" -> "light").
inline std::string_view domain_of(std::string_view entity_id) {
  auto dot = entity_id.find('.');
  return dot == std::string_view::npos ? std::string_view{} : entity_id.substr(0, dot);
}

}  // namespace hamcp::sim
