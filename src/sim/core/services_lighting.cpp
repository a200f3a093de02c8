// Actions of lights, switches, input_booleans and fans.
#include <algorithm>

#include "sim/core/domain_logic.hpp"
#include "sim/core/service_spec.hpp"

namespace hamcp::sim::svc {

namespace {

void light_on(Run& r, const StoredState& s, const json::object& d) {
  json::object a = s.attributes;
  LightChange c;
  if (auto* v = d.if_contains("brightness")) c.brightness = saturate_cast<int>(num(*v));
  if (auto* v = d.if_contains("brightness_pct")) c.brightness = saturate_cast<int>(std::round(num(*v) * 255 / 100));
  bool was_on = s.state == "on";
  // Clamped: a state written over REST can claim any brightness (1e300), and the step is added to it.
  int current = was_on ? std::clamp(saturate_cast<int>(attr_num(a, "brightness", 255)), 0, 255) : 0;
  if (auto* v = d.if_contains("brightness_step")) c.brightness = current + saturate_cast<int>(num(*v));
  if (auto* v = d.if_contains("brightness_step_pct"))
    c.brightness = current + saturate_cast<int>(std::round(num(*v) * 255 / 100));
  if (auto* v = d.if_contains("rgb_color")) {
    const auto& arr = v->get_array();
    c.rgb = std::array<int, 3>{saturate_cast<int>(num(arr[0])), saturate_cast<int>(num(arr[1])),
                               saturate_cast<int>(num(arr[2]))};
  }
  if (auto* v = d.if_contains("hs_color")) {
    const auto& arr = v->get_array();
    c.hs = std::array<double, 2>{num(arr[0]), num(arr[1])};
  }
  if (auto* v = d.if_contains("color_name"); v && v->is_string()) {
    // A few of the CSS3 names HA accepts; unknown names are rejected like HA's vol.In.
    static const std::map<std::string, std::array<int, 3>, std::less<>> names = {
        {"red", {255, 0, 0}},          {"green", {0, 128, 0}},      {"blue", {0, 0, 255}},
        {"white", {255, 255, 255}},    {"yellow", {255, 255, 0}},   {"orange", {255, 165, 0}},
        {"purple", {128, 0, 128}},     {"pink", {255, 192, 203}},   {"cyan", {0, 255, 255}},
        {"magenta", {255, 0, 255}},    {"lime", {0, 255, 0}},       {"gold", {255, 215, 0}},
        {"turquoise", {64, 224, 208}}, {"violet", {238, 130, 238}}, {"warmwhite", {255, 244, 229}}};
    std::string name(v->get_string());
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    name.erase(std::remove(name.begin(), name.end(), ' '), name.end());
    auto it = names.find(name);
    if (it == names.end()) throw invalid("Invalid color name @ data['color_name']");
    c.rgb = it->second;
  }
  if (auto* v = d.if_contains("color_temp_kelvin")) c.color_temp_kelvin = saturate_cast<int>(num(*v));
  if (auto* v = d.if_contains("kelvin")) c.color_temp_kelvin = saturate_cast<int>(num(*v));
  if (auto* v = d.if_contains("effect"); v && v->is_string()) c.effect = std::string(v->get_string());
  if (c.brightness && *c.brightness <= 0) {
    light_turn_off(a);
    r.set(s, "off", std::move(a));
    return;
  }
  light_turn_on(a, c);
  r.set(s, "on", std::move(a));
}

void light_off(Run& r, const StoredState& s, const json::object&) {
  json::object a = s.attributes;
  light_turn_off(a);
  r.set(s, "off", std::move(a));
}

void fan_on(Run& r, const StoredState& s, const json::object& d) {
  json::object a = s.attributes;
  double pct = attr_num(a, "percentage", 0);
  if (auto* v = d.if_contains("percentage"))
    pct = num(*v);
  else if (pct <= 0)
    pct = 100 - std::fmod(100.0, attr_num(a, "percentage_step", 1));
  if (auto* v = d.if_contains("preset_mode")) {
    std::string mode(v->get_string());
    const auto* modes = a.if_contains("preset_modes");
    bool ok = false;
    if (modes && modes->is_array())
      for (const auto& m : modes->get_array()) ok |= m.is_string() && m.get_string() == mode;
    if (!ok)
      throw validation("The preset_mode " + mode +
                           " is not a valid preset_mode: " + to_json(modes ? *modes : json::value(json::array{})),
                       "not_valid_preset_mode");
    a["preset_mode"] = mode;
  }
  if (pct <= 0) {
    a["percentage"] = 0;
    r.set(s, "off", std::move(a));
    return;
  }
  a["percentage"] = saturate_cast<int>(pct);
  r.set(s, "on", std::move(a));
}

void fan_off(Run& r, const StoredState& s, const json::object&) {
  json::object a = s.attributes;
  if (a.contains("percentage")) a["percentage"] = 0;
  if (a.contains("preset_mode")) a["preset_mode"] = nullptr;
  r.set(s, "off", std::move(a));
}

void add_lights_and_switches(Services::Impl& impl) {
  const std::vector<Field> light_fields = {
      fint("transition", 0, 300, "Duration it takes to get to next state."),
      fint("brightness", 0, 255,
           "Number indicating brightness, where 0 turns the light off, 1 is the minimum and 255 is the maximum."),
      ffloat("brightness_pct", 0, 100, "Number indicating the percentage of full brightness."),
      fint("brightness_step", -225, 255, "Change brightness by an amount."),
      ffloat("brightness_step_pct", -100, 100, "Change brightness by a percentage."),
      Field{"rgb_color", FT::Rgb, {}, {}, false, "The color in RGB format."},
      Field{"hs_color", FT::Hs, {}, {}, false, "Color in hue/sat format."},
      fint("color_temp_kelvin", 1000, 40000, "Color temperature in Kelvin."),
      fint("kelvin", 1000, 40000, "Deprecated: use color_temp_kelvin."),
      fstr("effect", "Light effect."),
      fstr("flash", "Tell light to flash, can be either value short or long."),
      fstr("color_name", "A human-readable color name."),
      fstr("profile", "Name of a light profile to use.")};
  impl.add(
      entity_spec("light", "turn_on",
                  "Turns on one or more lights and adjusts their properties, even when they are turned on already.",
                  light_fields, light_on));
  impl.add(entity_spec(
      "light", "turn_off", "Turn off one or more lights.",
      {fint("transition", 0, 300, "Duration it takes to get to next state."), fstr("flash", "Tell light to flash.")},
      light_off));
  impl.add(entity_spec("light", "toggle",
                       "Toggles one or more lights, from on to off, or off to on, based on their current state.",
                       light_fields, [](Run& r, const StoredState& s, const json::object& d) {
                         s.state == "on" ? light_off(r, s, d) : light_on(r, s, d);
                       }));

  for (const char* dom : {"switch", "input_boolean"}) {
    impl.add(entity_spec(dom, "turn_on", "Turns on.", {}, simple_on));
    impl.add(entity_spec(dom, "turn_off", "Turns off.", {}, simple_off));
    impl.add(entity_spec(dom, "toggle", "Toggles on/off.", {}, [](Run& r, const StoredState& s, const json::object& d) {
      s.state == "on" ? simple_off(r, s, d) : simple_on(r, s, d);
    }));
  }
  impl.add(plain_spec("input_boolean", "reload", "Reloads helpers from the YAML-configuration.", {},
                      [](Run&, const json::object&) { return std::nullopt; }));
}

void add_fans(Services::Impl& impl) {
  const std::vector<Field> fan_on_fields = {fint("percentage", 0, 100, "Speed of the fan."),
                                            fstr("preset_mode", "Preset fan mode.")};
  impl.add(entity_spec("fan", "turn_on", "Turns fan on.", fan_on_fields, fan_on));
  impl.add(entity_spec("fan", "turn_off", "Turns fan off.", {}, fan_off));
  impl.add(entity_spec("fan", "toggle", "Toggles a fan on/off.", {},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         s.state == "on" ? fan_off(r, s, d) : fan_on(r, s, d);
                       }));
  impl.add(entity_spec("fan", "set_percentage", "Sets the speed of a fan.",
                       {fint("percentage", 0, 100, "Speed of the fan.", true)}, fan_on, 1));
  impl.add(entity_spec("fan", "set_preset_mode", "Sets preset fan mode.",
                       {fstr("preset_mode", "Preset fan mode.", true)}, fan_on, 8));
  impl.add(entity_spec(
      "fan", "oscillate", "Controls the oscillation of a fan.",
      {fbool("oscillating", "Turns oscillation on/off.", true)},
      [](Run& r, const StoredState& s, const json::object& d) {
        json::object a = s.attributes;
        a["oscillating"] = d.at("oscillating");
        r.set_attrs(s, a);
      },
      2));
}

}  // namespace

void add_lighting_services(Services::Impl& impl) {
  add_lights_and_switches(impl);
  add_fans(impl);
}

}  // namespace hamcp::sim::svc
