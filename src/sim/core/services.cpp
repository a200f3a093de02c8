#include "sim/core/json_writer.hpp"
#include "sim/core/services.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <unordered_set>

#include "common/saturate_cast.hpp"
#include "sim/core/domain_logic.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim {
namespace {

enum class FT { Int, Float, Bool, Str, Rgb, Hs, Any };

struct Field {
  std::string name;
  FT type = FT::Any;
  std::optional<double> min, max;
  bool required = false;
  std::string description;
};

struct Run;
using EntityHandler = std::function<void(Run&, const StoredState&, const json::object&)>;
using PlainHandler = std::function<std::optional<json::value>(Run&, const json::object&)>;

struct Spec {
  std::string domain, name, description;
  std::vector<Field> fields;
  bool entity = true;            // has a target; handler runs per entity
  ResponseSupport response = ResponseSupport::none;
  int required_features = 0;     // entity must have these supported_features bits
  EntityHandler on_entity;
  PlainHandler on_call;
};

ServiceError invalid(std::string message) { return ServiceError{"invalid_format", std::move(message), {}, {}}; }
ServiceError validation(std::string message, std::string key = {}) {
  ServiceError e{"service_validation_error", std::move(message), {}, {}};
  if (!key.empty()) e.translation_key = std::move(key);
  return e;
}

std::string fmt_num(double v) {
  char buf[32];
  if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.1f", v);
  else std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

double num(const json::value& v) { return v.is_double() ? v.get_double() : static_cast<double>(v.to_number<double>()); }
double attr_num(const json::object& a, std::string_view k, double fallback) {
  const json::value* v = a.if_contains(k);
  return v && v->is_number() ? num(*v) : fallback;
}
std::string attr_str(const json::object& a, std::string_view k) {
  const json::value* v = a.if_contains(k);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}
int features(const StoredState& s) { return saturate_cast<int>(attr_num(s.attributes, "supported_features", 0)); }

std::vector<std::string> string_list(const json::value& v) {
  std::vector<std::string> out;
  auto add = [&](std::string_view s) {
    std::size_t start = 0;
    while (start <= s.size()) {
      std::size_t comma = s.find(',', start);
      std::string_view part = s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
      while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
      if (!part.empty()) out.emplace_back(part);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  };
  if (v.is_string()) add(v.get_string());
  else if (v.is_array())
    for (const auto& x : v.get_array())
      if (x.is_string()) add(x.get_string());
  return out;
}

const std::set<std::string> kTargetKeys = {"entity_id", "device_id", "area_id", "floor_id", "label_id"};

}  // namespace

struct Services::Impl {
  StateStore& store;
  std::map<std::string, std::map<std::string, Spec>> specs;
  int depth = 0;
  explicit Impl(StateStore& s) : store(s) {}
  void add(Spec s) { specs[s.domain][s.name] = std::move(s); }
  void build();
};

namespace {

struct Run {
  Services::Impl& impl;
  Services& services;
  Context ctx;
  std::vector<StatePtr> changed;

  void set(const StoredState& s, std::string state, json::object attrs) {
    changed.push_back(impl.store.set_state(s.entity_id, std::move(state), std::move(attrs), ctx));
  }
  void set_attrs(const StoredState& s, json::object attrs) { set(s, s.state, std::move(attrs)); }
  // Nested action (scripts, scenes, homeassistant.*) under the same context.
  void call(const std::string& domain, const std::string& service, json::object data, json::object target) {
    if (impl.depth > 8) return;  // a script calling itself
    ServiceCall c{domain, service, std::move(data), std::move(target), ctx, false};
    ++impl.depth;
    try {
      auto out = services.call(c);
      changed.insert(changed.end(), out.changed.begin(), out.changed.end());
    } catch (...) {
      --impl.depth;
      throw;
    }
    --impl.depth;
  }
  void run_sequence(const json::value& sequence);
};

void Run::run_sequence(const json::value& sequence) {
  if (!sequence.is_array()) return;
  for (const auto& step : sequence.get_array()) {
    if (!step.is_object()) continue;
    const auto& o = step.get_object();
    const json::value* action = o.if_contains("action");
    if (!action) action = o.if_contains("service");
    if (!action || !action->is_string()) continue;  // delays, conditions… take no time here
    std::string full(action->get_string());
    auto dot = full.find('.');
    if (dot == std::string::npos) continue;
    json::object data = o.contains("data") && o.at("data").is_object() ? o.at("data").get_object() : json::object{};
    json::object target =
        o.contains("target") && o.at("target").is_object() ? o.at("target").get_object() : json::object{};
    try {
      call(full.substr(0, dot), full.substr(dot + 1), std::move(data), std::move(target));
    } catch (const ServiceError&) {
      // HA stops a script on an error; the caller of script.turn_on does not see it.
      return;
    }
  }
}

Field fint(std::string n, std::optional<double> lo, std::optional<double> hi, std::string d, bool req = false) {
  return Field{std::move(n), FT::Int, lo, hi, req, std::move(d)};
}
Field ffloat(std::string n, std::optional<double> lo, std::optional<double> hi, std::string d, bool req = false) {
  return Field{std::move(n), FT::Float, lo, hi, req, std::move(d)};
}
Field fstr(std::string n, std::string d, bool req = false) { return Field{std::move(n), FT::Str, {}, {}, req, std::move(d)}; }
Field fbool(std::string n, std::string d, bool req = false) { return Field{std::move(n), FT::Bool, {}, {}, req, std::move(d)}; }
Field fany(std::string n, std::string d, bool req = false) { return Field{std::move(n), FT::Any, {}, {}, req, std::move(d)}; }

Spec entity_spec(std::string domain, std::string name, std::string description, std::vector<Field> fields,
                 EntityHandler h, int required_features = 0) {
  Spec s;
  s.domain = std::move(domain);
  s.name = std::move(name);
  s.description = std::move(description);
  s.fields = std::move(fields);
  s.on_entity = std::move(h);
  s.required_features = required_features;
  return s;
}

Spec plain_spec(std::string domain, std::string name, std::string description, std::vector<Field> fields, PlainHandler h,
                ResponseSupport response = ResponseSupport::none) {
  Spec s;
  s.domain = std::move(domain);
  s.name = std::move(name);
  s.description = std::move(description);
  s.fields = std::move(fields);
  s.entity = false;
  s.on_call = std::move(h);
  s.response = response;
  return s;
}

// --- domain behaviour -------------------------------------------------------

void light_on(Run& r, const StoredState& s, const json::object& d) {
  json::object a = s.attributes;
  LightChange c;
  if (auto* v = d.if_contains("brightness")) c.brightness = saturate_cast<int>(num(*v));
  if (auto* v = d.if_contains("brightness_pct")) c.brightness = saturate_cast<int>(std::round(num(*v) * 255 / 100));
  bool was_on = s.state == "on";
  // Clamped: a state written over REST can claim any brightness (1e300), and the step is added to it.
  int current = was_on ? std::clamp(saturate_cast<int>(attr_num(a, "brightness", 255)), 0, 255) : 0;
  if (auto* v = d.if_contains("brightness_step")) c.brightness = current + saturate_cast<int>(num(*v));
  if (auto* v = d.if_contains("brightness_step_pct")) c.brightness = current + saturate_cast<int>(std::round(num(*v) * 255 / 100));
  if (auto* v = d.if_contains("rgb_color")) {
    const auto& arr = v->get_array();
    c.rgb = std::array<int, 3>{saturate_cast<int>(num(arr[0])), saturate_cast<int>(num(arr[1])), saturate_cast<int>(num(arr[2]))};
  }
  if (auto* v = d.if_contains("hs_color")) {
    const auto& arr = v->get_array();
    c.hs = std::array<double, 2>{num(arr[0]), num(arr[1])};
  }
  if (auto* v = d.if_contains("color_name"); v && v->is_string()) {
    // A few of the CSS3 names HA accepts; unknown names are rejected like HA's vol.In.
    static const std::map<std::string, std::array<int, 3>, std::less<>> names = {
        {"red", {255, 0, 0}},        {"green", {0, 128, 0}},     {"blue", {0, 0, 255}},     {"white", {255, 255, 255}},
        {"yellow", {255, 255, 0}},   {"orange", {255, 165, 0}},  {"purple", {128, 0, 128}}, {"pink", {255, 192, 203}},
        {"cyan", {0, 255, 255}},     {"magenta", {255, 0, 255}}, {"lime", {0, 255, 0}},     {"gold", {255, 215, 0}},
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

void simple_on(Run& r, const StoredState& s, const json::object&) { r.set(s, "on", s.attributes); }
void simple_off(Run& r, const StoredState& s, const json::object&) { r.set(s, "off", s.attributes); }

void fan_on(Run& r, const StoredState& s, const json::object& d) {
  json::object a = s.attributes;
  double pct = attr_num(a, "percentage", 0);
  if (auto* v = d.if_contains("percentage")) pct = num(*v);
  else if (pct <= 0) pct = 100 - std::fmod(100.0, attr_num(a, "percentage_step", 1)) ;
  if (auto* v = d.if_contains("preset_mode")) {
    std::string mode(v->get_string());
    const auto* modes = a.if_contains("preset_modes");
    bool ok = false;
    if (modes && modes->is_array())
      for (const auto& m : modes->get_array()) ok |= m.is_string() && m.get_string() == mode;
    if (!ok) throw validation("The preset_mode " + mode + " is not a valid preset_mode: " +
                              to_json(modes ? *modes : json::value(json::array{})), "not_valid_preset_mode");
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

void cover_set(Run& r, const StoredState& s, int position) {
  json::object a = s.attributes;
  if (a.contains("current_position")) a["current_position"] = position;
  r.set(s, position > 0 ? "open" : "closed", std::move(a));
}

void media_state(Run& r, const StoredState& s, const std::string& state) {
  json::object a = s.attributes;
  if (state == "off") {
    for (const char* k : {"volume_level", "is_volume_muted", "media_title", "media_artist", "media_album_name",
                          "media_duration", "media_position", "media_content_type", "source"})
      a.erase(k);
  } else if (!a.contains("volume_level")) {
    a["volume_level"] = 0.2;
    a["is_volume_muted"] = false;
  }
  r.set(s, state, std::move(a));
}

void climate_apply(Run& r, const StoredState& s, json::object a, std::string mode) {
  double current = attr_num(a, "current_temperature", 20), target = attr_num(a, "temperature", 20);
  if (a.contains("hvac_action")) {
    if (mode == "off") a["hvac_action"] = "off";
    else if (mode == "cool") a["hvac_action"] = current > target ? "cooling" : "idle";
    else a["hvac_action"] = current < target ? "heating" : "idle";
  }
  r.set(s, std::move(mode), std::move(a));
}

void check_option(const StoredState& s, const std::string& option, const char* list_key) {
  const auto* opts = s.attributes.if_contains(list_key);
  if (opts && opts->is_array())
    for (const auto& o : opts->get_array())
      if (o.is_string() && o.get_string() == option) return;
  std::string all;
  if (opts && opts->is_array())
    for (const auto& o : opts->get_array()) all += (all.empty() ? "" : ", ") + std::string(o.is_string() ? o.get_string() : "");
  throw validation("Invalid option: " + option + " (possible options: " + all + ")", "invalid_option");
}

}  // namespace

void Services::Impl::build() {
  const std::vector<Field> light_fields = {
      fint("transition", 0, 300, "Duration it takes to get to next state."),
      fint("brightness", 0, 255, "Number indicating brightness, where 0 turns the light off, 1 is the minimum and 255 is the maximum."),
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
  add(entity_spec("light", "turn_on", "Turns on one or more lights and adjusts their properties, even when they are turned on already.", light_fields, light_on));
  add(entity_spec("light", "turn_off", "Turn off one or more lights.", {fint("transition", 0, 300, "Duration it takes to get to next state."), fstr("flash", "Tell light to flash.")}, light_off));
  add(entity_spec("light", "toggle", "Toggles one or more lights, from on to off, or off to on, based on their current state.", light_fields,
                  [](Run& r, const StoredState& s, const json::object& d) { s.state == "on" ? light_off(r, s, d) : light_on(r, s, d); }));

  for (const char* dom : {"switch", "input_boolean"}) {
    add(entity_spec(dom, "turn_on", "Turns on.", {}, simple_on));
    add(entity_spec(dom, "turn_off", "Turns off.", {}, simple_off));
    add(entity_spec(dom, "toggle", "Toggles on/off.", {},
                    [](Run& r, const StoredState& s, const json::object& d) { s.state == "on" ? simple_off(r, s, d) : simple_on(r, s, d); }));
  }
  add(plain_spec("input_boolean", "reload", "Reloads helpers from the YAML-configuration.", {}, [](Run&, const json::object&) { return std::nullopt; }));

  // automation
  auto automation_trigger = [this](Run& r, const StoredState& s, const json::object& d) {
    json::object a = s.attributes;
    a["last_triggered"] = iso_time(now_timestamp());
    std::string name = attr_str(a, "friendly_name");
    r.set_attrs(s, a);
    store.fire("automation_triggered", {{"name", name}, {"entity_id", s.entity_id}, {"source", "action"}}, r.ctx);
    LogbookEntry e;
    e.when = now_timestamp();
    e.entity_id = s.entity_id;
    e.name = name;
    e.message = "triggered by action automation.trigger";
    e.domain = "automation";
    e.context = r.ctx;
    e.context_event_type = "call_service";
    e.context_domain = "automation";
    e.context_service = "trigger";
    store.add_logbook(std::move(e));
    std::string id = attr_str(s.attributes, "id");
    auto it = store.home().automation_configs.find(id);
    if (it != store.home().automation_configs.end()) {
      const json::value* actions = it->second.if_contains("actions");
      if (!actions) actions = it->second.if_contains("action");
      if (actions) r.run_sequence(*actions);
    }
  };
  add(entity_spec("automation", "trigger", "Triggers the actions of an automation.", {fbool("skip_condition", "Defines whether or not the conditions will be skipped.")}, automation_trigger));
  add(entity_spec("automation", "turn_on", "Enables an automation.", {}, simple_on));
  add(entity_spec("automation", "turn_off", "Disables an automation.", {fbool("stop_actions", "Stops currently running actions.")}, simple_off));
  add(entity_spec("automation", "toggle", "Toggles (enable / disable) an automation.", {},
                  [](Run& r, const StoredState& s, const json::object& d) { s.state == "on" ? simple_off(r, s, d) : simple_on(r, s, d); }));
  add(plain_spec("automation", "reload", "Reloads the automation configuration.", {}, [](Run&, const json::object&) { return std::nullopt; }));

  // script
  auto script_run = [this](Run& r, const StoredState& s, const json::object& d) {
    json::object a = s.attributes;
    a["last_triggered"] = iso_time(now_timestamp());
    r.set_attrs(s, a);
    std::string object = s.entity_id.substr(7);
    store.fire("script_started", {{"name", attr_str(a, "friendly_name")}, {"entity_id", s.entity_id}}, r.ctx);
    LogbookEntry e;
    e.when = now_timestamp();
    e.entity_id = s.entity_id;
    e.name = attr_str(a, "friendly_name");
    e.message = "started";
    e.domain = "script";
    e.context = r.ctx;
    store.add_logbook(std::move(e));
    auto it = store.home().script_configs.find(object);
    if (it != store.home().script_configs.end() && it->second.contains("sequence")) r.run_sequence(it->second.at("sequence"));
  };
  add(entity_spec("script", "turn_on", "Runs the sequence of actions defined in a script.", {fany("variables", "Variables passed to the script.")}, script_run));
  add(entity_spec("script", "turn_off", "Stops a running script.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "off", s.attributes); }));
  add(entity_spec("script", "toggle", "Toggle a script.", {}, script_run));
  add(plain_spec("script", "reload", "Reloads all the available scripts.", {}, [](Run&, const json::object&) { return std::nullopt; }));

  // scene
  auto scene_on = [this](Run& r, const StoredState& s, const json::object&) {
    std::string id = attr_str(s.attributes, "id");
    auto it = store.home().scene_configs.find(id);
    if (it != store.home().scene_configs.end() && it->second.contains("entities")) {
      for (const auto& kv : it->second.at("entities").get_object()) {
        std::string eid(kv.key());
        std::string dom(domain_of(eid));
        json::object want = kv.value().is_object() ? kv.value().get_object() : json::object{{"state", kv.value()}};
        std::string st = want.contains("state") && want.at("state").is_string() ? std::string(want.at("state").get_string()) : "on";
        json::object data;
        for (const auto& w : want)
          if (w.key() != "state" && (dom == "light" ? (w.key() == "brightness" || w.key() == "rgb_color" || w.key() == "color_temp_kelvin") : false))
            data[w.key()] = w.value();
        json::object target{{"entity_id", eid}};
        std::string service;
        if (dom == "cover") service = st == "closed" ? "close_cover" : "open_cover";
        else if (dom == "lock") service = st == "locked" ? "lock" : "unlock";
        else if (dom == "media_player") service = st == "off" ? "turn_off" : st == "paused" ? "media_pause" : "media_play";
        else service = st == "off" ? "turn_off" : "turn_on";
        if (specs.count(dom) && specs[dom].count(service)) {
          try {
            r.call(dom, service, std::move(data), std::move(target));
          } catch (const ServiceError&) {
          }
        }
      }
    }
    r.set(s, iso_time(now_timestamp()), s.attributes);
  };
  add(entity_spec("scene", "turn_on", "Activates a scene.", {fint("transition", 0, 300, "Time it takes the devices to transition into the states defined in the scene.")}, scene_on));
  add(plain_spec("scene", "reload", "Reloads the scenes from the YAML-configuration.", {}, [](Run&, const json::object&) { return std::nullopt; }));
  add(plain_spec("scene", "apply", "Activates a scene with configuration.", {fany("entities", "List of entities and their target state.", true), fint("transition", 0, 300, "Transition time.")},
                 [](Run& r, const json::object& d) -> std::optional<json::value> {
                   const auto& ents = d.at("entities");
                   if (!ents.is_object()) throw invalid("expected a dictionary for dictionary value @ data['entities']");
                   for (const auto& kv : ents.get_object()) {
                     std::string eid(kv.key());
                     std::string st = kv.value().is_string() ? std::string(kv.value().get_string())
                                      : kv.value().is_object() && kv.value().get_object().contains("state")
                                          ? std::string(kv.value().get_object().at("state").get_string()) : "on";
                     std::string dom(domain_of(eid));
                     r.call(dom, st == "off" ? "turn_off" : "turn_on", {}, {{"entity_id", eid}});
                   }
                   return std::nullopt;
                 }));

  // fan
  const std::vector<Field> fan_on_fields = {fint("percentage", 0, 100, "Speed of the fan."), fstr("preset_mode", "Preset fan mode.")};
  add(entity_spec("fan", "turn_on", "Turns fan on.", fan_on_fields, fan_on));
  add(entity_spec("fan", "turn_off", "Turns fan off.", {}, fan_off));
  add(entity_spec("fan", "toggle", "Toggles a fan on/off.", {}, [](Run& r, const StoredState& s, const json::object& d) { s.state == "on" ? fan_off(r, s, d) : fan_on(r, s, d); }));
  add(entity_spec("fan", "set_percentage", "Sets the speed of a fan.", {fint("percentage", 0, 100, "Speed of the fan.", true)}, fan_on, 1));
  add(entity_spec("fan", "set_preset_mode", "Sets preset fan mode.", {fstr("preset_mode", "Preset fan mode.", true)}, fan_on, 8));
  add(entity_spec("fan", "oscillate", "Controls the oscillation of a fan.", {fbool("oscillating", "Turns oscillation on/off.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) { json::object a = s.attributes; a["oscillating"] = d.at("oscillating"); r.set_attrs(s, a); }, 2));

  // cover
  add(entity_spec("cover", "open_cover", "Opens a cover.", {}, [](Run& r, const StoredState& s, const json::object&) { cover_set(r, s, 100); }, 1));
  add(entity_spec("cover", "close_cover", "Closes a cover.", {}, [](Run& r, const StoredState& s, const json::object&) { cover_set(r, s, 0); }, 2));
  add(entity_spec("cover", "stop_cover", "Stops the cover movement.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }, 8));
  add(entity_spec("cover", "toggle", "Toggles a cover open/closed.", {}, [](Run& r, const StoredState& s, const json::object&) { cover_set(r, s, s.state == "closed" ? 100 : 0); }, 3));
  add(entity_spec("cover", "set_cover_position", "Moves a cover to a specific position.", {fint("position", 0, 100, "Target position.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) { cover_set(r, s, saturate_cast<int>(num(d.at("position")))); }, 4));

  // lock
  add(entity_spec("lock", "lock", "Locks a lock.", {fstr("code", "Code used to lock the lock.")}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "locked", s.attributes); }));
  add(entity_spec("lock", "unlock", "Unlocks a lock.", {fstr("code", "Code used to unlock the lock.")}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "unlocked", s.attributes); }));
  add(entity_spec("lock", "open", "Opens a lock.", {fstr("code", "Code used to open the lock.")}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "open", s.attributes); }, 1));

  // climate
  add(entity_spec("climate", "set_temperature", "Sets the temperature setpoint.",
                  {ffloat("temperature", 0, 250, "The temperature setpoint."), ffloat("target_temp_high", 0, 250, "The max temperature setpoint."),
                   ffloat("target_temp_low", 0, 250, "The min temperature setpoint."), fstr("hvac_mode", "HVAC operation mode.")},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    json::object a = s.attributes;
                    std::string mode = s.state;
                    if (auto* v = d.if_contains("hvac_mode")) {
                      mode = std::string(v->get_string());
                      check_option(s, mode, "hvac_modes");
                    }
                    if (auto* v = d.if_contains("temperature")) {
                      double t = num(*v), lo = attr_num(a, "min_temp", 7), hi = attr_num(a, "max_temp", 35);
                      if (t < lo || t > hi)
                        throw validation("Provided temperature " + fmt_num(t) + " is not valid. Accepted range is " + fmt_num(lo) + " to " + fmt_num(hi) + ".", "temp_out_of_range");
                      a["temperature"] = t;
                    } else if (!d.contains("target_temp_high") && !d.contains("target_temp_low")) {
                      throw invalid("must contain at least one of temperature, target_temp_high, target_temp_low.");
                    }
                    climate_apply(r, s, std::move(a), mode);
                  }, 1));
  add(entity_spec("climate", "set_hvac_mode", "Sets HVAC operation mode.", {fstr("hvac_mode", "HVAC operation mode.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    std::string mode(d.at("hvac_mode").get_string());
                    const auto* modes = s.attributes.if_contains("hvac_modes");
                    bool ok = false;
                    std::string all;
                    if (modes && modes->is_array())
                      for (const auto& m : modes->get_array()) {
                        ok |= m.get_string() == mode;
                        all += (all.empty() ? "" : ", ") + std::string(m.get_string());
                      }
                    if (!ok) throw validation("HVAC mode " + mode + " is not valid. Valid HVAC modes are: " + all, "not_valid_hvac_mode");
                    climate_apply(r, s, s.attributes, mode);
                  }));
  add(entity_spec("climate", "set_preset_mode", "Sets preset mode.", {fstr("preset_mode", "Preset mode.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    std::string mode(d.at("preset_mode").get_string());
                    check_option(s, mode, "preset_modes");
                    json::object a = s.attributes;
                    a["preset_mode"] = mode;
                    r.set_attrs(s, a);
                  }, 16));
  add(entity_spec("climate", "turn_on", "Turns climate device on.", {}, [](Run& r, const StoredState& s, const json::object&) { climate_apply(r, s, s.attributes, "heat"); }));
  add(entity_spec("climate", "turn_off", "Turns climate device off.", {}, [](Run& r, const StoredState& s, const json::object&) { climate_apply(r, s, s.attributes, "off"); }));
  add(entity_spec("climate", "toggle", "Toggles climate device, from on to off, or off to on.", {},
                  [](Run& r, const StoredState& s, const json::object&) { climate_apply(r, s, s.attributes, s.state == "off" ? "heat" : "off"); }));

  // media_player
  add(entity_spec("media_player", "turn_on", "Turns on the power of the media player.", {}, [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "on"); }));
  add(entity_spec("media_player", "turn_off", "Turns off the power of the media player.", {}, [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "off"); }));
  add(entity_spec("media_player", "toggle", "Toggles a media player on/off.", {}, [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, s.state == "off" ? "on" : "off"); }));
  add(entity_spec("media_player", "media_play", "Starts playing.", {}, [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "playing"); }));
  add(entity_spec("media_player", "media_pause", "Pauses.", {}, [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "paused"); }));
  add(entity_spec("media_player", "media_stop", "Stops playing.", {}, [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "idle"); }));
  add(entity_spec("media_player", "media_play_pause", "Toggles play/pause.", {}, [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, s.state == "playing" ? "paused" : "playing"); }));
  add(entity_spec("media_player", "media_next_track", "Selects the next track.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }));
  add(entity_spec("media_player", "media_previous_track", "Selects the previous track.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }));
  add(entity_spec("media_player", "volume_set", "Sets the volume level.", {ffloat("volume_level", 0, 1, "The volume. 0 is inaudible, 1 is the maximum volume.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) { json::object a = s.attributes; a["volume_level"] = num(d.at("volume_level")); r.set_attrs(s, a); }));
  add(entity_spec("media_player", "volume_mute", "Mutes or unmutes the media player.", {fbool("is_volume_muted", "Defines whether or not it is muted.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) { json::object a = s.attributes; a["is_volume_muted"] = d.at("is_volume_muted"); r.set_attrs(s, a); }));
  add(entity_spec("media_player", "volume_up", "Turns up the volume.", {}, [](Run& r, const StoredState& s, const json::object&) { json::object a = s.attributes; a["volume_level"] = round_to(std::min(1.0, attr_num(a, "volume_level", 0.2) + 0.05), 2); r.set_attrs(s, a); }));
  add(entity_spec("media_player", "volume_down", "Turns down the volume.", {}, [](Run& r, const StoredState& s, const json::object&) { json::object a = s.attributes; a["volume_level"] = round_to(std::max(0.0, attr_num(a, "volume_level", 0.2) - 0.05), 2); r.set_attrs(s, a); }));
  add(entity_spec("media_player", "select_source", "Sends the media player the command to change input source.", {fstr("source", "Name of the source to switch to.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) { std::string src(d.at("source").get_string()); check_option(s, src, "source_list"); json::object a = s.attributes; a["source"] = src; r.set_attrs(s, a); }));
  add(entity_spec("media_player", "play_media", "Starts playing specified media.",
                  {fstr("media_content_id", "The ID of the content to play.", true), fstr("media_content_type", "The type of the content to play.", true), fstr("enqueue", "If the content should be played now or be added to the queue."), fbool("announce", "If the media should be played as an announcement.")},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    json::object a = s.attributes;
                    a["media_content_id"] = d.at("media_content_id");
                    a["media_content_type"] = d.at("media_content_type");
                    a["media_title"] = d.at("media_content_id");
                    if (!a.contains("volume_level")) a["volume_level"] = 0.2;
                    r.set(s, "playing", std::move(a));
                  }));

  // vacuum
  add(entity_spec("vacuum", "start", "Starts or resumes the cleaning task.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "cleaning", s.attributes); }));
  add(entity_spec("vacuum", "pause", "Pauses the cleaning task.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "paused", s.attributes); }));
  add(entity_spec("vacuum", "stop", "Stops the current cleaning task.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "idle", s.attributes); }));
  add(entity_spec("vacuum", "return_to_base", "Tells the vacuum cleaner to return to its dock.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, "returning", s.attributes); }));
  add(entity_spec("vacuum", "locate", "Locates the vacuum cleaner robot.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }));
  add(entity_spec("vacuum", "set_fan_speed", "Sets the fan speed of the vacuum cleaner.", {fstr("fan_speed", "Fan speed.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) { std::string f(d.at("fan_speed").get_string()); check_option(s, f, "fan_speed_list"); json::object a = s.attributes; a["fan_speed"] = f; r.set_attrs(s, a); }));

  // input helpers
  auto set_number = [](Run& r, const StoredState& s, double v) {
    double lo = attr_num(s.attributes, "min", 0), hi = attr_num(s.attributes, "max", 100);
    if (v < lo || v > hi)
      throw validation("Invalid value for " + s.entity_id + ": " + fmt_num(v) + " (range " + fmt_num(lo) + " - " + fmt_num(hi) + ")", "invalid_value");
    r.set(s, fmt_num(v), s.attributes);
  };
  add(entity_spec("input_number", "set_value", "Sets the value.", {ffloat("value", {}, {}, "The target value.", true)},
                  [set_number](Run& r, const StoredState& s, const json::object& d) { set_number(r, s, num(d.at("value"))); }));
  add(entity_spec("input_number", "increment", "Increments the value by 1 step.", {},
                  [set_number](Run& r, const StoredState& s, const json::object&) { set_number(r, s, std::min(attr_num(s.attributes, "max", 100), numeric_state(s.state).value_or(0) + attr_num(s.attributes, "step", 1))); }));
  add(entity_spec("input_number", "decrement", "Decrements the value by 1 step.", {},
                  [set_number](Run& r, const StoredState& s, const json::object&) { set_number(r, s, std::max(attr_num(s.attributes, "min", 0), numeric_state(s.state).value_or(0) - attr_num(s.attributes, "step", 1))); }));
  auto select_option = [](Run& r, const StoredState& s, const json::object& d) {
    std::string o(d.at("option").get_string());
    check_option(s, o, "options");
    r.set(s, o, s.attributes);
  };
  auto select_move = [](int delta, bool absolute) {
    return [delta, absolute](Run& r, const StoredState& s, const json::object& d) {
      const auto& opts = s.attributes.at("options").get_array();
      if (opts.empty()) return;
      long idx = 0;
      for (std::size_t i = 0; i < opts.size(); ++i)
        if (opts[i].get_string() == s.state) idx = static_cast<long>(i);
      bool cycle = !d.contains("cycle") || d.at("cycle").as_bool();
      long n = static_cast<long>(opts.size());
      if (absolute) idx = delta < 0 ? 0 : n - 1;
      else if (cycle) idx = ((idx + delta) % n + n) % n;
      else idx = std::clamp(idx + delta, 0L, n - 1);
      r.set(s, std::string(opts[static_cast<std::size_t>(idx)].get_string()), s.attributes);
    };
  };
  for (const char* dom : {"input_select", "select"}) {
    add(entity_spec(dom, "select_option", "Selects an option.", {fstr("option", "Option to be selected.", true)}, select_option));
    add(entity_spec(dom, "select_next", "Selects the next option.", {fbool("cycle", "If the option should cycle from the last to the first.")}, select_move(1, false)));
    add(entity_spec(dom, "select_previous", "Selects the previous option.", {fbool("cycle", "If the option should cycle from the first to the last.")}, select_move(-1, false)));
    add(entity_spec(dom, "select_first", "Selects the first option.", {}, select_move(-1, true)));
    add(entity_spec(dom, "select_last", "Selects the last option.", {}, select_move(1, true)));
  }
  add(entity_spec("input_select", "set_options", "Sets the options.", {fany("options", "List of options.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    auto opts = string_list(d.at("options"));
                    if (opts.empty()) throw invalid("length of value must be at least 1 for dictionary value @ data['options']");
                    json::object a = s.attributes;
                    json::array arr;
                    for (auto& o : opts) arr.emplace_back(o);
                    a["options"] = arr;
                    std::string st = std::find(opts.begin(), opts.end(), s.state) != opts.end() ? s.state : opts.front();
                    r.set(s, st, std::move(a));
                  }));
  add(entity_spec("number", "set_value", "Sets the value of a number.", {ffloat("value", {}, {}, "The target value.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    double v = num(d.at("value")), lo = attr_num(s.attributes, "min", 0), hi = attr_num(s.attributes, "max", 100);
                    if (v < lo || v > hi)
                      throw validation("Value " + fmt_num(v) + " for " + s.entity_id + " is outside valid range " + fmt_num(lo) + " - " + fmt_num(hi), "out_of_range");
                    r.set(s, fmt_num(v), s.attributes);
                  }));
  add(entity_spec("input_text", "set_value", "Sets the value.", {fstr("value", "The target value.", true)},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    std::string v(d.at("value").get_string());
                    double mx = attr_num(s.attributes, "max", 100), mn = attr_num(s.attributes, "min", 0);
                    if (static_cast<double>(v.size()) > mx || static_cast<double>(v.size()) < mn)
                      throw validation("Invalid value for " + s.entity_id + ": " + v + " (length range " + fmt_num(mn) + " - " + fmt_num(mx) + ")");
                    r.set(s, v, s.attributes);
                  }));
  add(entity_spec("input_datetime", "set_datetime", "Sets the date and/or time.",
                  {fstr("date", "The target date."), fstr("time", "The target time."), fstr("datetime", "The target date & time."), ffloat("timestamp", {}, {}, "The target date & time, expressed by a UNIX timestamp.")},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    std::string st = s.state;
                    if (auto* v = d.if_contains("datetime")) st = std::string(v->get_string());
                    else {
                      std::string date = d.contains("date") ? std::string(d.at("date").get_string()) : "";
                      std::string time = d.contains("time") ? std::string(d.at("time").get_string()) : "";
                      if (!date.empty() && !time.empty()) st = date + " " + time;
                      else if (!date.empty()) st = date;
                      else if (!time.empty()) st = time.size() == 5 ? time + ":00" : time;
                    }
                    r.set(s, st, s.attributes);
                  }));
  for (const char* dom : {"input_button", "button"})
    add(entity_spec(dom, "press", "Press the button.", {}, [](Run& r, const StoredState& s, const json::object&) { r.set(s, iso_time(now_timestamp()), s.attributes); }));
  auto counter_set = [](Run& r, const StoredState& s, long v) {
    const auto* mx = s.attributes.if_contains("maximum");
    const auto* mn = s.attributes.if_contains("minimum");
    if (mx && mx->is_number() && v > saturate_cast<long>(num(*mx))) v = saturate_cast<long>(num(*mx));
    if (mn && mn->is_number() && v < saturate_cast<long>(num(*mn))) v = saturate_cast<long>(num(*mn));
    r.set(s, std::to_string(v), s.attributes);
  };
  add(entity_spec("counter", "increment", "Increments a counter by its step size.", {},
                  [counter_set](Run& r, const StoredState& s, const json::object&) { counter_set(r, s, saturate_cast<long>(numeric_state(s.state).value_or(0) + attr_num(s.attributes, "step", 1))); }));
  add(entity_spec("counter", "decrement", "Decrements a counter by its step size.", {},
                  [counter_set](Run& r, const StoredState& s, const json::object&) { counter_set(r, s, static_cast<long>(numeric_state(s.state).value_or(0) - attr_num(s.attributes, "step", 1))); }));
  add(entity_spec("counter", "reset", "Resets a counter to its initial value.", {},
                  [counter_set](Run& r, const StoredState& s, const json::object&) { counter_set(r, s, static_cast<long>(attr_num(s.attributes, "initial", 0))); }));
  add(entity_spec("counter", "set_value", "Sets the counter to a specific value.", {fint("value", 0, {}, "The new counter value the entity should be set to.", true)},
                  [counter_set](Run& r, const StoredState& s, const json::object& d) { counter_set(r, s, saturate_cast<long>(num(d.at("value")))); }));
  add(entity_spec("timer", "start", "Starts a timer or restarts it with a provided duration.", {fstr("duration", "Custom duration to restart the timer with.")},
                  [](Run& r, const StoredState& s, const json::object& d) {
                    json::object a = s.attributes;
                    std::string dur = d.contains("duration") ? std::string(d.at("duration").get_string()) : attr_str(a, "duration");
                    int h = 0, m = 0, sec = 0;
                    std::sscanf(dur.c_str(), "%d:%d:%d", &h, &m, &sec);
                    a["remaining"] = dur;
                    a["finishes_at"] = iso_time(now_timestamp() + h * 3600 + m * 60 + sec);
                    r.set(s, "active", std::move(a));
                  }));
  add(entity_spec("timer", "pause", "Pauses a running timer.", {}, [](Run& r, const StoredState& s, const json::object&) { json::object a = s.attributes; a.erase("finishes_at"); r.set(s, "paused", std::move(a)); }));
  for (const char* svc : {"cancel", "finish"})
    add(entity_spec("timer", svc, "Stops a timer.", {}, [this, svc](Run& r, const StoredState& s, const json::object&) {
      json::object a = s.attributes;
      a.erase("finishes_at");
      a.erase("remaining");
      r.set(s, "idle", std::move(a));
      store.fire(std::string("timer.") + (svc == std::string("finish") ? "finished" : "cancelled"), {{"entity_id", s.entity_id}}, r.ctx);
    }));
  for (const char* dom : {"input_number", "input_select", "input_text", "input_datetime", "input_button", "counter", "timer", "zone", "person"})
    add(plain_spec(dom, "reload", "Reloads from the YAML-configuration.", {}, [](Run&, const json::object&) { return std::nullopt; }));

  // update
  add(entity_spec("update", "install", "Installs an update for a device or service.", {fstr("version", "The version to install."), fbool("backup", "Backup before installing the update.")},
                  [](Run& r, const StoredState& s, const json::object&) { json::object a = s.attributes; a["installed_version"] = a["latest_version"]; r.set(s, "off", std::move(a)); }, 1));
  add(entity_spec("update", "skip", "Marks currently available update as skipped.", {},
                  [](Run& r, const StoredState& s, const json::object&) { json::object a = s.attributes; a["skipped_version"] = a["latest_version"]; r.set(s, "off", std::move(a)); }));
  add(entity_spec("update", "clear_skipped", "Removes the skipped version marker from an update.", {},
                  [](Run& r, const StoredState& s, const json::object&) { json::object a = s.attributes; a["skipped_version"] = nullptr; r.set(s, a["installed_version"] == a["latest_version"] ? "off" : "on", std::move(a)); }));

  // weather (response only)
  {
    Spec s = entity_spec("weather", "get_forecasts", "Get weather forecasts.", {fstr("type", "Forecast type: daily, hourly or twice daily.", true)},
                         [](Run&, const StoredState&, const json::object&) {});
    s.response = ResponseSupport::only;
    add(std::move(s));
  }

  // homeassistant.*: domain-agnostic turn_on/off/toggle
  for (const char* svc : {"turn_on", "turn_off", "toggle"}) {
    Spec s = plain_spec("homeassistant", svc, std::string("Generic action to ") + svc + " devices.", {}, nullptr);
    s.entity = true;
    s.on_call = [this, svc](Run& r, const json::object& d) -> std::optional<json::value> {
      std::map<std::string, std::vector<std::string>> by_domain;
      for (const auto& eid : string_list(d.at("entity_id"))) by_domain[std::string(domain_of(eid))].push_back(eid);
      for (auto& [dom, ids] : by_domain) {
        std::string service = svc;
        if (dom == "cover") service = svc == std::string("turn_on") ? "open_cover" : svc == std::string("turn_off") ? "close_cover" : "toggle";
        if (dom == "lock") service = svc == std::string("turn_on") ? "unlock" : "lock";
        if (!specs.count(dom) || !specs[dom].count(service)) continue;  // HA logs "not supported"
        json::array arr;
        for (auto& i : ids) arr.emplace_back(i);
        r.call(dom, service, {}, {{"entity_id", arr}});
      }
      return std::nullopt;
    };
    add(std::move(s));
  }
  add(entity_spec("homeassistant", "update_entity", "Forces one or more entities to update their data.", {}, [](Run&, const StoredState&, const json::object&) {}));
  for (const char* svc : {"reload_core_config", "reload_all", "check_config", "restart", "stop", "save_persistent_states", "reload_custom_templates"})
    add(plain_spec("homeassistant", svc, "Core maintenance action.", {}, [](Run&, const json::object&) { return std::nullopt; }));
  add(plain_spec("homeassistant", "set_location", "Updates the Home Assistant location.",
                 {ffloat("latitude", -90, 90, "Latitude of your location.", true), ffloat("longitude", -180, 180, "Longitude of your location.", true), ffloat("elevation", {}, {}, "Elevation of your location.")},
                 [this](Run&, const json::object& d) -> std::optional<json::value> {
                   store.home().config.latitude = num(d.at("latitude"));
                   store.home().config.longitude = num(d.at("longitude"));
                   return std::nullopt;
                 }));

  // notifications, logbook, system log
  add(plain_spec("persistent_notification", "create", "Shows a notification on the notifications panel.",
                 {fstr("message", "Message body of the notification.", true), fstr("title", "Optional title of the notification."), fstr("notification_id", "ID of the notification.")},
                 [this](Run& r, const json::object& d) -> std::optional<json::value> { store.fire("persistent_notifications_updated", {{"message", d.at("message")}}, r.ctx); return std::nullopt; }));
  add(plain_spec("persistent_notification", "dismiss", "Deletes a notification from the notifications panel.", {fstr("notification_id", "ID of the notification to be deleted.", true)},
                 [](Run&, const json::object&) { return std::nullopt; }));
  add(plain_spec("persistent_notification", "dismiss_all", "Deletes all notifications.", {}, [](Run&, const json::object&) { return std::nullopt; }));
  for (const char* svc : {"notify", "persistent_notification", "mobile_app_alex_s_iphone"})
    add(plain_spec("notify", svc, "Sends a notification message.",
                   {fstr("message", "Message body of the notification.", true), fstr("title", "Title of the notification."), fany("target", "Targets."), fany("data", "Extended information.")},
                   [](Run&, const json::object&) { return std::nullopt; }));
  add(plain_spec("logbook", "log", "Writes a custom entry to the logbook.",
                 {fstr("name", "Custom name for an entity, can be referenced using an `entity_id`.", true), fstr("message", "Message of the logbook entry.", true), fstr("entity_id", "Entity to reference in the logbook entry."), fstr("domain", "Determines which icon is used in the logbook entry.")},
                 [this](Run& r, const json::object& d) -> std::optional<json::value> {
                   LogbookEntry e;
                   e.when = now_timestamp();
                   e.name = std::string(d.at("name").get_string());
                   e.message = std::string(d.at("message").get_string());
                   if (auto* v = d.if_contains("entity_id")) e.entity_id = std::string(v->get_string());
                   if (auto* v = d.if_contains("domain")) e.domain = std::string(v->get_string());
                   e.context = r.ctx;
                   store.add_logbook(std::move(e));
                   return std::nullopt;
                 }));
  add(plain_spec("system_log", "write", "Write log entry.", {fstr("message", "Message to log.", true), fstr("level", "Log level."), fstr("logger", "Logger name under which to log the message.")},
                 [this](Run& r, const json::object& d) -> std::optional<json::value> { store.fire("system_log_event", {{"message", json::array{d.at("message")}}, {"level", d.contains("level") ? d.at("level") : json::value("error")}}, r.ctx); return std::nullopt; }));
  add(plain_spec("system_log", "clear", "Deletes all log entries.", {}, [](Run&, const json::object&) { return std::nullopt; }));
}

Services::Services(StateStore& store) : store_(store), impl_(std::make_shared<Impl>(store)) {
  impl_->build();
  refresh_script_services();
}

void Services::refresh_script_services() {
  std::lock_guard lock(store_.mutex());
  for (auto it = impl_->specs["script"].begin(); it != impl_->specs["script"].end();) {
    if (!it->second.entity && it->first != "reload") it = impl_->specs["script"].erase(it);
    else ++it;
  }
  for (const auto& [object, config] : store_.home().script_configs) {
    std::string eid = "script." + object;
    std::string alias = config.contains("alias") && config.at("alias").is_string() ? std::string(config.at("alias").get_string()) : object;
    impl_->add(plain_spec("script", object, alias, {},
                          [eid](Run& r, const json::object& d) -> std::optional<json::value> {
                            r.call("script", "turn_on", {}, {{"entity_id", eid}});
                            return std::nullopt;
                          }));
    impl_->specs["script"][object].fields.clear();
  }
}

bool Services::has(const std::string& domain, const std::string& service) const {
  std::lock_guard lock(store_.mutex());
  auto d = impl_->specs.find(domain);
  return d != impl_->specs.end() && d->second.count(service);
}

namespace {

json::object describe(const Spec& s) {
  json::object fields;
  for (const auto& f : s.fields) {
    json::object sel;
    switch (f.type) {
      case FT::Int:
      case FT::Float: {
        json::object n;
        if (f.min) n["min"] = *f.min;
        if (f.max) n["max"] = *f.max;
        if (f.type == FT::Float) n["step"] = 0.1;
        sel["number"] = n;
        break;
      }
      case FT::Bool: sel["boolean"] = json::object{}; break;
      case FT::Str: sel["text"] = json::object{}; break;
      case FT::Rgb: sel["color_rgb"] = json::object{}; break;
      case FT::Hs: sel["object"] = json::object{}; break;
      case FT::Any: sel["object"] = json::object{}; break;
    }
    json::object fo{{"description", f.description}, {"selector", sel}};
    if (f.required) fo["required"] = true;
    fields[f.name] = std::move(fo);
  }
  json::object o{{"name", s.name}, {"description", s.description}, {"fields", std::move(fields)}};
  if (s.entity) {
    json::object ent;
    if (s.domain != "homeassistant") ent["domain"] = json::array{s.domain.c_str()};
    if (s.required_features) ent["supported_features"] = json::array{s.required_features};
    o["target"] = json::object{{"entity", json::array{ent}}};
  }
  if (s.response != ResponseSupport::none) o["response"] = json::object{{"optional", s.response == ResponseSupport::optional}};
  return o;
}

}  // namespace

json::array Services::describe_rest() const {
  std::lock_guard lock(store_.mutex());
  json::array out;
  for (const auto& [domain, services] : impl_->specs) {
    json::object svcs;
    for (const auto& [name, spec] : services) svcs[name] = describe(spec);
    out.push_back(json::object{{"domain", domain}, {"services", std::move(svcs)}});
  }
  return out;
}

json::object Services::describe_ws() const {
  std::lock_guard lock(store_.mutex());
  json::object out;
  for (const auto& [domain, services] : impl_->specs) {
    json::object svcs;
    for (const auto& [name, spec] : services) svcs[name] = describe(spec);
    out[domain] = std::move(svcs);
  }
  return out;
}

std::vector<std::string> Services::expand_target(const json::object& target) const {
  std::lock_guard lock(store_.mutex());
  const Home& home = store_.home();
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto push = [&](const std::string& id) {
    if (seen.insert(id).second) out.push_back(id);
  };
  if (auto* v = target.if_contains("entity_id"))
    for (auto& id : string_list(*v)) push(id);

  std::set<std::string> areas, devices, labels;
  if (auto* v = target.if_contains("area_id"))
    for (auto& id : string_list(*v)) areas.insert(id);
  if (auto* v = target.if_contains("device_id"))
    for (auto& id : string_list(*v)) devices.insert(id);
  if (auto* v = target.if_contains("label_id"))
    for (auto& id : string_list(*v)) labels.insert(id);
  if (auto* v = target.if_contains("floor_id")) {
    auto floors = string_list(*v);
    for (const auto& a : home.areas)
      if (a.floor_id && std::find(floors.begin(), floors.end(), *a.floor_id) != floors.end()) areas.insert(a.area_id);
  }
  if (!labels.empty()) {
    for (const auto& a : home.areas)
      for (const auto& l : a.labels)
        if (labels.count(l)) areas.insert(a.area_id);
    for (const auto& d : home.devices)
      for (const auto& l : d.labels)
        if (labels.count(l)) devices.insert(d.id);
    for (const auto& e : home.entities)
      for (const auto& l : e.labels)
        if (labels.count(l)) push(e.entity_id);
  }
  if (areas.empty() && devices.empty()) return out;
  std::unordered_map<std::string, const Device*> device_by_id;
  for (const auto& d : home.devices) {
    device_by_id[d.id] = &d;
    if (d.area_id && areas.count(*d.area_id)) devices.insert(d.id);
  }
  for (const auto& e : home.entities) {
    if (e.entity_category || e.hidden_by) continue;  // HA skips these when expanding areas/devices
    bool hit = false;
    if (e.area_id) hit = areas.count(*e.area_id) > 0;
    else if (e.device_id) {
      auto it = device_by_id.find(*e.device_id);
      hit = it != device_by_id.end() && it->second->area_id && areas.count(*it->second->area_id);
    }
    if (!hit && e.device_id && devices.count(*e.device_id)) {
      // a device's entity that was moved to another area does not follow the device's area
      auto it = device_by_id.find(*e.device_id);
      bool via_area = it != device_by_id.end() && it->second->area_id && areas.count(*it->second->area_id);
      hit = !(via_area && e.area_id) ;
    }
    if (hit) push(e.entity_id);
  }
  return out;
}

namespace {

// voluptuous-like validation; returns the coerced data.
json::object validate(const Spec& spec, const json::object& data) {
  json::object out;
  for (const auto& kv : data) {
    std::string key(kv.key());
    if (spec.entity && kTargetKeys.count(key)) {
      out[key] = kv.value();
      continue;
    }
    auto f = std::find_if(spec.fields.begin(), spec.fields.end(), [&](const Field& x) { return x.name == key; });
    if (f == spec.fields.end()) throw invalid("extra keys not allowed @ data['" + key + "']");
    const json::value& v = kv.value();
    std::string where = " for dictionary value @ data['" + key + "']";
    switch (f->type) {
      case FT::Int:
      case FT::Float: {
        double x = 0;
        if (v.is_number()) x = num(v);
        else if (v.is_string()) {
          auto parsed = numeric_state(v.get_string());
          if (!parsed) throw invalid(std::string("expected ") + (f->type == FT::Int ? "int" : "float") + where);
          x = *parsed;
        } else {
          throw invalid(std::string("expected ") + (f->type == FT::Int ? "int" : "float") + where);
        }
        if (f->type == FT::Int) x = std::trunc(x);
        if (f->min && x < *f->min) throw invalid("value must be at least " + fmt_num(*f->min).substr(0, fmt_num(*f->min).find(".0")) + where);
        if (f->max && x > *f->max) throw invalid("value must be at most " + fmt_num(*f->max).substr(0, fmt_num(*f->max).find(".0")) + where);
        if (f->type == FT::Int) out[key] = static_cast<int64_t>(x);
        else out[key] = x;
        break;
      }
      case FT::Bool:
        if (v.is_bool()) out[key] = v;
        else if (v.is_string() && (v.get_string() == "true" || v.get_string() == "on" || v.get_string() == "yes")) out[key] = true;
        else if (v.is_string() && (v.get_string() == "false" || v.get_string() == "off" || v.get_string() == "no")) out[key] = false;
        else throw invalid("expected bool" + where);
        break;
      case FT::Str:
        if (v.is_string()) out[key] = v;
        else if (v.is_number()) out[key] = to_json(v);
        else throw invalid("expected str" + where);
        break;
      case FT::Rgb: {
        if (!v.is_array() || v.get_array().size() != 3) throw invalid("value should be a list of 3 integers 0..255" + where);
        for (const auto& c : v.get_array())
          if (!c.is_number() || num(c) < 0 || num(c) > 255) throw invalid("value must be at most 255" + where);
        out[key] = v;
        break;
      }
      case FT::Hs: {
        if (!v.is_array() || v.get_array().size() != 2 || !v.get_array()[0].is_number() || !v.get_array()[1].is_number())
          throw invalid("expected a list of [hue, saturation]" + where);
        out[key] = v;
        break;
      }
      case FT::Any: out[key] = v; break;
    }
  }
  for (const auto& f : spec.fields)
    if (f.required && !out.contains(f.name)) throw invalid("required key not provided @ data['" + f.name + "']");
  return out;
}

json::value forecasts(const StoredState& s, const std::string& type) {
  json::array list;
  double base = attr_num(s.attributes, "temperature", 10);
  const char* conditions[] = {"partlycloudy", "rainy", "sunny", "cloudy", "pouring", "sunny", "partlycloudy"};
  bool hourly = type == "hourly";
  Timestamp start = std::floor(now_timestamp() / 3600.0) * 3600.0;
  for (int i = 0; i < (hourly ? 24 : 7); ++i) {
    json::object f{{"condition", conditions[i % 7]},
                   {"datetime", iso_time(start + (hourly ? 3600.0 : 86400.0) * (i + 1))},
                   {"temperature", round_to(base + std::sin(i) * 3, 1)},
                   {"precipitation", (i % 3 == 1) ? 2.4 : 0.0},
                   {"wind_bearing", 225.0 + i * 5},
                   {"wind_speed", 14.0 + i},
                   {"humidity", 70 + i % 10}};
    if (!hourly) f["templow"] = round_to(base - 4 + std::cos(i), 1);
    list.push_back(std::move(f));
  }
  return json::object{{"forecast", std::move(list)}};
}

}  // namespace

ServiceOutcome Services::call(const ServiceCall& call) {
  std::lock_guard lock(store_.mutex());
  auto d = impl_->specs.find(call.domain);
  if (d == impl_->specs.end() || !d->second.count(call.service)) {
    ServiceError e{"not_found", "Service " + call.domain + "." + call.service + " not found.", "service_not_found", {}};
    e.translation_placeholders = {{"domain", call.domain}, {"service", call.service}};
    throw e;
  }
  const Spec& spec = d->second.at(call.service);
  if (spec.response == ResponseSupport::only && !call.return_response)
    throw ServiceError{"service_validation_error", "The action requires responses and must be called with return_response=True",
                       "service_lacks_response_request", {}};
  if (spec.response == ResponseSupport::none && call.return_response)
    throw ServiceError{"service_validation_error",
                       "An action which does not return responses can't be called with return_response=True",
                       "service_does_not_support_response", {}};

  json::object data = validate(spec, call.data);
  Run run{*impl_, *this, call.context, {}};
  store_.fire("call_service", {{"domain", call.domain}, {"service", call.service}, {"service_data", call.data}}, call.context);

  ServiceOutcome out;
  if (!spec.entity) {
    auto response = spec.on_call(run, data);
    if (call.return_response) out.response = response ? *response : json::value(json::object{});
    out.changed = std::move(run.changed);
    return out;
  }

  // Entity services: the target plus legacy target keys in data.
  json::object target = call.target;
  for (const auto& key : kTargetKeys)
    if (auto* v = data.if_contains(key)) {
      if (auto* existing = target.if_contains(key)) {
        json::array merged;
        for (auto& x : string_list(*existing)) merged.emplace_back(x);
        for (auto& x : string_list(*v)) merged.emplace_back(x);
        target[key] = std::move(merged);
      } else {
        target[key] = *v;
      }
      data.erase(key);
    }
  bool all = false;
  std::set<std::string> explicit_ids;
  if (auto* v = target.if_contains("entity_id")) {
    for (auto& id : string_list(*v)) {
      if (id == "all" || id == "*") all = true;
      else explicit_ids.insert(id);
    }
    if (!all) {
      for (const auto& id : explicit_ids)
        if (id.find('.') == std::string::npos || id.find(' ') != std::string::npos)
          throw invalid("Entity ID " + id + " is an invalid entity ID for dictionary value @ data['entity_id']");
    } else {
      target.erase("entity_id");
    }
  }
  std::vector<std::string> ids = expand_target(target);
  if (all) {
    ids.clear();
    for (const auto& st : store_.all())
      if (call.domain == "homeassistant" || domain_of(st->entity_id) == call.domain) ids.push_back(st->entity_id);
  }

  if (call.domain == "homeassistant" && spec.on_call) {
    json::array arr;
    for (auto& id : ids) arr.emplace_back(id);
    data["entity_id"] = std::move(arr);
    spec.on_call(run, data);
    out.changed = std::move(run.changed);
    if (call.return_response) out.response = json::object{};
    return out;
  }

  json::object responses;
  for (const auto& id : ids) {
    if (call.domain != "homeassistant" && domain_of(id) != call.domain) continue;  // targets of other domains are ignored
    StatePtr st = store_.get(id);
    if (!st) continue;  // HA logs "Referenced entities … are missing or not currently available"
    if (spec.required_features && (features(*st) & spec.required_features) == 0) {
      if (explicit_ids.count(id))
        throw ServiceError{"service_validation_error",
                           "Entity " + id + " does not support action " + call.domain + "." + call.service,
                           "entity_service_not_supported", {}};
      continue;
    }
    if (st->state == "unavailable") continue;
    if (call.domain == "weather" && call.service == "get_forecasts") {
      responses[id] = forecasts(*st, std::string(data.at("type").get_string()));
      continue;
    }
    spec.on_entity(run, *st, data);
  }
  out.changed = std::move(run.changed);
  if (call.return_response) out.response = std::move(responses);
  return out;
}

}  // namespace hamcp::sim
