// A flow answer checked against its step's data_schema, as voluptuous does for
// HA's selectors: defaults filled, unknown keys and missing required fields
// named, values of the wrong shape named with HA's message.
#include <algorithm>
#include <cctype>

#include "sim/flows/flow_engine.hpp"

namespace hamcp::sim::flows {

namespace {

bool entity_id_format(std::string_view v) {
  const auto dot = v.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == v.size()) return false;
  for (char ch : v)
    if (!(std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '_' ||
          ch == '.'))
      return false;
  return v.find('.', dot + 1) == std::string_view::npos;
}

// The domains an entity selector's filter allows ({} = any).
std::vector<std::string> allowed_domains(const json::object& config) {
  std::vector<std::string> out;
  const json::value* filter = config.if_contains("filter");
  if (!filter || !filter->is_array()) return out;
  for (const auto& f : filter->get_array()) {
    const json::value* d = f.is_object() ? f.as_object().if_contains("domain") : nullptr;
    if (d && d->is_string()) out.emplace_back(d->get_string());
    if (d && d->is_array())
      for (const auto& x : d->get_array()) out.emplace_back(x.as_string());
  }
  return out;
}

std::string check_entity(const json::value& v, bool multiple, const std::vector<std::string>& domains) {
  if (multiple && v.is_array()) {
    for (const auto& item : v.get_array())
      if (std::string e = check_entity(item, false, domains); !e.empty()) return e;
    return {};
  }
  if (!v.is_string()) return "expected str";
  const std::string id(v.get_string());
  if (!entity_id_format(id)) return "Entity " + id + " is neither a valid entity ID nor a valid UUID";
  const std::string domain = id.substr(0, id.find('.'));
  if (domains.empty() || std::find(domains.begin(), domains.end(), domain) != domains.end()) return {};
  std::string expected;
  for (const auto& d : domains) expected += (expected.empty() ? "'" : ", '") + d + "'";
  return "Entity " + id + " belongs to domain " + domain + ", expected [" + expected + "]";
}

std::string check_number(const json::value& v, const json::object& config) {
  if (!v.is_number()) return "expected float";
  const double x = v.to_number<double>();
  if (const auto* lo = config.if_contains("min"); lo && lo->is_number() && x < lo->to_number<double>())
    return "value must be at least " + json::serialize(*lo);
  if (const auto* hi = config.if_contains("max"); hi && hi->is_number() && x > hi->to_number<double>())
    return "value must be at most " + json::serialize(*hi);
  return {};
}

std::string check_select(const json::value& v, const json::object& config) {
  if (config.contains("custom_value") && config.at("custom_value") == true) return v.is_string() ? "" : "expected str";
  const auto* options = config.if_contains("options");
  if (!options || !options->is_array()) return {};
  std::vector<std::string> values;
  for (const auto& o : options->get_array())
    if (o.is_string())
      values.emplace_back(o.get_string());
    else if (o.is_object() && o.as_object().contains("value"))
      values.emplace_back(o.at("value").as_string());
  auto one = [&](const json::value& x) {
    for (const auto& val : values)
      if (x.is_string() && x.get_string() == val) return std::string();
    std::string all;
    for (const auto& val : values) all += (all.empty() ? "" : ", ") + val;
    return "value must be one of [" + all + "]";
  };
  if (config.contains("multiple") && config.at("multiple") == true && v.is_array()) {
    for (const auto& x : v.get_array())
      if (std::string e = one(x); !e.empty()) return e;
    return {};
  }
  return one(v);
}

// HA's message for a value the field's selector refuses ("" = fine).
std::string check_value(const json::object& field, const json::value& v) {
  const auto* selector = field.if_contains("selector");
  if (!selector || !selector->is_object() || selector->as_object().empty()) return {};
  const auto& [type, config_value] = *selector->as_object().begin();
  const json::object empty;
  const json::object& config = config_value.is_object() ? config_value.as_object() : empty;
  const bool multiple = config.contains("multiple") && config.at("multiple") == true;
  if (type == "entity") return check_entity(v, multiple, allowed_domains(config));
  if (type == "number") return check_number(v, config);
  if (type == "boolean") return v.is_bool() ? "" : "expected bool";
  if (type == "select") return check_select(v, config);
  if (type == "duration") return v.is_object() ? "" : "expected a dictionary";
  return v.is_string() ? "" : "expected str";  // text, template, icon, device
}

}  // namespace

json::object check_answer(const json::array& schema, json::object& answer) {
  json::object errors;
  for (const auto& kv : answer) {
    bool known = false;
    for (const auto& f : schema) known = known || f.at("name").as_string() == kv.key();
    if (!known) errors[kv.key()] = "extra keys not allowed";
  }
  for (const auto& f : schema) {
    const json::object& field = f.as_object();
    const std::string name(field.at("name").as_string());
    const json::value* given = answer.if_contains(name);
    if (!given) {
      if (const auto* d = field.if_contains("default")) {
        answer[name] = *d;
      } else if (field.contains("required") && field.at("required") == true) {
        errors[name] = "required key not provided";
      }
      continue;
    }
    if (std::string problem = check_value(field, *given); !problem.empty()) errors[name] = problem;
  }
  return errors;
}

}  // namespace hamcp::sim::flows
