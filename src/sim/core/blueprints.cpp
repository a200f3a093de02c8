#include "sim/core/blueprints.hpp"

#include <set>
#include <stdexcept>

#include "common/join.hpp"
#include "yaml/yaml_json.hpp"

namespace hamcp::sim {

namespace {

// Every !input name used anywhere in `v`.
void collect_inputs(const json::value& v, std::set<std::string>& out) {
  if (yaml::tag_of(v) == "!input") {
    out.insert(std::string(v.get_object().begin()->value().get_string()));
  } else if (const auto* o = v.if_object()) {
    for (const auto& kv : *o) collect_inputs(kv.value(), out);
  } else if (const auto* a = v.if_array()) {
    for (const auto& item : *a) collect_inputs(item, out);
  }
}

json::value substituted(const json::value& v, const json::object& values) {
  if (yaml::tag_of(v) == "!input") {
    const std::string name(v.get_object().begin()->value().get_string());
    const json::value* found = values.if_contains(name);
    if (!found) throw std::runtime_error("No substitution found for input " + name);
    return *found;
  }
  if (const auto* o = v.if_object()) {
    json::object out;
    for (const auto& kv : *o) out[kv.key()] = substituted(kv.value(), values);
    return out;
  }
  if (const auto* a = v.if_array()) {
    json::array out;
    for (const auto& item : *a) out.push_back(substituted(item, values));
    return out;
  }
  return v;
}

const json::object* metadata_of(const json::object& doc) {
  const json::value* bp = doc.if_contains("blueprint");
  return bp ? bp->if_object() : nullptr;
}

}  // namespace

bool is_blueprint_domain(std::string_view domain) {
  return domain == "automation" || domain == "script" || domain == "template";
}

std::string blueprint_key(std::string_view domain, std::string_view path) {
  return std::string(domain) + "/" + std::string(path);
}

std::optional<std::string> blueprint_problem(const json::value& doc, std::string_view expected_domain) {
  if (!doc.is_object()) return "Invalid blueprint: expected a dictionary";
  const json::object* meta = metadata_of(doc.get_object());
  if (!meta) return "Invalid blueprint: required key not provided @ data['blueprint']";
  for (const char* field : {"name", "domain"}) {
    const json::value* v = meta->if_contains(field);
    if (!v) return std::string("Invalid blueprint: required key not provided @ data['blueprint']['") + field + "']";
    if (!v->is_string()) return std::string("Invalid blueprint: expected str @ data['blueprint']['") + field + "']";
  }
  const std::string domain(meta->at("domain").get_string());
  if (!expected_domain.empty() && domain != expected_domain)
    return "Found incorrect blueprint type " + domain + ", expected " + std::string(expected_domain);
  if (const json::value* in = meta->if_contains("input"); in && !in->is_object() && !in->is_null())
    return "Invalid blueprint: expected a dictionary @ data['blueprint']['input']";
  std::set<std::string> used;
  collect_inputs(doc, used);
  const auto declared = blueprint_inputs(*meta);
  std::vector<std::string> missing;
  for (const auto& name : used)
    if (!declared.count(name)) missing.push_back(name);
  if (!missing.empty()) return "Invalid blueprint: Missing input definition for " + join(missing, ", ");
  return std::nullopt;
}

std::map<std::string, json::object> blueprint_inputs(const json::object& metadata) {
  std::map<std::string, json::object> out;
  const json::value* in = metadata.if_contains("input");
  if (!in || !in->is_object()) return out;
  for (const auto& kv : in->get_object()) {
    const json::object* def = kv.value().if_object();
    const json::value* section = def ? def->if_contains("input") : nullptr;
    if (section && section->is_object()) {  // an input section: its inputs count as the blueprint's
      for (const auto& inner : section->get_object())
        out[std::string(inner.key())] = inner.value().is_object() ? inner.value().get_object() : json::object{};
    } else {
      out[std::string(kv.key())] = def ? *def : json::object{};
    }
  }
  return out;
}

json::object substitute_blueprint(const json::object& data, const json::object& inputs) {
  const json::object* meta = metadata_of(data);
  json::object values = inputs;
  std::vector<std::string> missing;
  if (meta)
    for (const auto& [name, def] : blueprint_inputs(*meta)) {
      if (values.contains(name)) continue;
      if (const json::value* d = def.if_contains("default")) {
        values[name] = *d;
      } else {
        missing.push_back(name);
      }
    }
  if (!missing.empty()) throw std::runtime_error("Missing input " + join(missing, ", "));
  json::object config;
  for (const auto& kv : data)
    if (kv.key() != "blueprint") config[kv.key()] = substituted(kv.value(), values);
  return config;
}

std::vector<std::string> blueprint_users(const Home& home, std::string_view domain, std::string_view path) {
  const auto& configs = domain == "script" ? home.script_configs : home.automation_configs;
  std::vector<std::string> users;
  for (const auto& [key, cfg] : configs) {
    const json::value* use = cfg.if_contains("use_blueprint");
    const json::value* p = use && use->is_object() ? use->get_object().if_contains("path") : nullptr;
    if (!p || !p->is_string() || p->get_string() != path) continue;
    std::string eid = domain == "script" ? "script." + key : std::string();
    for (const auto& e : home.entities)
      if (eid.empty() && e.platform == domain && e.unique_id == key) eid = e.entity_id;
    users.push_back(eid.empty() ? std::string(domain) + "." + key : eid);
  }
  return users;
}

std::optional<std::string> use_blueprint_problem(const Home& home, std::string_view domain, const json::object& cfg) {
  const json::value* use = cfg.if_contains("use_blueprint");
  if (!use) return std::nullopt;
  const json::object* u = use->if_object();
  const json::value* path = u ? u->if_contains("path") : nullptr;
  if (!path || !path->is_string()) return "required key not provided @ data['use_blueprint']['path']";
  const std::string p(path->get_string());
  auto it = home.blueprints.find(blueprint_key(domain, p));
  if (it == home.blueprints.end()) return "Failed to load blueprint: Unable to find " + std::string(domain) + "/" + p;
  const json::value* in = u->if_contains("input");
  if (in && !in->is_object()) return "expected a dictionary @ data['use_blueprint']['input']";
  try {
    substitute_blueprint(it->second.data, in ? in->get_object() : json::object{});
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

BlueprintFile demo_motion_light_blueprint() {
  BlueprintFile f;
  f.yaml = R"(blueprint:
  name: Motion-activated Light
  description: Turn on a light when motion is detected.
  domain: automation
  source_url: https://github.com/home-assistant/core/blob/dev/homeassistant/components/automation/blueprints/motion_light.yaml
  author: Home Assistant
  input:
    motion_entity:
      name: Motion Sensor
      selector:
        entity:
          filter:
            device_class: motion
            domain: binary_sensor
    light_target:
      name: Light
      selector:
        target:
          entity:
            domain: light
    no_motion_wait:
      name: Wait time
      description: Time to leave the light on after last motion is detected.
      default: 120
      selector:
        number:
          min: 0
          max: 3600
          unit_of_measurement: seconds
mode: restart
max_exceeded: silent
triggers:
  - trigger: state
    entity_id: !input motion_entity
    from: "off"
    to: "on"
actions:
  - alias: Turn on the light
    action: light.turn_on
    target: !input light_target
  - alias: Wait until there is no motion from device
    wait_for_trigger:
      trigger: state
      entity_id: !input motion_entity
      from: "on"
      to: "off"
  - alias: Wait the number of seconds that has been set
    delay: !input no_motion_wait
  - alias: Turn off the light
    action: light.turn_off
    target: !input light_target
)";
  f.data = yaml::parse_yaml(f.yaml).as_object();
  return f;
}

}  // namespace hamcp::sim
