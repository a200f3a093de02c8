// The helper integrations' config flows, with forms shaped like Home
// Assistant 2026.2's: template (menu: sensor, binary_sensor), group (menu:
// binary_sensor, light, sensor, switch), utility_meter, derivative, min_max,
// threshold, and sun (a single-instance flow that aborts when configured).
#include <algorithm>
#include <cmath>
#include <set>

#include "common/json_fields.hpp"
#include "sim/core/template.hpp"
#include "sim/flows/flow_engine.hpp"

namespace hamcp::sim::flows {

namespace {

json::array schema(std::string_view text) { return json::parse(text).as_array(); }

std::vector<std::string> strings_of(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  if (const json::value* v = o.if_contains(key); v && v->is_array())
    for (const auto& x : v->get_array())
      if (x.is_string()) out.emplace_back(x.get_string());
  return out;
}

constexpr std::string_view kName = R"({"name":"name","required":true,"selector":{"text":{}}})";
constexpr std::string_view kDevice =
    R"({"name":"device_id","optional":true,"required":false,"selector":{"device":{}}})";

// --- template ----------------------------------------------------------------

std::string render_or_unavailable(StateStore& store, const std::string& source) {
  try {
    return render_template(store, source, {}).text;
  } catch (const TemplateError&) {
    return "unavailable";
  }
}

// HA checks a template sensor's unit against its device class.
StepResult check_template_sensor(FlowState&, const json::object& answer) {
  static const std::map<std::string, std::set<std::string>> kUnits = {
      {"temperature", {"K", "°C", "°F"}}, {"humidity", {"%"}}, {"power", {"W", "kW", "mW", "MW", "GW", "TW", "BTU/h"}}};
  const auto it = kUnits.find(string_or_empty(answer, "device_class"));
  if (it == kUnits.end() || it->second.count(string_or_empty(answer, "unit_of_measurement")))
    return StepResult::create();
  std::string expected;
  for (const auto& u : it->second) expected += (expected.empty() ? "'" : ", '") + u + "'";
  return StepResult::fail(
      json::object{{"unit_of_measurement", "'" + string_or_empty(answer, "unit_of_measurement") +
                                               "' is not a valid unit for device class '" + it->first +
                                               "'; expected one of [" + expected + "]"}});
}

Handler template_handler() {
  Handler h;
  h.domain = "template";
  h.menu_key = "template_type";
  h.steps["user"].menu_options = {"binary_sensor", "sensor"};
  h.steps["sensor"].schema = schema(std::string("[") + std::string(kName) +
                                    R"(,{"name":"state","required":true,"selector":{"template":{}}},
{"name":"unit_of_measurement","optional":true,"required":false,"selector":{"select":{"options":["%","°C","°F","K","W","kW","kWh","Wh","lx","ppm"],"custom_value":true,"mode":"dropdown","sort":true}}},
{"name":"device_class","optional":true,"required":false,"selector":{"select":{"options":["energy","humidity","illuminance","power","temperature"],"mode":"dropdown","sort":true}}},
{"name":"state_class","optional":true,"required":false,"selector":{"select":{"options":["measurement","total","total_increasing"],"mode":"dropdown"}}},)" +
                                    std::string(kDevice) + "]");
  h.steps["sensor"].submit = check_template_sensor;
  h.steps["binary_sensor"].schema = schema(std::string("[") + std::string(kName) +
                                           R"(,{"name":"state","required":true,"selector":{"template":{}}},
{"name":"device_class","optional":true,"required":false,"selector":{"select":{"options":["door","moisture","motion","occupancy","opening","problem","window"],"mode":"dropdown","sort":true}}},)" +
                                           std::string(kDevice) + "]");
  h.setup = [](FlowState& flow, const std::string& title, const json::object& options) {
    const std::string type = string_or_empty(options, "template_type");
    std::string state = render_or_unavailable(flow.store, string_or_empty(options, "state"));
    if (type == "binary_sensor") state = (state == "True" || state == "on" || state == "true") ? "on" : "off";
    json::object attrs;
    for (const char* k : {"unit_of_measurement", "device_class", "state_class"})
      if (options.contains(k)) attrs[k] = options.at(k);
    add_entry_entity(flow, type, title, "template", state, std::move(attrs));
  };
  h.reload = [](FlowState& flow, const StoredState& entity, const json::object& options) {
    std::string state = render_or_unavailable(flow.store, string_or_empty(options, "state"));
    if (string_or_empty(options, "template_type") == "binary_sensor")
      state = (state == "True" || state == "on" || state == "true") ? "on" : "off";
    json::object attrs = entity.attributes;
    for (const char* k : {"unit_of_measurement", "device_class", "state_class"}) {
      attrs.erase(k);
      if (options.contains(k)) attrs[k] = options.at(k);
    }
    flow.store.set_state(entity.entity_id, std::move(state), std::move(attrs), flow.store.new_context());
  };
  return h;
}

// --- group -------------------------------------------------------------------

std::string members_field(std::string_view domains, bool multiple = true) {
  return R"({"name":"entities","required":true,"selector":{"entity":{"filter":[{"domain":)" + std::string(domains) +
         R"(}],"multiple":)" + (multiple ? "true" : "false") + "}}}";
}
constexpr std::string_view kHide =
    R"({"name":"hide_members","required":false,"default":false,"selector":{"boolean":{}}})";
constexpr std::string_view kAll = R"({"name":"all","required":false,"default":false,"selector":{"boolean":{}}})";

std::string group_state(StateStore& store, const json::object& options) {
  const std::string type = string_or_empty(options, "group_type");
  std::vector<double> numbers;
  int on = 0, total = 0;
  for (const auto& m : strings_of(options, "entities")) {
    StatePtr s = store.get(m);
    if (!s) continue;
    ++total;
    on += s->state == "on" ? 1 : 0;
    char* end = nullptr;
    const double v = std::strtod(s->state.c_str(), &end);
    if (end && *end == '\0' && !s->state.empty()) numbers.push_back(v);
  }
  if (type != "sensor") {
    const bool all = options.contains("all") && options.at("all") == true;
    if (total == 0) return "unknown";
    return (all ? on == total : on > 0) ? "on" : "off";
  }
  if (numbers.empty()) return "unknown";
  const std::string how = string_or_empty(options, "type");
  double v = numbers.back();
  if (how == "min") v = *std::min_element(numbers.begin(), numbers.end());
  if (how == "max") v = *std::max_element(numbers.begin(), numbers.end());
  if (how == "sum" || how == "mean") {
    v = 0;
    for (double x : numbers) v += x;
    if (how == "mean") v /= static_cast<double>(numbers.size());
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

Handler group_handler() {
  Handler h;
  h.domain = "group";
  h.menu_key = "group_type";
  h.steps["user"].menu_options = {"binary_sensor", "light", "sensor", "switch"};
  for (const char* type : {"binary_sensor", "light", "switch"})
    h.steps[type].schema =
        schema(std::string("[") + std::string(kName) + "," + members_field(std::string("\"") + type + "\"") + "," +
               std::string(kHide) + "," + std::string(kAll) + "]");
  h.steps["sensor"].schema =
      schema(std::string("[") + std::string(kName) + "," + members_field(R"(["sensor","number","input_number"])") +
             "," + std::string(kHide) +
             R"(,{"name":"ignore_non_numeric","required":false,"default":false,"selector":{"boolean":{}}},
{"name":"type","required":true,"selector":{"select":{"options":["last","max","mean","median","min","product","range","stdev","sum"],"translation_key":"type"}}},
{"name":"round_digits","optional":true,"required":false,"selector":{"number":{"min":0,"max":6,"mode":"box"}}},
{"name":"unit_of_measurement","optional":true,"required":false,"selector":{"select":{"options":["%","°C","W","kWh"],"custom_value":true}}}])");
  h.setup = [](FlowState& flow, const std::string& title, const json::object& options) {
    json::array members;
    for (const auto& m : strings_of(options, "entities")) members.emplace_back(m);
    add_entry_entity(flow, string_or_empty(options, "group_type"), title, "group", group_state(flow.store, options),
                     json::object{{"entity_id", std::move(members)}});
  };
  return h;
}

// --- utility_meter, derivative, min_max, threshold, sun -----------------------

Handler sensor_helper(std::string domain, std::string fields, std::string out_domain, std::string initial) {
  Handler h;
  h.domain = std::move(domain);
  h.steps["user"].schema = schema("[" + std::string(kName) + "," + fields + "]");
  h.setup = [out_domain, initial, platform = h.domain](FlowState& flow, const std::string& title,
                                                       const json::object& options) {
    json::object attrs;
    for (const char* k : {"source", "entity_id", "entity_ids", "type", "lower", "upper", "hysteresis", "cycle"})
      if (options.contains(k)) attrs[k] = options.at(k);
    add_entry_entity(flow, out_domain, title, platform, initial, std::move(attrs));
  };
  return h;
}

Handler utility_meter_handler() {
  Handler h = sensor_helper("utility_meter", R"(
{"name":"source","required":true,"selector":{"entity":{"filter":[{"domain":"sensor"}],"multiple":false}}},
{"name":"cycle","required":true,"default":"none","selector":{"select":{"options":["none","quarter-hourly","hourly","daily","weekly","monthly","bimonthly","quarterly","yearly"],"translation_key":"cycle"}}},
{"name":"offset","required":true,"default":0,"selector":{"number":{"min":0,"max":28,"mode":"box","unit_of_measurement":"days"}}},
{"name":"tariffs","required":true,"default":[],"selector":{"select":{"options":[],"custom_value":true,"multiple":true}}},
{"name":"net_consumption","required":true,"default":false,"selector":{"boolean":{}}},
{"name":"delta_values","required":true,"default":false,"selector":{"boolean":{}}},
{"name":"periodically_resetting","required":true,"default":true,"selector":{"boolean":{}}},
{"name":"always_available","optional":true,"required":false,"default":false,"selector":{"boolean":{}}})",
                            "sensor", "0");
  h.setup = [](FlowState& flow, const std::string& title, const json::object& options) {
    const json::object attrs{
        {"source", options.at("source")}, {"status", "collecting"}, {"cycle", options.at("cycle")}};
    const std::vector<std::string> tariffs = strings_of(options, "tariffs");
    if (tariffs.empty()) {
      add_entry_entity(flow, "sensor", title, "utility_meter", "0", attrs);
      return;
    }
    json::array choices;
    for (const auto& t : tariffs) {
      choices.emplace_back(t);
      add_entry_entity(flow, "sensor", title + " " + t, "utility_meter", "0", attrs);
    }
    add_entry_entity(flow, "select", title, "utility_meter", tariffs.front(), json::object{{"options", choices}});
  };
  return h;
}

Handler threshold_handler() {
  Handler h = sensor_helper("threshold", R"(
{"name":"entity_id","required":true,"selector":{"entity":{"filter":[{"domain":"sensor"}],"multiple":false}}},
{"name":"hysteresis","required":true,"default":0.0,"selector":{"number":{"mode":"box","step":1e-9}}},
{"name":"lower","optional":true,"required":false,"selector":{"number":{"mode":"box","step":1e-9}}},
{"name":"upper","optional":true,"required":false,"selector":{"number":{"mode":"box","step":1e-9}}})",
                            "binary_sensor", "off");
  h.steps["user"].submit = [](FlowState&, const json::object& answer) {
    if (!answer.contains("lower") && !answer.contains("upper"))
      return StepResult::fail(json::object{{"base", "need_lower_upper"}});
    return StepResult::create();
  };
  return h;
}

Handler sun_handler() {
  Handler h;
  h.domain = "sun";
  h.integration_type = "service";
  h.steps["user"].schema = json::array{};
  h.abort_on_start = [](StateStore& store) {
    return list_entries(store, "sun").empty() ? std::string() : std::string("single_instance_allowed");
  };
  return h;
}

}  // namespace

void add_helper_flow_handlers(HandlerTable& table) {
  std::vector<Handler> handlers = {template_handler(), group_handler(), utility_meter_handler(), threshold_handler(),
                                   sun_handler()};
  handlers.push_back(sensor_helper("derivative", R"(
{"name":"source","required":true,"selector":{"entity":{"filter":[{"domain":["sensor","input_number"]}],"multiple":false}}},
{"name":"round","required":true,"default":2,"selector":{"number":{"min":0,"max":6,"mode":"box"}}},
{"name":"time_window","optional":true,"required":false,"selector":{"duration":{}}},
{"name":"unit_prefix","optional":true,"required":false,"selector":{"select":{"options":["n","µ","m","k","M","G","T"]}}},
{"name":"unit_time","required":true,"default":"h","selector":{"select":{"options":["s","min","h","d"]}}})",
                                   "sensor", "unknown"));
  handlers.push_back(sensor_helper("min_max", R"(
{"name":"entity_ids","required":true,"selector":{"entity":{"filter":[{"domain":["sensor","number","input_number"]}],"multiple":true}}},
{"name":"type","required":true,"selector":{"select":{"options":["min","max","mean","median","last","range","sum"],"translation_key":"type"}}},
{"name":"round_digits","required":true,"default":2,"selector":{"number":{"min":0,"max":6,"mode":"box"}}})",
                                   "sensor", "unknown"));
  for (auto& h : handlers) {
    std::string domain = h.domain;
    table.emplace(std::move(domain), std::move(h));
  }
}

}  // namespace hamcp::sim::flows
