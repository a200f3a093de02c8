#pragma once
// Arguments for sweeping every tool of the registry (read-only and visibility
// proofs): derived from each tool's input schema, so tools added later are
// swept without editing the tests.

#include <boost/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::tools::testing {

namespace json = boost::json;

// A plausible value for a property, by its name first, then its type.
inline json::value sweep_value_for(std::string_view key, const json::object& prop, const char* entity) {
  if (key == "entity_id") return json::value(entity);
  if (key == "domain") return json::value("light");
  if (key == "service") return json::value("turn_on");
  if (key == "event_type") return json::value("hamcp_sweep");
  if (key == "helper_type") return json::value("input_boolean");
  if (key == "confirm") return json::value(true);
  if (key == "url") return json::value("http://127.0.0.1:9/sweep.yaml");  // loopback, nothing listens
  if (key == "yaml") return json::value("blueprint:\n  name: Sweep\n  domain: automation\n");
  if (key == "operations") return json::parse(std::string(R"([{"entity_id":")") + entity + R"(","action":"turn_on"}])");
  if (key == "config") return json::parse(R"({"alias":"Sweep","name":"Sweep","triggers":[],"actions":[]})");
  const json::value* type = prop.if_contains("type");
  const std::string_view t = type && type->is_string() ? std::string_view(type->get_string()) : "string";
  if (t == "boolean") return json::value(true);
  if (t == "integer" || t == "number") return json::value(1);
  if (t == "object") return json::object();
  if (t == "array") return json::array{entity};
  return json::value("sweep");
}

// Argument sets for one tool: the required properties (plus one set per value
// of each enum property), and every property at once.
inline std::vector<json::object> sweep_argument_sets(const json::object& schema, const char* entity) {
  const json::value* props_value = schema.if_contains("properties");
  if (!props_value || !props_value->is_object()) return {json::object()};
  const json::object& props = props_value->as_object();
  std::set<std::string> required;
  if (const json::value* r = schema.if_contains("required"); r && r->is_array())
    for (const auto& name : r->as_array()) required.emplace(name.as_string());
  json::object base, full;
  for (const auto& kv : props) {
    const json::object empty;
    const json::object& prop = kv.value().is_object() ? kv.value().as_object() : empty;
    json::value v = sweep_value_for(kv.key(), prop, entity);
    if (const json::value* e = prop.if_contains("enum"); e && e->is_array() && !e->as_array().empty())
      v = e->as_array().front();
    if (required.count(std::string(kv.key()))) base[kv.key()] = v;
    full[kv.key()] = v;
  }
  std::vector<json::object> sets{base, full};
  for (const auto& kv : props) {
    const json::value* e = kv.value().is_object() ? kv.value().as_object().if_contains("enum") : nullptr;
    if (!e || !e->is_array()) continue;
    for (const auto& option : e->as_array()) {
      json::object with = base;
      with[kv.key()] = option;
      sets.push_back(with);
      json::object all = full;
      all[kv.key()] = option;
      sets.push_back(std::move(all));
    }
  }
  return sets;
}

}  // namespace hamcp::tools::testing
