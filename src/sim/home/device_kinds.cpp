// Device kinds: realistic devices (manufacturer, model, integration) and the
// entities they bring, with the attribute sets real integrations report.
// Lights, plugs, switches, sensors, climate, covers, locks and fans here;
// media, appliances and cameras in device_kinds_appliances.cpp.
#include <cstdio>

#include "sim/core/domain_logic.hpp"
#include "sim/core/time_util.hpp"
#include "sim/home/device_parts.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

using namespace parts;

namespace {

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

}  // namespace hamcp::sim
