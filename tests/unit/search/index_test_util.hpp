// Small documents and queries the EntityIndex tests share.
#pragma once

#include <string>
#include <vector>

#include "search/entity_index.hpp"
#include "search/normalize.hpp"

namespace hamcp::search::testing {

inline EntityDoc doc(std::string id, std::string name, std::string area = "", std::string device_class = "") {
  EntityDoc d;
  d.entity_id = std::move(id);
  d.friendly_name = std::move(name);
  d.area_name = std::move(area);
  if (!d.area_name.empty()) {
    d.area_id = fold_key(d.area_name);
    for (char& c : d.area_id)
      if (c == ' ') c = '_';
  }
  d.device_class = std::move(device_class);
  d.state = "on";
  return d;
}

inline std::vector<std::string> ids(const Result& r) {
  std::vector<std::string> out;
  for (const auto& h : r.hits) out.push_back(h.entity_id);
  return out;
}

inline Query text(std::string t, std::size_t limit = 10) {
  Query q;
  q.text = std::move(t);
  q.limit = limit;
  return q;
}

inline std::vector<EntityDoc> small_home() {
  std::vector<EntityDoc> v;
  v.push_back(doc("light.bed_light", "Bed Light", "Bedroom"));
  v.push_back(doc("light.kitchen_ceiling", "Kitchen Ceiling Light", "Kitchen"));
  v.push_back(doc("light.ceiling_lights", "Ceiling Lights", "Living Room"));
  v.push_back(doc("light.kuche_licht", "Küchenlicht", "Küche"));
  v.push_back(doc("sensor.bedroom_temperature", "Bedroom Temperature", "Bedroom", "temperature"));
  v.push_back(doc("sensor.kitchen_humidity", "Kitchen Humidity", "Kitchen", "humidity"));
  v.push_back(doc("switch.decorative_lights", "Decorative Lights", "Living Room"));
  v.push_back(doc("binary_sensor.front_door", "Front Door", "Hallway", "door"));
  v.push_back(doc("climate.hvac", "Hvac", "Living Room"));
  v.back().aliases = {"Thermostat downstairs"};
  return v;
}

}  // namespace hamcp::search::testing
