// Device kinds: realistic devices (manufacturer, model, integration) and the
// entities they bring, with the attribute sets real integrations report.
#include <cstdio>

#include "sim/core/domain_logic.hpp"
#include "sim/core/time_util.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {
namespace {

struct Model {
  const char* manufacturer;
  const char* model;
  const char* platform;
  const char* sw_version;
};

std::string num(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Picks a model, names the device "<Room> <noun>" (German nouns in German
// rooms) and returns the device id; `platform_out` receives the integration.
std::string make_device(HomeBuilder& b, const Room& room, const KindOptions& o, const std::vector<Model>& models,
                        const std::vector<const char*>& nouns_en, const std::vector<const char*>& nouns_de,
                        std::string& platform_out) {
  const Model& m = models[b.rng().below(models.size())];
  std::string name = o.device_name;
  if (name.empty()) {
    const auto& nouns = room.german && !nouns_de.empty() ? nouns_de : nouns_en;
    name = room.name + " " + nouns[b.rng().below(nouns.size())];
  }
  DeviceSpec d;
  d.name = name;
  d.manufacturer = m.manufacturer;
  d.model = m.model;
  d.platform = m.platform;
  if (m.sw_version) d.sw_version = std::string(m.sw_version);
  if (!room.area_id.empty()) d.area_id = room.area_id;
  platform_out = m.platform;
  return b.add_device(std::move(d));
}

EntitySpec spec(const std::string& domain, const std::string& device, const std::string& platform,
                std::optional<std::string> name, std::string state, json::object attrs) {
  EntitySpec s;
  s.domain = domain;
  s.device_id = device;
  s.platform = platform;
  s.original_name = std::move(name);
  s.state = std::move(state);
  s.attributes = std::move(attrs);
  return s;
}

std::string sensor(HomeBuilder& b, const std::string& dev, const std::string& platform, std::string name,
                   std::string value, std::string device_class, std::string unit, std::string state_class,
                   bool diagnostic = false) {
  json::object a;
  if (!state_class.empty()) a["state_class"] = state_class;
  if (!unit.empty()) a["unit_of_measurement"] = unit;
  auto s = spec("sensor", dev, platform, std::move(name), std::move(value), std::move(a));
  if (!device_class.empty()) s.device_class = device_class;
  if (diagnostic) s.entity_category = "diagnostic";
  return b.add_entity(std::move(s));
}

std::string battery(HomeBuilder& b, const std::string& dev, const std::string& platform) {
  return sensor(b, dev, platform, "Battery", std::to_string(35 + b.rng().below(66)), "battery", "%", "measurement",
                true);
}

void maybe_update(HomeBuilder& b, const std::string& dev, const std::string& platform, const char* version) {
  if (!b.rng().chance(0.15)) return;
  bool pending = b.rng().chance(0.3);
  std::string latest = pending ? std::string(version) + ".1" : version;
  json::object a{{"auto_update", false},         {"display_precision", 0},     {"installed_version", version},
                 {"in_progress", false},         {"latest_version", latest},   {"release_summary", nullptr},
                 {"release_url", nullptr},       {"skipped_version", nullptr}, {"title", nullptr},
                 {"update_percentage", nullptr}, {"supported_features", 5}};
  auto s = spec("update", dev, platform, "Firmware", pending ? "on" : "off", std::move(a));
  s.device_class = "firmware";
  s.entity_category = "config";
  b.add_entity(std::move(s));
}

void apply_main(EntitySpec& s, const KindOptions& o) {
  s.aliases = o.aliases;
  s.labels = o.labels;
}

json::array arr(std::initializer_list<const char*> items) {
  json::array a;
  for (const char* i : items) a.emplace_back(i);
  return a;
}

void light(HomeBuilder& b, const Room& room, const KindOptions& o, const std::vector<Model>& models, json::array modes,
           int features, bool effects) {
  std::string platform;
  std::string dev = make_device(
      b, room, o, models,
      {"Ceiling Light", "Floor Lamp", "Table Lamp", "Spotlights", "Pendant Light", "LED Strip", "Wall Light",
       "Reading Lamp"},
      {"Deckenlampe", "Stehlampe", "Tischlampe", "Spots", "Hängelampe", "LED-Streifen", "Wandleuchte"}, platform);
  json::object a{{"supported_color_modes", modes}, {"supported_features", features}};
  bool ct = false;
  for (auto& m : modes) ct |= m.get_string() == "color_temp";
  if (ct) {
    a["min_color_temp_kelvin"] = 2000;
    a["max_color_temp_kelvin"] = 6535;
    a["min_mireds"] = 153;
    a["max_mireds"] = 500;
  }
  if (effects) {
    a["effect_list"] = arr({"off", "candle", "fire", "prism", "sparkle", "opal", "glisten"});
    a["effect"] = nullptr;
  }
  bool on = o.on || b.rng().chance(0.35);
  if (on) {
    LightChange c;
    c.brightness = 40 + static_cast<int>(b.rng().below(216));
    if (ct && b.rng().chance(0.6))
      c.color_temp_kelvin = 2200 + 100 * static_cast<int>(b.rng().below(30));
    else if (modes.size() > 0 && modes[0].get_string() != "color_temp")
      c.hs =
          std::array<double, 2>{static_cast<double>(b.rng().below(360)), 40.0 + static_cast<double>(b.rng().below(60))};
    light_turn_on(a, c);
  } else {
    light_turn_off(a);
  }
  auto s = spec("light", dev, platform, std::nullopt, on ? "on" : "off", std::move(a));
  apply_main(s, o);
  b.add_entity(std::move(s));
  maybe_update(b, dev, platform, "1.116.3");
}

}  // namespace

void kind_color_light(HomeBuilder& b, const Room& r, const KindOptions& o) {
  light(b, r, o,
        {{"Signify Netherlands B.V.", "Hue White and Color Ambiance A19", "hue", "1.116.3"},
         {"IKEA of Sweden", "TRADFRI bulb E27 CWS 806lm", "zha", "1.0.021"},
         {"LIFX", "LIFX A19", "lifx", "3.90"},
         {"Nanoleaf", "NL45 Essentials A19", "matter", "3.5.10"}},
        arr({"color_temp", "xy"}), 44, true);
}
void kind_dimmable_light(HomeBuilder& b, const Room& r, const KindOptions& o) {
  light(b, r, o,
        {{"Signify Netherlands B.V.", "Hue white lamp", "hue", "1.116.3"},
         {"IKEA of Sweden", "TRADFRI bulb E27 W opal 1000lm", "zha", "2.3.093"},
         {"Shelly", "Shelly Dimmer 2", "shelly", "1.14.0"}},
        arr({"brightness"}), 32, false);
}
void kind_ambiance_light(HomeBuilder& b, const Room& r, const KindOptions& o) {
  light(b, r, o,
        {{"Signify Netherlands B.V.", "Hue white ambiance GU10", "hue", "1.116.3"},
         {"IKEA of Sweden", "TRADFRI bulb GU10 WS 400lm", "zha", "1.0.012"}},
        arr({"color_temp"}), 40, false);
}
void kind_onoff_light(HomeBuilder& b, const Room& r, const KindOptions& o) {
  light(b, r, o, {{"Shelly", "Shelly Plus 1", "shelly", "1.4.4"}, {"Sonoff", "MINIR4", "esphome", "2025.2.0"}},
        arr({"onoff"}), 0, false);
}

void kind_smart_plug(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(
      b, r, o,
      {{"Shelly", "Shelly Plus Plug S", "shelly", "1.4.4"},
       {"TP-Link", "HS110", "tplink", "1.5.6"},
       {"Eve Systems", "Eve Energy", "homekit_controller", "6.3.1"},
       {"IKEA of Sweden", "TRETAKT Smart plug", "zha", "1.0.0"}},
      {"Coffee Machine Plug", "TV Plug", "Heater Plug", "Dehumidifier Plug", "Lamp Plug", "Desk Plug", "Fridge Plug"},
      {"Kaffeemaschine Steckdose", "Fernseher Steckdose", "Heizlüfter Steckdose", "Steckdose"}, platform);
  bool on = o.on || b.rng().chance(0.5);
  auto s = spec("switch", dev, platform, std::nullopt, on ? "on" : "off", {});
  s.device_class = "outlet";
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "Power", num(on ? b.rng().uniform(2, 1800) : 0, 1), "power", "W", "measurement");
  sensor(b, dev, platform, "Energy", num(b.rng().uniform(1, 900), 3), "energy", "kWh", "total_increasing");
  maybe_update(b, dev, platform, "1.4.4");
}

void kind_wall_switch(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Shelly", "Shelly Plus 2PM", "shelly", "1.4.4"},
                                 {"Sonoff", "ZBMINI", "zha", "1.0.5"},
                                 {"Aqara", "Smart Wall Switch H1", "zha", "0.0.0_0029"}},
                                {"Wall Switch", "Light Switch", "Relay"}, {"Lichtschalter", "Wandschalter"}, platform);
  bool on = o.on || b.rng().chance(0.4);
  auto s = spec("switch", dev, platform, std::nullopt, on ? "on" : "off", {});
  s.device_class = "switch";
  apply_main(s, o);
  b.add_entity(std::move(s));
}

void kind_climate_sensor(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev =
      make_device(b, r, o,
                  {{"Aqara", "Temperature and Humidity Sensor T1", "zha", "0.0.0_0019"},
                   {"Xiaomi", "LYWSD03MMC", "xiaomi_ble", nullptr},
                   {"SwitchBot", "Meter Plus", "switchbot", "2.0"},
                   {"Eve Systems", "Eve Room", "homekit_controller", "1.2.8"}},
                  {"Climate Sensor", "Thermometer", "Temperature Sensor"}, {"Klimasensor", "Thermometer"}, platform);
  double t = r.outdoor ? b.rng().uniform(-3, 16) : b.rng().uniform(18.5, 23.5);
  std::string temp = sensor(b, dev, platform, "Temperature", num(t, 1), "temperature", "°C", "measurement");
  if (!o.aliases.empty() || !o.labels.empty()) {
    auto& e = b.home().entities.back();
    e.aliases = o.aliases;
    e.labels = o.labels;
  }
  std::string hum =
      sensor(b, dev, platform, "Humidity", num(b.rng().uniform(35, 65), 1), "humidity", "%", "measurement");
  battery(b, dev, platform);
  for (auto& area : b.home().areas)
    if (area.area_id == r.area_id && !area.temperature_entity_id) {
      area.temperature_entity_id = temp;
      area.humidity_entity_id = hum;
    }
}

void kind_motion_sensor(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Signify Netherlands B.V.", "Hue motion sensor", "hue", "2.53.6"},
                                 {"Aqara", "Motion Sensor P1", "zha", "0.0.0_0025"},
                                 {"IKEA of Sweden", "TRADFRI motion sensor", "zha", "24.4.5"}},
                                {"Motion Sensor", "Presence Sensor"}, {"Bewegungsmelder"}, platform);
  auto s = spec("binary_sensor", dev, platform, "Motion", b.rng().chance(0.2) ? "on" : "off", {});
  s.device_class = "motion";
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "Illuminance", std::to_string(b.rng().below(400)), "illuminance", "lx", "measurement");
  battery(b, dev, platform);
}

namespace {
void contact(HomeBuilder& b, const Room& r, const KindOptions& o, bool door) {
  std::string platform;
  std::string dev = make_device(
      b, r, o,
      {{"Aqara", "Door and Window Sensor", "zha", "0.0.0_0009"},
       {"Sonoff", "SNZB-04", "zha", "1.0.4"},
       {"Eve Systems", "Eve Door & Window", "homekit_controller", "1.2.9"}},
      door ? std::vector<const char*>{"Door", "Front Door Sensor", "Door Contact"}
           : std::vector<const char*>{"Window", "Window Sensor", "Skylight"},
      door ? std::vector<const char*>{"Tür", "Türkontakt"} : std::vector<const char*>{"Fenster", "Fensterkontakt"},
      platform);
  auto s = spec("binary_sensor", dev, platform, std::nullopt, b.rng().chance(door ? 0.1 : 0.2) ? "on" : "off", {});
  s.device_class = door ? "door" : "window";
  apply_main(s, o);
  b.add_entity(std::move(s));
  battery(b, dev, platform);
}
}  // namespace

void kind_window_contact(HomeBuilder& b, const Room& r, const KindOptions& o) { contact(b, r, o, false); }
void kind_door_contact(HomeBuilder& b, const Room& r, const KindOptions& o) { contact(b, r, o, true); }

void kind_thermostat(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev =
      make_device(b, r, o,
                  {{"tado°", "Smart Radiator Thermostat", "tado", "109.1"},
                   {"Danfoss", "eTRV0100", "zha", "01.08"},
                   {"ecobee", "ecobee3 lite", "ecobee", "4.8.7.132"},
                   {"Netatmo", "Smart Thermostat", "netatmo", "72"}},
                  {"Thermostat", "Radiator", "Heating"}, {"Heizung", "Heizkörper", "Thermostat"}, platform);
  double current = b.rng().uniform(18.0, 22.5);
  double target = 17.0 + 0.5 * static_cast<double>(b.rng().below(11));
  std::string mode = o.on || b.rng().chance(0.7) ? "heat" : "off";
  json::object a{{"hvac_modes", arr({"off", "heat", "auto"})},
                 {"min_temp", 5.0},
                 {"max_temp", 30.0},
                 {"target_temp_step", 0.5},
                 {"preset_modes", arr({"none", "away", "eco", "comfort", "boost"})},
                 {"current_temperature", round_to(current, 1)},
                 {"temperature", target},
                 {"current_humidity", static_cast<int>(b.rng().uniform(35, 60))},
                 {"hvac_action", mode == "off" ? "off" : (current < target ? "heating" : "idle")},
                 {"preset_mode", "none"},
                 {"supported_features", 401}};
  auto s = spec("climate", dev, platform, std::nullopt, mode, std::move(a));
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "Valve Position", std::to_string(b.rng().below(100)), "", "%", "measurement");
  battery(b, dev, platform);
}

void kind_blind(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev =
      make_device(b, r, o,
                  {{"IKEA of Sweden", "FYRTUR block-out roller blind", "zha", "24.4.11"},
                   {"Somfy", "Sonesse 30 WireFree", "somfy_mylink", nullptr},
                   {"Shelly", "Shelly Plus 2PM", "shelly", "1.4.4"}},
                  {"Blinds", "Roller Shutter", "Curtains", "Shades"}, {"Rollladen", "Jalousie", "Vorhang"}, platform);
  int pos = o.on ? 100 : static_cast<int>(b.rng().below(5)) * 25;
  json::object a{{"current_position", pos}, {"supported_features", 15}};
  auto s = spec("cover", dev, platform, std::nullopt, pos == 0 ? "closed" : "open", std::move(a));
  s.device_class = b.rng().chance(0.5) ? "blind" : "shutter";
  apply_main(s, o);
  b.add_entity(std::move(s));
  if (platform == "zha") battery(b, dev, platform);
  maybe_update(b, dev, platform, "24.4.11");
}

void kind_garage_door(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Meross", "MSG100", "meross_lan", "3.2.7"},
                                 {"Chamberlain", "myQ Smart Garage Hub", "ratgdo", "2.5"},
                                 {"Shelly", "Shelly Plus 1", "shelly", "1.4.4"}},
                                {"Garage Door", "Gate"}, {"Garagentor", "Tor"}, platform);
  bool open = o.on || b.rng().chance(0.1);
  json::object a{{"supported_features", 3}};
  auto s = spec("cover", dev, platform, std::nullopt, open ? "open" : "closed", std::move(a));
  s.device_class = "garage";
  apply_main(s, o);
  b.add_entity(std::move(s));
}

void kind_door_lock(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Nuki", "Smart Lock 3.0 Pro", "nuki", "3.8.6"},
                                 {"Yale", "Linus Smart Lock L2", "yale", "1.2.3"},
                                 {"August", "Wi-Fi Smart Lock", "august", "2.3.1"}},
                                {"Door Lock", "Smart Lock"}, {"Türschloss"}, platform);
  auto s = spec("lock", dev, platform, std::nullopt, o.on || b.rng().chance(0.2) ? "unlocked" : "locked",
                {{"supported_features", 1}});
  apply_main(s, o);
  b.add_entity(std::move(s));
  battery(b, dev, platform);
  auto door = spec("binary_sensor", dev, platform, "Door", "off", {});
  door.device_class = "door";
  b.add_entity(std::move(door));
}

void kind_fan(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Dyson", "Pure Cool Link TP02", "dyson_local", "21.04.03"},
                                 {"Xiaomi", "Smart Standing Fan 2", "xiaomi_miio", "2.1.8"},
                                 {"Vornado", "Transom", "bond", nullptr}},
                                {"Fan", "Ceiling Fan", "Tower Fan"}, {"Ventilator", "Deckenventilator"}, platform);
  bool on = o.on || b.rng().chance(0.25);
  json::object a{{"preset_modes", arr({"auto", "nature", "sleep"})},
                 {"oscillating", false},
                 {"percentage", on ? static_cast<int>(b.rng().below(4) + 1) * 25 : 0},
                 {"percentage_step", 25.0},
                 {"preset_mode", nullptr},
                 {"supported_features", 59}};
  auto s = spec("fan", dev, platform, std::nullopt, on ? "on" : "off", std::move(a));
  apply_main(s, o);
  b.add_entity(std::move(s));
}

namespace {
void media(HomeBuilder& b, const Room& r, const KindOptions& o, bool tv) {
  std::string platform;
  std::string dev = tv ? make_device(b, r, o,
                                     {{"Samsung", "QE55Q80B", "samsungtv", "T-PTMDEUC-1560.1"},
                                      {"LG Electronics", "OLED55C24LA", "webostv", "23.20.57"},
                                      {"Sony", "KD-55X85K", "braviatv", "PKG6.7360.0224EUA"}},
                                     {"TV", "Television"}, {"Fernseher"}, platform)
                       : make_device(b, r, o,
                                     {{"Sonos", "One SL", "sonos", "80.1-55014"},
                                      {"Sonos", "Era 100", "sonos", "80.1-55014"},
                                      {"Google Inc.", "Google Nest Mini", "cast", "1.56.375318"},
                                      {"Apple", "HomePod mini", "apple_tv", "18.2"}},
                                     {"Speaker", "Sonos", "Smart Speaker"}, {"Lautsprecher"}, platform);
  bool playing = o.on || b.rng().chance(0.3);
  json::object a;
  std::string state;
  if (tv) {
    a = {{"source_list", arr({"TV", "HDMI 1", "HDMI 2", "Netflix", "YouTube", "Spotify"})},
         {"supported_features", 24509}};
    if (playing) {
      a["volume_level"] = 0.18;
      a["is_volume_muted"] = false;
      a["source"] = "Netflix";
      a["media_content_type"] = "tvshow";
      a["media_title"] = "The Great British Bake Off";
      state = "playing";
    } else {
      state = "off";
    }
  } else {
    a = {{"source_list", arr({"Line-in", "TV", "Spotify", "Radio"})},
         {"group_members", json::array{}},
         {"volume_level", round_to(b.rng().uniform(0.1, 0.6), 2)},
         {"is_volume_muted", false},
         {"media_content_type", "music"},
         {"repeat", "off"},
         {"shuffle", false},
         {"supported_features", 4127295}};
    if (playing) {
      a["media_title"] = "Clair de Lune";
      a["media_artist"] = "Claude Debussy";
      a["media_album_name"] = "Suite bergamasque";
      a["media_duration"] = 301;
      a["media_position"] = 42;
      a["source"] = "Spotify";
      state = "playing";
    } else {
      state = b.rng().chance(0.5) ? "paused" : "idle";
    }
  }
  auto s = spec("media_player", dev, platform, std::nullopt, state, std::move(a));
  s.device_class = tv ? "tv" : "speaker";
  apply_main(s, o);
  b.add_entity(std::move(s));
}
}  // namespace

void kind_tv(HomeBuilder& b, const Room& r, const KindOptions& o) { media(b, r, o, true); }
void kind_speaker(HomeBuilder& b, const Room& r, const KindOptions& o) { media(b, r, o, false); }

void kind_vacuum(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Roborock", "S7 MaxV", "roborock", "02.16.04"},
                                 {"iRobot", "Roomba j7+", "roomba", "22.29.6"},
                                 {"Ecovacs", "DEEBOT T8 AIVI", "ecovacs", "1.6.4"}},
                                {"Vacuum", "Robot Vacuum"}, {"Staubsauger", "Saugroboter"}, platform);
  json::object a{{"fan_speed_list", arr({"quiet", "balanced", "turbo", "max"})},
                 {"battery_level", 100},
                 {"battery_icon", "mdi:battery-charging-100"},
                 {"fan_speed", "balanced"},
                 {"supported_features", 13948}};
  auto s = spec("vacuum", dev, platform, std::nullopt, o.on ? "cleaning" : "docked", std::move(a));
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "Cleaning area", num(b.rng().uniform(20, 80), 1), "area", "m²", "");
  auto btn = spec("button", dev, platform, "Reset main brush consumable", "unknown", {});
  btn.entity_category = "config";
  b.add_entity(std::move(btn));
}

void kind_camera(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Reolink", "RLC-810A", "reolink", "v3.1.0.2368_23062700"},
                                 {"Ubiquiti Inc.", "UVC G4 Bullet", "unifiprotect", "4.69.55"},
                                 {"Amcrest", "IP8M-2496EW", "amcrest", "2.800.0000000.9.R"}},
                                {"Camera", "Cam"}, {"Kamera"}, platform);
  std::string token = b.hex_id() + b.hex_id();
  json::object a{{"access_token", token},
                 {"frontend_stream_type", "hls"},
                 {"brand", b.device(dev)->manufacturer},
                 {"model_name", b.device(dev)->model},
                 {"supported_features", 2}};
  auto s = spec("camera", dev, platform, std::nullopt, "idle", std::move(a));
  apply_main(s, o);
  std::string eid = b.add_entity(std::move(s));
  // entity_picture carries the final entity id, known only now
  for (auto it = b.home().states.rbegin(); it != b.home().states.rend(); ++it)
    if (it->entity_id == eid) {
      it->attributes["entity_picture"] = "/api/camera_proxy/" + eid + "?token=" + token;
      break;
    }
  auto motion = spec("binary_sensor", dev, platform, "Person", "off", {});
  motion.device_class = "occupancy";
  b.add_entity(std::move(motion));
}

void kind_smoke_detector(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"HEIMAN", "SmokeSensor-EF-3.0", "zha", "1.0.0"},
                                 {"Google", "Nest Protect", "nest", "3.1rc9"},
                                 {"Aqara", "Smart Smoke Detector", "zha", "0.0.0_0023"}},
                                {"Smoke Detector", "Smoke Alarm"}, {"Rauchmelder"}, platform);
  auto s = spec("binary_sensor", dev, platform, "Smoke", "off", {});
  s.device_class = "smoke";
  apply_main(s, o);
  b.add_entity(std::move(s));
  battery(b, dev, platform);
}

void kind_leak_sensor(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(
      b, r, o, {{"Aqara", "Water Leak Sensor", "zha", "0.0.0_0019"}, {"Sonoff", "SNZB-05P", "zha", "1.0.0"}},
      {"Leak Sensor", "Water Sensor"}, {"Wassermelder"}, platform);
  auto s = spec("binary_sensor", dev, platform, "Water leak", "off", {});
  s.device_class = "moisture";
  apply_main(s, o);
  b.add_entity(std::move(s));
  battery(b, dev, platform);
}

void kind_air_purifier(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Xiaomi", "Mi Air Purifier 3H", "xiaomi_miio", "2.1.7"},
                                 {"IKEA of Sweden", "STARKVIND Air purifier", "zha", "1.0.033"},
                                 {"Philips", "AC2889/10", "philips_airpurifier", "1.0.7"}},
                                {"Air Purifier"}, {"Luftreiniger"}, platform);
  bool on = o.on || b.rng().chance(0.5);
  json::object a{{"preset_modes", arr({"Auto", "Silent", "Favorite"})},
                 {"percentage", on ? 40 : 0},
                 {"percentage_step", 20.0},
                 {"preset_mode", on ? json::value("Auto") : json::value(nullptr)},
                 {"supported_features", 57}};
  auto s = spec("fan", dev, platform, std::nullopt, on ? "on" : "off", std::move(a));
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "PM2.5", std::to_string(3 + b.rng().below(30)), "pm25", "µg/m³", "measurement");
  auto sel = spec("select", dev, platform, "LED brightness", "Bright", {{"options", arr({"Bright", "Dim", "Off"})}});
  sel.entity_category = "config";
  b.add_entity(std::move(sel));
  auto n =
      spec("number", dev, platform, "Favorite level", "10", {{"min", 0}, {"max", 17}, {"step", 1}, {"mode", "auto"}});
  n.entity_category = "config";
  b.add_entity(std::move(n));
}

void kind_energy_meter(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(
      b, r, o, {{"Shelly", "Shelly Pro 3EM", "shelly", "1.4.4"}, {"HomeWizard", "P1 Meter", "homewizard", "5.18"}},
      {"Energy Meter", "Power Meter"}, {"Stromzähler"}, platform);
  std::string p = sensor(b, dev, platform, "Power", num(b.rng().uniform(150, 3500), 1), "power", "W", "measurement");
  if (!o.aliases.empty()) b.home().entities.back().aliases = o.aliases;
  sensor(b, dev, platform, "Energy import", num(b.rng().uniform(1000, 20000), 3), "energy", "kWh", "total_increasing");
  sensor(b, dev, platform, "Energy export", num(b.rng().uniform(0, 5000), 3), "energy", "kWh", "total_increasing");
  sensor(b, dev, platform, "Voltage", num(b.rng().uniform(228, 236), 1), "voltage", "V", "measurement");
}

void kind_washing_machine(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev =
      make_device(b, r, o, {{"Bosch", "WAX32M41", "home_connect", nullptr}, {"Miele", "WCR 870 WPS", "miele", nullptr}},
                  {"Washing Machine", "Washer", "Dryer"}, {"Waschmaschine", "Trockner"}, platform);
  bool running = o.on || b.rng().chance(0.2);
  auto s = spec("sensor", dev, platform, "Operation state", running ? "run" : "ready",
                {{"options", arr({"inactive", "ready", "delayedstart", "run", "pause", "finished", "error"})}});
  s.device_class = "enum";
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "Remaining program time", running ? iso_time(kHomeEpoch + 3000) : "unknown", "timestamp", "",
         "");
  auto sw = spec("switch", dev, platform, "Power", "on", {});
  b.add_entity(std::move(sw));
}

// ---------------------------------------------------------------------------

namespace {

void add_sun(HomeBuilder& b) {
  DeviceSpec d{"Sun", "", "", std::nullopt, "sun"};
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
  DeviceSpec d{"Forecast", "Met.no", "Forecast", std::nullopt, "met"};
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
    DeviceSpec d{name + (iphone ? "'s iPhone" : "'s Pixel"), iphone ? "Apple" : "Google",
                 iphone ? "iPhone15,2" : "Pixel 8", std::nullopt, "mobile_app"};
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
  DeviceSpec d{"Home Assistant Core", "Home Assistant", "Home Assistant Core", std::nullopt, "hassio"};
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
