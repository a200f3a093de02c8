#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <unordered_set>

#include "common/saturate_cast.hpp"
#include "sim/core/domain_logic.hpp"
#include "sim/core/json_writer.hpp"
#include "sim/core/service_spec.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim {
namespace svc {

std::string Run::run_sequence(const json::value& sequence, TraceRecorder* trace, const std::string& prefix) {
  if (!sequence.is_array()) return "finished";
  const json::array& steps = sequence.get_array();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string path = prefix + "/" + std::to_string(i);
    if (!steps[i].is_object()) continue;
    const auto& o = steps[i].get_object();
    const json::value* action = o.if_contains("action");
    if (!action) action = o.if_contains("service");
    if (!action || !action->is_string()) {  // delays, conditions… take no time here
      if (trace) trace->step(path, {});
      continue;
    }
    std::string full(action->get_string());
    auto dot = full.find('.');
    if (dot == std::string::npos) continue;
    json::object data = o.contains("data") && o.at("data").is_object() ? o.at("data").get_object() : json::object{};
    json::object target =
        o.contains("target") && o.at("target").is_object() ? o.at("target").get_object() : json::object{};
    json::object params{
        {"domain", full.substr(0, dot)}, {"service", full.substr(dot + 1)}, {"service_data", data}, {"target", target}};
    try {
      call(full.substr(0, dot), full.substr(dot + 1), std::move(data), std::move(target));
      if (trace) trace->step(path, json::object{{"params", std::move(params)}, {"running_script", false}});
    } catch (const ServiceError& e) {
      // HA stops a script on an error; the caller of script.turn_on does not see it.
      if (trace) trace->step(path, json::object{{"params", std::move(params)}, {"running_script", false}}, e.message);
      return "error";
    }
  }
  return "finished";
}

}  // namespace svc

void Services::Impl::build() {
  svc::add_lighting_services(*this);
  svc::add_automation_services(*this);
  svc::add_device_services(*this);
  svc::add_update_services(*this);
  svc::add_helper_services(*this);
  svc::add_system_services(*this);
  svc::add_group_services(*this);
  svc::add_todo_services(*this);
  svc::add_zha_services(*this);
}

using namespace svc;

namespace {
const std::set<std::string> kTargetKeys = {"entity_id", "device_id", "area_id", "floor_id", "label_id"};
}  // namespace

Services::Services(StateStore& store) : store_(store), impl_(std::make_shared<Impl>(store)) {
  impl_->build();
  refresh_script_services();
}

void Services::refresh_script_services() {
  std::lock_guard lock(store_.mutex());
  for (auto it = impl_->specs["script"].begin(); it != impl_->specs["script"].end();) {
    if (!it->second.entity && it->first != "reload")
      it = impl_->specs["script"].erase(it);
    else
      ++it;
  }
  for (const auto& [object, config] : store_.home().script_configs) {
    std::string eid = "script." + object;
    std::string alias = config.contains("alias") && config.at("alias").is_string()
                            ? std::string(config.at("alias").get_string())
                            : object;
    impl_->add(
        plain_spec("script", object, alias, {}, [eid](Run& r, const json::object& d) -> std::optional<json::value> {
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
    if (e.area_id)
      hit = areas.count(*e.area_id) > 0;
    else if (e.device_id) {
      auto it = device_by_id.find(*e.device_id);
      hit = it != device_by_id.end() && it->second->area_id && areas.count(*it->second->area_id);
    }
    if (!hit && e.device_id && devices.count(*e.device_id)) {
      // a device's entity that was moved to another area does not follow the device's area
      auto it = device_by_id.find(*e.device_id);
      bool via_area = it != device_by_id.end() && it->second->area_id && areas.count(*it->second->area_id);
      hit = !(via_area && e.area_id);
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
    if (f == spec.fields.end())  // a field named "*" takes any key (logger.set_level: {<logger>: level})
      f = std::find_if(spec.fields.begin(), spec.fields.end(), [](const Field& x) { return x.name == "*"; });
    if (f == spec.fields.end()) throw invalid("extra keys not allowed @ data['" + key + "']");
    const json::value& v = kv.value();
    std::string where = " for dictionary value @ data['" + key + "']";
    switch (f->type) {
      case FT::Int:
      case FT::Float: {
        double x = 0;
        if (v.is_number())
          x = num(v);
        else if (v.is_string()) {
          auto parsed = numeric_state(v.get_string());
          if (!parsed) throw invalid(std::string("expected ") + (f->type == FT::Int ? "int" : "float") + where);
          x = *parsed;
        } else {
          throw invalid(std::string("expected ") + (f->type == FT::Int ? "int" : "float") + where);
        }
        if (f->type == FT::Int) x = std::trunc(x);
        if (f->min && x < *f->min)
          throw invalid("value must be at least " + fmt_num(*f->min).substr(0, fmt_num(*f->min).find(".0")) + where);
        if (f->max && x > *f->max)
          throw invalid("value must be at most " + fmt_num(*f->max).substr(0, fmt_num(*f->max).find(".0")) + where);
        if (f->type == FT::Int)
          out[key] = static_cast<int64_t>(x);
        else
          out[key] = x;
        break;
      }
      case FT::Bool:
        if (v.is_bool())
          out[key] = v;
        else if (v.is_string() && (v.get_string() == "true" || v.get_string() == "on" || v.get_string() == "yes"))
          out[key] = true;
        else if (v.is_string() && (v.get_string() == "false" || v.get_string() == "off" || v.get_string() == "no"))
          out[key] = false;
        else
          throw invalid("expected bool" + where);
        break;
      case FT::Str:
        if (v.is_string())
          out[key] = v;
        else if (v.is_number())
          out[key] = to_json(v);
        else
          throw invalid("expected str" + where);
        break;
      case FT::Rgb: {
        if (!v.is_array() || v.get_array().size() != 3)
          throw invalid("value should be a list of 3 integers 0..255" + where);
        for (const auto& c : v.get_array())
          if (!c.is_number() || num(c) < 0 || num(c) > 255) throw invalid("value must be at most 255" + where);
        out[key] = v;
        break;
      }
      case FT::Hs: {
        if (!v.is_array() || v.get_array().size() != 2 || !v.get_array()[0].is_number() ||
            !v.get_array()[1].is_number())
          throw invalid("expected a list of [hue, saturation]" + where);
        out[key] = v;
        break;
      }
      case FT::Any:
        out[key] = v;
        break;
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

namespace {

// The spec of the called action, after HA's checks of its name and of return_response.
const Spec& checked_spec(const std::map<std::string, std::map<std::string, Spec>>& specs, const ServiceCall& call) {
  auto d = specs.find(call.domain);
  if (d == specs.end() || !d->second.count(call.service)) {
    ServiceError e{"not_found", "Service " + call.domain + "." + call.service + " not found.", "service_not_found", {}};
    e.translation_placeholders = {{"domain", call.domain}, {"service", call.service}};
    throw e;
  }
  const Spec& spec = d->second.at(call.service);
  if (spec.response == ResponseSupport::only && !call.return_response)
    throw ServiceError{"service_validation_error",
                       "The action requires responses and must be called with return_response=True",
                       "service_lacks_response_request",
                       {}};
  if (spec.response == ResponseSupport::none && call.return_response)
    throw ServiceError{"service_validation_error",
                       "An action which does not return responses can't be called with return_response=True",
                       "service_does_not_support_response",
                       {}};
  return spec;
}

// The call's target plus the legacy target keys inside the data (moved out of it).
json::object merged_target(json::object target, json::object& data) {
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
  return target;
}

// The entity ids named in target.entity_id; "all"/"*" sets `all` (and is
// removed from the target). Malformed ids throw HA's invalid_format error.
std::set<std::string> explicit_entity_ids(json::object& target, bool& all) {
  all = false;
  std::set<std::string> ids;
  auto* v = target.if_contains("entity_id");
  if (!v) return ids;
  for (auto& id : string_list(*v)) {
    if (id == "all" || id == "*")
      all = true;
    else
      ids.insert(id);
  }
  if (all) {
    target.erase("entity_id");
    return ids;
  }
  for (const auto& id : ids)
    if (id.find('.') == std::string::npos || id.find(' ') != std::string::npos)
      throw invalid("Entity ID " + id + " is an invalid entity ID for dictionary value @ data['entity_id']");
  return ids;
}

}  // namespace

ServiceOutcome Services::call(const ServiceCall& call) {
  std::lock_guard lock(store_.mutex());
  const Spec& spec = checked_spec(impl_->specs, call);
  json::object data = validate(spec, call.data);
  Run run{*impl_, *this, call.context, {}};
  store_.fire("call_service", {{"domain", call.domain}, {"service", call.service}, {"service_data", call.data}},
              call.context);

  ServiceOutcome out;
  if (!spec.entity) {
    auto response = spec.on_call(run, data);
    if (call.return_response) out.response = response ? *response : json::value(json::object{});
    out.changed = std::move(run.changed);
    return out;
  }
  json::object target = merged_target(call.target, data);
  bool all = false;
  const std::set<std::string> explicit_ids = explicit_entity_ids(target, all);
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
  json::object responses = run_on_entities(spec, call, ids, explicit_ids, data, run);
  out.changed = std::move(run.changed);
  if (call.return_response) out.response = std::move(responses);
  return out;
}

json::object Services::run_on_entities(const svc::Spec& spec, const ServiceCall& call,
                                       const std::vector<std::string>& ids, const std::set<std::string>& explicit_ids,
                                       const json::object& data, svc::Run& run) {
  json::object responses;
  for (const auto& id : ids) {
    if (call.domain != "homeassistant" && domain_of(id) != call.domain)
      continue;  // targets of other domains are ignored
    StatePtr st = store_.get(id);
    if (!st) continue;  // HA logs "Referenced entities … are missing or not currently available"
    if (spec.required_features && (features(*st) & spec.required_features) == 0) {
      if (explicit_ids.count(id))
        throw ServiceError{"service_validation_error",
                           "Entity " + id + " does not support action " + call.domain + "." + call.service,
                           "entity_service_not_supported",
                           {}};
      continue;
    }
    if (st->state == "unavailable") continue;
    if (call.domain == "weather" && call.service == "get_forecasts") {
      responses[id] = forecasts(*st, std::string(data.at("type").get_string()));
      continue;
    }
    spec.on_entity(run, *st, data);
  }
  return responses;
}

}  // namespace hamcp::sim
