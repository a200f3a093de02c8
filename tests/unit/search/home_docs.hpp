#pragma once
// Test/bench helper: turns a simulated home (src/sim) into search documents the
// way the HA mirror does for a real instance: friendly_name from the state,
// names/aliases/labels/device class from the entity registry, the area from
// the entity or else its device, the floor from the area.
#include <string>
#include <unordered_map>
#include <vector>

#include "search/types.hpp"
#include "sim/home/home_model.hpp"

namespace hamcp::search::testing {

inline std::vector<EntityDoc> docs_from_home(const sim::Home& home) {
  std::unordered_map<std::string, const sim::EntityRegistryEntry*> reg;
  for (const auto& e : home.entities) reg.emplace(e.entity_id, &e);
  std::unordered_map<std::string, const sim::Device*> devices;
  for (const auto& d : home.devices) devices.emplace(d.id, &d);
  std::unordered_map<std::string, const sim::Area*> areas;
  for (const auto& a : home.areas) areas.emplace(a.area_id, &a);
  std::unordered_map<std::string, const sim::Floor*> floors;
  for (const auto& f : home.floors) floors.emplace(f.floor_id, &f);
  std::unordered_map<std::string, std::string> labels;
  for (const auto& l : home.labels) labels.emplace(l.label_id, l.name);

  std::vector<EntityDoc> docs;
  docs.reserve(home.states.size());
  for (const auto& s : home.states) {
    EntityDoc d;
    d.entity_id = s.entity_id;
    d.state = s.state;
    if (auto it = s.attributes.find("friendly_name"); it != s.attributes.end() && it->value().is_string())
      d.friendly_name = std::string(it->value().get_string());
    if (auto it = s.attributes.find("device_class"); it != s.attributes.end() && it->value().is_string())
      d.device_class = std::string(it->value().get_string());
    std::optional<std::string> area_id;
    if (auto r = reg.find(s.entity_id); r != reg.end()) {
      const auto& e = *r->second;
      d.registry_name = e.name.value_or("");
      d.original_name = e.original_name.value_or("");
      d.aliases = e.aliases;
      for (const auto& l : e.labels) {
        auto it = labels.find(l);
        d.labels.push_back(it == labels.end() ? l : it->second);
      }
      if (e.device_class)
        d.device_class = *e.device_class;
      else if (d.device_class.empty() && e.original_device_class)
        d.device_class = *e.original_device_class;
      d.hidden = e.hidden_by.has_value();
      d.disabled = e.disabled_by.has_value();
      area_id = e.area_id;
      if (e.device_id) {
        if (auto dv = devices.find(*e.device_id); dv != devices.end()) {
          const auto& dev = *dv->second;
          d.device_id = dev.id;
          d.device_name = dev.name_by_user.value_or(dev.name);
          d.manufacturer = dev.manufacturer;
          d.model = dev.model;
          if (!area_id) area_id = dev.area_id;
        }
      }
    }
    if (area_id) {
      if (auto a = areas.find(*area_id); a != areas.end()) {
        d.area_id = a->second->area_id;
        d.area_name = a->second->name;
        d.area_aliases = a->second->aliases;
        if (a->second->floor_id) {
          if (auto f = floors.find(*a->second->floor_id); f != floors.end()) {
            d.floor_id = f->second->floor_id;
            d.floor_name = f->second->name;
            d.floor_aliases = f->second->aliases;
          }
        }
      }
    }
    docs.push_back(std::move(d));
  }
  return docs;
}

}  // namespace hamcp::search::testing
