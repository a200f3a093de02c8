#pragma once
// Internal to the simulated actions (core/services*.cpp): how an action is
// described (fields, features, response support) and run (Run: the call in
// progress, its context and changed states), and the helpers every action family
// shares. Each family registers its actions in its own services_<family>.cpp.

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/saturate_cast.hpp"
#include "sim/core/json_writer.hpp"
#include "sim/core/services.hpp"
#include "sim/core/traces.hpp"

namespace hamcp::sim {
namespace svc {

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
  bool entity = true;  // has a target; handler runs per entity
  ResponseSupport response = ResponseSupport::none;
  int required_features = 0;  // entity must have these supported_features bits
  EntityHandler on_entity;
  PlainHandler on_call;
};

inline ServiceError invalid(std::string message) { return ServiceError{"invalid_format", std::move(message), {}, {}}; }
inline ServiceError validation(std::string message, std::string key = {}) {
  ServiceError e{"service_validation_error", std::move(message), {}, {}};
  if (!key.empty()) e.translation_key = std::move(key);
  return e;
}

inline std::string fmt_num(double v) {
  char buf[32];
  if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

inline double num(const json::value& v) {
  return v.is_double() ? v.get_double() : static_cast<double>(v.to_number<double>());
}
inline double attr_num(const json::object& a, std::string_view k, double fallback) {
  const json::value* v = a.if_contains(k);
  return v && v->is_number() ? num(*v) : fallback;
}
inline std::string attr_str(const json::object& a, std::string_view k) {
  const json::value* v = a.if_contains(k);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}
inline int features(const StoredState& s) {
  return saturate_cast<int>(attr_num(s.attributes, "supported_features", 0));
}

inline std::vector<std::string> string_list(const json::value& v) {
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
  if (v.is_string())
    add(v.get_string());
  else if (v.is_array())
    for (const auto& x : v.get_array())
      if (x.is_string()) add(x.get_string());
  return out;
}

}  // namespace svc

struct Services::Impl {
  StateStore& store;
  std::map<std::string, std::map<std::string, svc::Spec>> specs;
  int depth = 0;
  explicit Impl(StateStore& s) : store(s) {}
  void add(svc::Spec s) { specs[s.domain][s.name] = std::move(s); }
  void build();
};

namespace svc {

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
  // Runs the actions in order; with `trace`, records each as "<prefix>/<i>".
  // Returns "finished", or "error" when an action failed (the rest is skipped).
  std::string run_sequence(const json::value& sequence, TraceRecorder* trace = nullptr,
                           const std::string& prefix = "action");
};

inline Field fint(std::string n, std::optional<double> lo, std::optional<double> hi, std::string d, bool req = false) {
  return Field{std::move(n), FT::Int, lo, hi, req, std::move(d)};
}
inline Field ffloat(std::string n, std::optional<double> lo, std::optional<double> hi, std::string d,
                    bool req = false) {
  return Field{std::move(n), FT::Float, lo, hi, req, std::move(d)};
}
inline Field fstr(std::string n, std::string d, bool req = false) {
  return Field{std::move(n), FT::Str, {}, {}, req, std::move(d)};
}
inline Field fbool(std::string n, std::string d, bool req = false) {
  return Field{std::move(n), FT::Bool, {}, {}, req, std::move(d)};
}
inline Field fany(std::string n, std::string d, bool req = false) {
  return Field{std::move(n), FT::Any, {}, {}, req, std::move(d)};
}

inline Spec entity_spec(std::string domain, std::string name, std::string description, std::vector<Field> fields,
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

inline Spec plain_spec(std::string domain, std::string name, std::string description, std::vector<Field> fields,
                       PlainHandler h, ResponseSupport response = ResponseSupport::none) {
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

// Shared by several families.
inline void simple_on(Run& r, const StoredState& s, const json::object&) { r.set(s, "on", s.attributes); }
inline void simple_off(Run& r, const StoredState& s, const json::object&) { r.set(s, "off", s.attributes); }
// HA's error for an option an entity does not list (select options, modes, sources…).
inline void check_option(const StoredState& s, const std::string& option, const char* list_key) {
  const auto* opts = s.attributes.if_contains(list_key);
  if (opts && opts->is_array())
    for (const auto& o : opts->get_array())
      if (o.is_string() && o.get_string() == option) return;
  std::string all;
  if (opts && opts->is_array())
    for (const auto& o : opts->get_array())
      all += (all.empty() ? "" : ", ") + std::string(o.is_string() ? o.get_string() : "");
  throw validation("Invalid option: " + option + " (possible options: " + all + ")", "invalid_option");
}

// The action families (services_<family>.cpp).
void add_lighting_services(Services::Impl& impl);    // light, switch, input_boolean, fan
void add_automation_services(Services::Impl& impl);  // automation, script, scene
void add_device_services(Services::Impl& impl);      // cover, lock, climate, media_player, vacuum, weather
void add_update_services(Services::Impl& impl);      // update.install (progress), skip, clear_skipped
void add_helper_services(Services::Impl& impl);      // input_*, select, number, button, counter, timer
void add_system_services(Services::Impl& impl);      // homeassistant, notifications, logbook, system_log
void add_admin_services(Services::Impl& impl);       // logger, homeassistant.restart/check_config/reload_config_entry
void add_group_services(Services::Impl& impl);       // group.set, group.remove (old-style groups)
void add_todo_services(Services::Impl& impl);        // todo.add_item, update_item, remove_item
void add_zha_services(Services::Impl& impl);         // zha.set_zigbee_cluster_attribute, issue_zigbee_cluster_command

}  // namespace svc
}  // namespace hamcp::sim
