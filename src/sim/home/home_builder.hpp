#pragma once
// Builds a Home piece by piece with Home Assistant's linking rules applied once:
// unique entity ids, friendly names derived from device + entity name
// (has_entity_name), registry entries, devices in areas, deterministic ids.
// Used by demo_home() and generate_home(); the device "kinds" below give both
// the same realistic attribute sets.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sim/home/home_model.hpp"

namespace hamcp::sim {

// splitmix64: tiny, fast and identical on every platform (std distributions are not).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed ^ 0x9E3779B97F4A7C15ull) {}
  uint64_t next();
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(next() >> 11) * 0x1.0p-53); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  uint64_t state_;
};

// HA's slugify (python-slugify with unidecode) for the characters homes use:
// lower-case, ä/ö/ü -> a/o/u, ß -> ss, everything else non-alphanumeric -> "_".
std::string slugify(std::string_view text);

// Everything about one entity that add_entity needs; defaults fit most entities.
struct EntitySpec {
  std::string domain;
  std::string object_id;  // suggested; made unique ("_2", "_3"…) like HA does
  std::string state;
  json::object attributes;                   // domain attributes, without friendly_name
  std::optional<std::string> device_id;      // device whose name prefixes the friendly name
  std::optional<std::string> original_name;  // entity part of the name (nullopt: the device's name)
  std::optional<std::string> name;           // user-set name override
  std::optional<std::string> area_id;        // entity's own area (else the device's)
  std::optional<std::string> device_class;   // also written as the device_class attribute
  std::optional<std::string> entity_category;
  std::optional<std::string> icon;  // user icon override (also the icon attribute)
  std::string platform;             // integration; empty: the domain itself
  bool registry = true;             // false: state only (e.g. sun/zone.home-like)
  std::vector<std::string> aliases;
  std::vector<std::string> labels;
  std::optional<std::string> hidden_by;
  std::optional<std::string> disabled_by;
};

struct DeviceSpec {
  std::string name;
  std::string manufacturer;
  std::string model;
  std::optional<std::string> area_id;
  std::string platform;  // integration the device comes from ("hue", "shelly"…)
  std::optional<std::string> sw_version;
  std::optional<std::string> hw_version;
  std::optional<std::string> via_device_id;
  std::optional<std::string> entry_type;
  std::vector<std::string> labels;
};

class HomeBuilder {
 public:
  explicit HomeBuilder(uint64_t seed);

  Home& home() { return home_; }
  Rng& rng() { return rng_; }
  Home take() { return std::move(home_); }

  std::string add_floor(std::string name, int level, std::string icon, std::vector<std::string> aliases = {});
  std::string add_area(std::string name, std::optional<std::string> floor_id, std::string icon,
                       std::vector<std::string> aliases = {}, std::vector<std::string> labels = {});
  std::string add_label(std::string name, std::string color, std::string icon, std::string description);
  std::string add_category(std::string scope, std::string name, std::string icon);
  std::string add_device(DeviceSpec spec);
  // `name`, or "name 2", "name 3"… when a device already has it (as users number them).
  std::string unique_device_name(const std::string& name);
  // Adds the state (and registry entry) and returns the final entity_id.
  std::string add_entity(EntitySpec spec);

  const Device* device(const std::string& id) const;
  std::size_t entity_count() const { return home_.states.size(); }
  std::string hex_id();                                   // 32 lower-case hex chars (registry ids)
  std::string ulid();                                     // 26 chars, Crockford base32 (context and category ids)
  std::string config_entry(const std::string& platform);  // one config entry id per integration

 private:
  Home home_;
  Rng rng_;
  std::unordered_set<std::string> used_entity_ids_;
  std::unordered_set<std::string> used_area_ids_;
  std::unordered_set<std::string> used_device_names_;
  std::vector<std::pair<std::string, std::string>> config_entries_;
  uint64_t clock_ = 0;  // fake monotonic counter for ulid time part
};

// ---------------------------------------------------------------------------
// Device kinds: each adds one device (or standalone entities) with realistic
// attributes. `room` is the area name prefix used for device names.
struct Room {
  std::string area_id;
  std::string name;  // "Living Room", "Küche"
  bool outdoor = false;
  bool german = false;  // device names in German ("Küche Deckenlampe")
};

// What a kind may vary; manufacturers/models are chosen from realistic lists by rng.
struct KindOptions {
  std::string device_name;           // empty: derived from room + kind
  std::vector<std::string> aliases;  // aliases for the main entity
  std::vector<std::string> labels;   // labels for the main entity
  bool on = false;                   // initial on/open/playing where it applies
};

using KindFn = void (*)(HomeBuilder&, const Room&, const KindOptions&);

void kind_color_light(HomeBuilder&, const Room&, const KindOptions&);
void kind_dimmable_light(HomeBuilder&, const Room&, const KindOptions&);
void kind_ambiance_light(HomeBuilder&, const Room&, const KindOptions&);
void kind_onoff_light(HomeBuilder&, const Room&, const KindOptions&);
void kind_smart_plug(HomeBuilder&, const Room&, const KindOptions&);  // switch + power + energy
void kind_wall_switch(HomeBuilder&, const Room&, const KindOptions&);
void kind_climate_sensor(HomeBuilder&, const Room&, const KindOptions&);  // temperature + humidity + battery
void kind_motion_sensor(HomeBuilder&, const Room&, const KindOptions&);   // motion + illuminance + battery
void kind_window_contact(HomeBuilder&, const Room&, const KindOptions&);
void kind_door_contact(HomeBuilder&, const Room&, const KindOptions&);
void kind_thermostat(HomeBuilder&, const Room&, const KindOptions&);  // climate + valve number
void kind_blind(HomeBuilder&, const Room&, const KindOptions&);
void kind_garage_door(HomeBuilder&, const Room&, const KindOptions&);
void kind_door_lock(HomeBuilder&, const Room&, const KindOptions&);
void kind_fan(HomeBuilder&, const Room&, const KindOptions&);
void kind_tv(HomeBuilder&, const Room&, const KindOptions&);
void kind_speaker(HomeBuilder&, const Room&, const KindOptions&);
void kind_vacuum(HomeBuilder&, const Room&, const KindOptions&);
void kind_camera(HomeBuilder&, const Room&, const KindOptions&);
void kind_smoke_detector(HomeBuilder&, const Room&, const KindOptions&);
void kind_leak_sensor(HomeBuilder&, const Room&, const KindOptions&);
void kind_air_purifier(HomeBuilder&, const Room&, const KindOptions&);  // fan + pm2.5 + filter select
void kind_energy_meter(HomeBuilder&, const Room&, const KindOptions&);  // power/energy/voltage
void kind_washing_machine(HomeBuilder&, const Room&, const KindOptions&);

// Whole-home singletons: sun, weather, zone.home, persons + trackers, update entities.
void add_home_singletons(HomeBuilder&, const std::vector<std::string>& person_names);

// Helpers (input_*, counter, timer) and automations/scripts/scenes bound to entities.
std::string add_input_boolean(HomeBuilder&, std::string name, bool on, std::string icon);
std::string add_input_number(HomeBuilder&, std::string name, double min, double max, double step, double value,
                             std::string unit, std::string icon);
std::string add_input_select(HomeBuilder&, std::string name, std::vector<std::string> options, std::string value,
                             std::string icon);
std::string add_input_text(HomeBuilder&, std::string name, std::string value);
std::string add_input_datetime(HomeBuilder&, std::string name, bool has_date, bool has_time);
std::string add_input_button(HomeBuilder&, std::string name, std::string icon);
std::string add_counter(HomeBuilder&, std::string name, int value, int step);
std::string add_timer(HomeBuilder&, std::string name, std::string duration);
std::string add_automation(HomeBuilder&, std::string alias, std::string description, json::array triggers,
                           json::array actions, bool on, std::optional<std::string> category_id = {},
                           std::vector<std::string> labels = {});
std::string add_script(HomeBuilder&, std::string alias, std::string icon, json::array sequence,
                       std::optional<std::string> category_id = {});
std::string add_scene(HomeBuilder&, std::string name, json::object entities, std::string icon);

// The demo home's dashboards, resources and themes (demo_dashboards.cpp).
void add_demo_lovelace(Home& home);

}  // namespace hamcp::sim
