// Helpers, automations, scripts and scenes of a simulated home: each is an
// entity (HomeBuilder::add_entity) plus, for the editable ones, its stored
// configuration.
#include <cstdio>

#include "sim/core/time_util.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

namespace {

std::string helper(HomeBuilder& b, const std::string& domain, std::string name, std::string state, json::object attrs,
                   std::string icon = {}) {
  attrs["editable"] = true;
  EntitySpec s;
  s.domain = domain;
  s.object_id = slugify(name);
  s.original_name = std::move(name);
  s.state = std::move(state);
  if (!icon.empty()) attrs["icon"] = icon;
  s.attributes = std::move(attrs);
  return b.add_entity(std::move(s));
}

std::string fmt_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

std::string add_input_boolean(HomeBuilder& b, std::string name, bool on, std::string icon) {
  return helper(b, "input_boolean", std::move(name), on ? "on" : "off", {}, std::move(icon));
}

std::string add_input_number(HomeBuilder& b, std::string name, double min, double max, double step, double value,
                             std::string unit, std::string icon) {
  json::object a{{"initial", nullptr}, {"min", min}, {"max", max}, {"step", step}, {"mode", "slider"}};
  if (!unit.empty()) a["unit_of_measurement"] = unit;
  return helper(b, "input_number", std::move(name), fmt_number(value), std::move(a), std::move(icon));
}

std::string add_input_select(HomeBuilder& b, std::string name, std::vector<std::string> options, std::string value,
                             std::string icon) {
  json::array opts;
  for (auto& o : options) opts.emplace_back(o);
  return helper(b, "input_select", std::move(name), std::move(value), {{"options", std::move(opts)}}, std::move(icon));
}

std::string add_input_text(HomeBuilder& b, std::string name, std::string value) {
  return helper(b, "input_text", std::move(name), std::move(value),
                {{"initial", nullptr}, {"min", 0}, {"max", 100}, {"pattern", nullptr}, {"mode", "text"}});
}

std::string add_input_datetime(HomeBuilder& b, std::string name, bool has_date, bool has_time) {
  json::object a{{"has_date", has_date}, {"has_time", has_time}};
  std::string state;
  if (has_date) {
    a["year"] = 2026;
    a["month"] = 1;
    a["day"] = 2;
    state = "2026-01-02";
  }
  if (has_time) {
    a["hour"] = 6;
    a["minute"] = 30;
    a["second"] = 0;
    state += (state.empty() ? "" : " ") + std::string("06:30:00");
  }
  a["timestamp"] = has_date ? 1767335400.0 : 23400.0;
  return helper(b, "input_datetime", std::move(name), std::move(state), std::move(a));
}

std::string add_input_button(HomeBuilder& b, std::string name, std::string icon) {
  return helper(b, "input_button", std::move(name), "unknown", {}, std::move(icon));
}

std::string add_counter(HomeBuilder& b, std::string name, int value, int step) {
  return helper(b, "counter", std::move(name), std::to_string(value),
                {{"initial", 0}, {"step", step}, {"minimum", nullptr}, {"maximum", nullptr}});
}

std::string add_timer(HomeBuilder& b, std::string name, std::string duration) {
  return helper(b, "timer", std::move(name), "idle", {{"duration", duration}}, "mdi:timer-outline");
}

std::string add_automation(HomeBuilder& b, std::string alias, std::string description, json::array triggers,
                           json::array actions, bool on, std::optional<std::string> category_id,
                           std::vector<std::string> labels) {
  std::string id = std::to_string(1700000000000ull + b.rng().below(99999999999ull));
  json::object config{{"id", id},
                      {"alias", alias},
                      {"description", description},
                      {"triggers", triggers},
                      {"conditions", json::array{}},
                      {"actions", actions},
                      {"mode", "single"}};
  b.home().automation_configs[id] = config;
  EntitySpec s;
  s.domain = "automation";
  s.object_id = slugify(alias);
  s.original_name = alias;
  s.state = on ? "on" : "off";
  bool ran = b.rng().chance(0.7);
  s.attributes = {{"id", id},
                  {"last_triggered",
                   ran ? json::value(iso_time(kHomeEpoch - b.rng().uniform(600, 86400 * 3))) : json::value(nullptr)},
                  {"mode", "single"},
                  {"current", 0}};
  s.labels = std::move(labels);
  std::string eid = b.add_entity(std::move(s));
  auto& reg = b.home().entities.back();
  reg.unique_id = id;
  if (category_id) reg.categories["automation"] = *category_id;
  return eid;
}

std::string add_script(HomeBuilder& b, std::string alias, std::string icon, json::array sequence,
                       std::optional<std::string> category_id) {
  std::string object = slugify(alias);
  b.home().script_configs[object] = {{"alias", alias}, {"sequence", sequence}, {"mode", "single"}, {"icon", icon}};
  EntitySpec s;
  s.domain = "script";
  s.object_id = object;
  s.original_name = alias;
  s.state = "off";
  s.attributes = {{"last_triggered", nullptr}, {"mode", "single"}, {"current", 0}, {"icon", icon}};
  std::string eid = b.add_entity(std::move(s));
  auto& reg = b.home().entities.back();
  reg.unique_id = object;
  if (category_id) reg.categories["script"] = *category_id;
  return eid;
}

std::string add_scene(HomeBuilder& b, std::string name, json::object entities, std::string icon) {
  std::string id = std::to_string(1710000000000ull + b.rng().below(99999999999ull));
  json::array ids;
  for (auto& kv : entities) ids.emplace_back(kv.key());
  b.home().scene_configs[id] = {{"id", id}, {"name", name}, {"entities", entities}, {"icon", icon}};
  EntitySpec s;
  s.domain = "scene";
  s.object_id = slugify(name);
  s.original_name = name;
  s.state = "unknown";
  s.attributes = {{"entity_id", ids}, {"id", id}, {"icon", icon}};
  s.platform = "homeassistant";
  std::string eid = b.add_entity(std::move(s));
  b.home().entities.back().unique_id = id;
  return eid;
}

}  // namespace hamcp::sim
