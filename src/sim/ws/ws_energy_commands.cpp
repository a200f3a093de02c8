// WebSocket commands of HA's energy integration, with HA 2026.2's shapes
// (components/energy/websocket_api.py, data.py, validate.py): energy/get_prefs
// (never saved: not_found "No prefs"), energy/save_prefs (the keys given
// replace the stored ones; the voluptuous schema's required keys, source
// types, one grid at most, unique flows), energy/info and energy/validate
// (per source and device: unknown, unavailable or non-numeric statistics).
#include <algorithm>
#include <cstdlib>
#include <set>

#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

struct SourceRule {
  std::string_view type;
  std::vector<std::string_view> required;
  std::vector<std::string_view> optional;
};

const std::vector<SourceRule>& source_rules() {
  static const std::vector<SourceRule> rules = {
      {"grid", {"flow_from", "flow_to", "cost_adjustment_day"}, {"power"}},
      {"solar", {"stat_energy_from"}, {"stat_rate", "config_entry_solar_forecast"}},
      {"battery", {"stat_energy_from", "stat_energy_to"}, {"stat_rate", "power_config"}},
      {"gas", {"stat_energy_from"}, {"stat_cost", "entity_energy_price", "number_energy_price"}},
      {"water", {"stat_energy_from"}, {"stat_cost", "entity_energy_price", "number_energy_price"}},
  };
  return rules;
}

void check_keys(const json::value& v, const std::string& at, const std::vector<std::string_view>& required,
                const std::vector<std::string_view>& optional) {
  if (!v.is_object()) throw BadMessage{"expected a dictionary @ data" + at};
  for (std::string_view key : required)
    if (!v.get_object().contains(key))
      throw BadMessage{"required key not provided @ data" + at + "['" + std::string(key) + "']"};
  for (const auto& kv : v.get_object()) {
    const bool known = kv.key() == "type" || std::find(required.begin(), required.end(), kv.key()) != required.end() ||
                       std::find(optional.begin(), optional.end(), kv.key()) != optional.end();
    if (!known) throw BadMessage{"extra keys not allowed @ data" + at + "['" + std::string(kv.key()) + "']"};
  }
}

void check_flows(const json::value& flows, const std::string& at, std::string_view stat_key,
                 const std::vector<std::string_view>& optional) {
  if (!flows.is_array()) throw BadMessage{"expected list @ data" + at};
  std::set<std::string> seen;
  for (std::size_t i = 0; i < flows.get_array().size(); ++i) {
    const json::value& f = flows.get_array()[i];
    check_keys(f, at + "[" + std::to_string(i) + "]", {stat_key}, optional);
    const std::string stat = json::serialize(f.get_object().at(stat_key));
    if (!seen.insert(stat).second) throw BadMessage{"Cannot specify " + stat + " more than once"};
  }
}

void check_sources(const json::value& sources) {
  if (!sources.is_array()) throw BadMessage{"expected list @ data['energy_sources']"};
  int grids = 0;
  for (std::size_t i = 0; i < sources.get_array().size(); ++i) {
    const json::value& s = sources.get_array()[i];
    const std::string at = "['energy_sources'][" + std::to_string(i) + "]";
    const json::value* type = s.is_object() ? s.get_object().if_contains("type") : nullptr;
    const SourceRule* rule = nullptr;
    for (const auto& r : source_rules())
      if (type && type->is_string() && type->get_string() == r.type) rule = &r;
    if (!rule)
      throw BadMessage{"Unexpected value for type: '" + (type ? json::serialize(*type) : std::string("None")) +
                       "'. Expected grid, solar, battery, gas, water"};
    check_keys(s, at, rule->required, rule->optional);
    if (rule->type != "grid") continue;
    ++grids;
    const json::object& g = s.get_object();
    check_flows(g.at("flow_from"), at + "['flow_from']", "stat_energy_from",
                {"stat_cost", "entity_energy_price", "number_energy_price"});
    check_flows(g.at("flow_to"), at + "['flow_to']", "stat_energy_to",
                {"stat_compensation", "entity_energy_price", "number_energy_price"});
  }
  if (grids > 1) throw BadMessage{"You cannot have more than 1 grid source"};
}

void check_devices(const json::value& devices, const std::string& key) {
  if (!devices.is_array()) throw BadMessage{"expected list @ data['" + key + "']"};
  for (std::size_t i = 0; i < devices.get_array().size(); ++i)
    check_keys(devices.get_array()[i], "['" + key + "'][" + std::to_string(i) + "]", {"stat_consumption"},
               {"stat_rate", "name", "included_in_stat"});
}

json::object default_prefs() {
  return {{"energy_sources", json::array{}},
          {"device_consumption", json::array{}},
          {"device_consumption_water", json::array{}}};
}

void get_prefs(WsConnection& c, int64_t id, const json::object&) {
  const json::value& prefs = home(c).energy_prefs;
  if (prefs.is_null()) return c.send_error(id, "not_found", "No prefs");
  c.send_result(id, prefs);
}

void save_prefs(WsConnection& c, int64_t id, const json::object& msg) {
  for (const auto& kv : msg)
    if (kv.key() != "id" && kv.key() != "type" && kv.key() != "energy_sources" && kv.key() != "device_consumption" &&
        kv.key() != "device_consumption_water")
      throw BadMessage{"extra keys not allowed @ data['" + std::string(kv.key()) + "']"};
  if (const json::value* s = msg.if_contains("energy_sources")) check_sources(*s);
  for (const char* key : {"device_consumption", "device_consumption_water"})
    if (const json::value* d = msg.if_contains(key)) check_devices(*d, key);
  json::value& prefs = home(c).energy_prefs;
  if (prefs.is_null()) prefs = default_prefs();
  for (const char* key : {"energy_sources", "device_consumption", "device_consumption_water"})
    if (const json::value* v = msg.if_contains(key)) prefs.as_object()[key] = *v;
  c.send_result(id, prefs);
}

void info(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(id, json::object{{"cost_sensors", json::object{}}, {"solar_forecast_domains", json::array{}}});
}

// One statistic's issues, as validate.py's _async_validate_usage_stat finds them in the sim's states.
void validate_stat(WsConnection& c, const json::value* stat, json::object& issues) {
  if (!stat || !stat->is_string()) return;
  const std::string sid(stat->get_string());
  if (sid.find(':') != std::string::npos) return;  // external statistics: kept as they are
  auto add = [&](const char* type, json::value detail) {
    json::value& issue = issues[type];
    if (issue.is_null())
      issue = json::object{{"type", type}, {"affected_entities", json::array{}}, {"translation_placeholders", nullptr}};
    issue.as_object()["affected_entities"].as_array().push_back(json::array{sid, std::move(detail)});
  };
  auto state = c.core().store().get(sid);
  // The sim records statistics of every entity with a state_class (as recorder/list_statistic_ids says).
  if (!state || !state->attributes.contains("state_class")) add("statistics_not_defined", nullptr);
  if (!state) return add("entity_not_defined", nullptr);
  if (state->state == "unavailable" || state->state == "unknown")
    return add("entity_unavailable", json::value(state->state));
  char* end = nullptr;
  std::strtod(state->state.c_str(), &end);
  if (end == state->state.c_str() || *end != '\0') add("entity_state_non_numeric", json::value(state->state));
}

json::array issues_list(json::object issues) {
  json::array out;
  for (auto& kv : issues) out.push_back(std::move(kv.value()));
  return out;
}

json::array validate_source(WsConnection& c, const json::object& s) {
  json::object issues;
  for (const char* key : {"stat_energy_from", "stat_energy_to", "stat_cost"})
    validate_stat(c, s.if_contains(key), issues);
  for (const char* flows : {"flow_from", "flow_to"})
    if (const json::value* f = s.if_contains(flows); f && f->is_array())
      for (const auto& flow : f->get_array())
        for (const char* key : {"stat_energy_from", "stat_energy_to", "stat_cost", "stat_compensation"})
          validate_stat(c, flow.as_object().if_contains(key), issues);
  return issues_list(std::move(issues));
}

void validate(WsConnection& c, int64_t id, const json::object&) {
  json::object out{{"energy_sources", json::array{}},
                   {"device_consumption", json::array{}},
                   {"device_consumption_water", json::array{}}};
  const json::value& prefs = home(c).energy_prefs;
  if (prefs.is_object()) {
    if (const json::value* s = prefs.get_object().if_contains("energy_sources"); s && s->is_array())
      for (const auto& src : s->get_array())
        out["energy_sources"].as_array().push_back(validate_source(c, src.as_object()));
    for (const char* key : {"device_consumption", "device_consumption_water"})
      if (const json::value* d = prefs.get_object().if_contains(key); d && d->is_array())
        for (const auto& dev : d->get_array()) {
          json::object issues;
          validate_stat(c, dev.as_object().if_contains("stat_consumption"), issues);
          out[key].as_array().push_back(issues_list(std::move(issues)));
        }
  }
  c.send_result(id, out);
}

}  // namespace

void register_energy_commands(Table& t) {
  t["energy/get_prefs"] = get_prefs;
  t["energy/save_prefs"] = save_prefs;
  t["energy/info"] = info;
  t["energy/validate"] = validate;
}

}  // namespace hamcp::sim
