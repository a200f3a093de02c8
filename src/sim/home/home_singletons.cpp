// The entities every home has once: sun, weather, the people with their
// phones, the home zone and Home Assistant's own update entity.
#include <cstdio>

#include "sim/core/domain_logic.hpp"
#include "sim/core/time_util.hpp"
#include "sim/home/device_parts.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

using namespace parts;

namespace {

void add_sun(HomeBuilder& b) {
  DeviceSpec d;
  d.name = "Sun";
  d.platform = "sun";
  d.entry_type = "service";
  std::string dev = b.add_device(std::move(d));
  EntitySpec s;
  s.domain = "sun";
  s.object_id = "sun";
  s.original_name = "Sun";
  s.platform = "sun";
  s.state = "above_horizon";
  s.attributes = {{"next_dawn", iso_time(kHomeEpoch + 24000)},
                  {"next_dusk", iso_time(kHomeEpoch + 58000)},
                  {"next_midnight", iso_time(kHomeEpoch + 86400)},
                  {"next_noon", iso_time(kHomeEpoch + 41000)},
                  {"next_rising", iso_time(kHomeEpoch + 26500)},
                  {"next_setting", iso_time(kHomeEpoch + 55700)},
                  {"elevation", 12.4},
                  {"azimuth", 178.2},
                  {"rising", false}};
  b.add_entity(std::move(s));
  b.home().entities.back().device_id = dev;
  b.home().entities.back().has_entity_name = false;
}

void add_weather(HomeBuilder& b) {
  DeviceSpec d;
  d.name = "Forecast";
  d.manufacturer = "Met.no";
  d.model = "Forecast";
  d.platform = "met";
  d.entry_type = "service";
  std::string dev = b.add_device(std::move(d));
  EntitySpec s;
  s.domain = "weather";
  s.object_id = "forecast_home";
  s.device_id = dev;
  s.platform = "met";
  s.original_name = std::nullopt;
  s.name = std::nullopt;
  s.state = "partlycloudy";
  s.attributes = {{"temperature", 7.4},
                  {"apparent_temperature", 4.9},
                  {"dew_point", 3.1},
                  {"temperature_unit", "°C"},
                  {"humidity", 74},
                  {"cloud_coverage", 56.3},
                  {"uv_index", 0.8},
                  {"pressure", 1014.2},
                  {"pressure_unit", "hPa"},
                  {"wind_bearing", 231.5},
                  {"wind_speed", 18.4},
                  {"wind_speed_unit", "km/h"},
                  {"visibility_unit", "km"},
                  {"precipitation_unit", "mm"},
                  {"attribution", "Weather forecast from met.no, delivered by the Norwegian Meteorological Institute."},
                  {"supported_features", 3}};
  b.add_entity(std::move(s));
  // Met's entity is named after the config entry ("Forecast Home")
  b.home().states.back().attributes["friendly_name"] = "Forecast Home";
  b.home().entities.back().original_name = "Forecast Home";
  b.home().entities.back().has_entity_name = false;
}

// A phone (device tracker + battery sensor) and a person per name; the persons' entity ids.
json::array add_people(HomeBuilder& b, const std::vector<std::string>& person_names) {
  const auto& cfg = b.home().config;
  json::array persons;
  for (const auto& name : person_names) {
    std::string slug = slugify(name);
    bool iphone = b.rng().chance(0.5);
    DeviceSpec d;
    d.name = name + (iphone ? "'s iPhone" : "'s Pixel");
    d.manufacturer = iphone ? "Apple" : "Google";
    d.model = iphone ? "iPhone15,2" : "Pixel 8";
    d.platform = "mobile_app";
    d.sw_version = iphone ? "18.2" : "15";
    std::string dev = b.add_device(std::move(d));
    bool home = b.rng().chance(0.6);
    double lat = home ? cfg.latitude : cfg.latitude + b.rng().uniform(-0.05, 0.05);
    double lon = home ? cfg.longitude : cfg.longitude + b.rng().uniform(-0.05, 0.05);
    EntitySpec t;
    t.domain = "device_tracker";
    t.device_id = dev;
    t.platform = "mobile_app";
    t.state = home ? "home" : "not_home";
    t.attributes = {{"source_type", "gps"},
                    {"battery_level", 20 + b.rng().below(80)},
                    {"latitude", round_to(lat, 6)},
                    {"longitude", round_to(lon, 6)},
                    {"gps_accuracy", 12},
                    {"altitude", 4},
                    {"course", 0},
                    {"speed", 0},
                    {"vertical_accuracy", 6}};
    std::string tracker = b.add_entity(std::move(t));
    sensor(b, dev, "mobile_app", "Battery level", std::to_string(20 + b.rng().below(80)), "battery", "%",
           "measurement");
    EntitySpec p;
    p.domain = "person";
    p.object_id = slug;
    p.original_name = name;
    p.platform = "person";
    p.state = home ? "home" : "not_home";
    std::string user = b.hex_id();
    p.attributes = {{"editable", true},
                    {"id", slug},
                    {"device_trackers", json::array{tracker}},
                    {"latitude", round_to(lat, 6)},
                    {"longitude", round_to(lon, 6)},
                    {"gps_accuracy", 12},
                    {"source", tracker},
                    {"user_id", user}};
    persons.emplace_back(b.add_entity(std::move(p)));
  }
  return persons;
}

void add_home_zone(HomeBuilder& b, const json::array& persons) {
  const auto& cfg = b.home().config;
  EntitySpec z;
  z.domain = "zone";
  z.object_id = "home";
  z.original_name = cfg.location_name;
  z.state = std::to_string(persons.size() > 0 ? persons.size() / 2 + persons.size() % 2 : 0);
  z.registry = false;
  z.attributes = {{"latitude", cfg.latitude}, {"longitude", cfg.longitude}, {"radius", 100},     {"passive", false},
                  {"persons", persons},       {"editable", true},           {"icon", "mdi:home"}};
  b.add_entity(std::move(z));
}

void add_core_update(HomeBuilder& b) {
  DeviceSpec d;
  d.name = "Home Assistant Core";
  d.manufacturer = "Home Assistant";
  d.model = "Home Assistant Core";
  d.platform = "hassio";
  d.entry_type = "service";
  d.sw_version = b.home().config.version;
  std::string dev = b.add_device(std::move(d));
  EntitySpec u;
  u.domain = "update";
  u.device_id = dev;
  u.platform = "hassio";
  u.original_name = "Update";
  u.state = "on";
  u.attributes = {{"auto_update", false},
                  {"display_precision", 0},
                  {"installed_version", b.home().config.version},
                  {"in_progress", false},
                  {"latest_version", "2025.12.1"},
                  {"release_summary", nullptr},
                  {"release_url", "https://www.home-assistant.io/blog/"},
                  {"skipped_version", nullptr},
                  {"title", "Home Assistant Core"},
                  {"update_percentage", nullptr},
                  {"entity_picture", "https://brands.home-assistant.io/homeassistant/icon.png"},
                  {"supported_features", 11}};
  b.add_entity(std::move(u));
}

}  // namespace

void add_home_singletons(HomeBuilder& b, const std::vector<std::string>& person_names) {
  add_sun(b);
  add_weather(b);
  const json::array persons = add_people(b, person_names);
  add_home_zone(b, persons);
  add_core_update(b);
}

}  // namespace hamcp::sim
