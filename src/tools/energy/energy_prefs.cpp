#include "tools/energy/energy_prefs.hpp"

#include <algorithm>

namespace hamcp::tools::energy {

namespace {

constexpr std::string_view kKeys[] = {"energy_sources", "device_consumption", "device_consumption_water"};
constexpr std::string_view kSourceTypes[] = {"grid", "solar", "battery", "gas", "water"};

bool stat_field(std::string_view key) { return key.rfind("stat_", 0) == 0 || key == "included_in_stat"; }

void collect(const json::value& v, const std::string& path, std::vector<StatRef>& out) {
  if (const json::object* o = v.if_object()) {
    for (const auto& kv : *o) {
      const std::string at = path.empty() ? std::string(kv.key()) : path + "." + std::string(kv.key());
      if (stat_field(kv.key()) && kv.value().is_string())
        out.push_back({std::string(kv.value().get_string()), at});
      else
        collect(kv.value(), at, out);
    }
  } else if (const json::array* a = v.if_array()) {
    for (std::size_t i = 0; i < a->size(); ++i) collect((*a)[i], path + "[" + std::to_string(i) + "]", out);
  }
}

json::array& list_of(json::object& prefs, std::string_view key) {
  json::value& v = prefs[key];
  if (!v.is_array()) v = json::array{};
  return v.get_array();
}

bool same_stat(const json::value& device, const std::string& stat) {
  const json::value* s = device.is_object() ? device.get_object().if_contains("stat_consumption") : nullptr;
  return s && s->is_string() && s->get_string() == stat;
}

json::object apply_set(const json::object& current, const json::object& config) {
  if (config.empty())
    throw ToolException(bad_argument("config", "set needs config",
                                     "Pass config with energy_sources, device_consumption and/or "
                                     "device_consumption_water (mode=get shows them)."));
  json::object next = current;
  for (const auto& kv : config) {
    if (std::find(std::begin(kKeys), std::end(kKeys), kv.key()) == std::end(kKeys))
      throw ToolException(bad_argument("config." + std::string(kv.key()), "is not an energy preference",
                                       "Use energy_sources, device_consumption or device_consumption_water."));
    if (!kv.value().is_array())
      throw ToolException(bad_argument("config." + std::string(kv.key()), "must be a list", "Pass a JSON array."));
    next[kv.key()] = kv.value();
  }
  return next;
}

json::object apply_add_device(const json::object& current, const Edit& edit) {
  if (edit.stat.empty())
    throw ToolException(bad_argument("stat_consumption", "add_device needs it",
                                     "Pass the device's energy (or water) statistic id, e.g. sensor.x_energy."));
  json::object next = current;
  json::array& devices = list_of(next, edit.water ? "device_consumption_water" : "device_consumption");
  if (std::any_of(devices.begin(), devices.end(), [&](const json::value& d) { return same_stat(d, edit.stat); }))
    throw ToolException(bad_argument("stat_consumption", "'" + edit.stat + "' is already a device",
                                     "Remove it first (mode=remove_device), or change it with mode=set."));
  json::object device{{"stat_consumption", edit.stat}};
  if (!edit.name.empty()) device["name"] = edit.name;
  if (!edit.included_in_stat.empty()) device["included_in_stat"] = edit.included_in_stat;
  devices.push_back(std::move(device));
  return next;
}

json::object apply_remove_device(const json::object& current, const Edit& edit) {
  json::object next = current;
  json::array& devices = list_of(next, edit.water ? "device_consumption_water" : "device_consumption");
  auto it = std::find_if(devices.begin(), devices.end(), [&](const json::value& d) { return same_stat(d, edit.stat); });
  if (edit.stat.empty() || it == devices.end()) {
    json::array known;
    for (const auto& d : devices)
      if (d.is_object() && d.get_object().contains("stat_consumption"))
        known.push_back(d.get_object().at("stat_consumption"));
    ToolError err = bad_argument("stat_consumption", "'" + edit.stat + "' is not a device of the Energy dashboard",
                                 "Pass one of `devices` (water=true for water devices).");
    err.extra["devices"] = std::move(known);
    throw ToolException(std::move(err));
  }
  devices.erase(it);
  return next;
}

// A grid source joins the existing grid (HA allows one): its flows are appended.
json::object apply_add_source(const json::object& current, const json::object& source) {
  const json::value* type = source.if_contains("type");
  if (!type || !type->is_string() ||
      std::find(std::begin(kSourceTypes), std::end(kSourceTypes), type->get_string()) == std::end(kSourceTypes))
    throw ToolException(bad_argument("source.type", "must be grid, solar, battery, gas or water",
                                     "e.g. source={\"type\":\"solar\",\"stat_energy_from\":\"sensor.solar_energy\"}."));
  json::object next = current;
  json::array& sources = list_of(next, "energy_sources");
  if (type->get_string() == "grid") {
    for (auto& s : sources) {
      if (!s.is_object() || s.get_object().if_contains("type") == nullptr || s.get_object().at("type") != "grid")
        continue;
      for (const char* flows : {"flow_from", "flow_to", "power"})
        if (const json::value* add = source.if_contains(flows); add && add->is_array())
          for (const auto& f : add->get_array()) list_of(s.get_object(), flows).push_back(f);
      return next;
    }
    json::object grid{
        {"type", "grid"}, {"flow_from", json::array{}}, {"flow_to", json::array{}}, {"cost_adjustment_day", 0.0}};
    for (const auto& kv : source) grid[kv.key()] = kv.value();
    sources.push_back(std::move(grid));
    return next;
  }
  sources.push_back(source);
  return next;
}

}  // namespace

json::object empty_prefs() {
  return {{"energy_sources", json::array{}},
          {"device_consumption", json::array{}},
          {"device_consumption_water", json::array{}}};
}

json::object apply_edit(const json::object& current, const Edit& edit) {
  if (edit.mode == "set") return apply_set(current, edit.config);
  if (edit.mode == "add_device") return apply_add_device(current, edit);
  if (edit.mode == "remove_device") return apply_remove_device(current, edit);
  if (edit.mode == "add_source") {
    if (edit.source.empty())
      throw ToolException(bad_argument("source", "add_source needs a source object",
                                       "e.g. {\"type\":\"solar\",\"stat_energy_from\":\"sensor.solar_energy\"}."));
    return apply_add_source(current, edit.source);
  }
  throw ToolException(
      bad_argument("mode", "unknown mode " + edit.mode, "Use get, set, add_device, remove_device or add_source."));
}

std::vector<StatRef> statistic_refs(const json::object& prefs) {
  std::vector<StatRef> out;
  collect(prefs, "", out);
  return out;
}

}  // namespace hamcp::tools::energy
