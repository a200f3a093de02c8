#pragma once
// Test/bench helper: the mirror's snapshot of a simulated home, built the way
// the mirror builds it (states with packed attributes, registries packed from
// HA's list shapes), without a simulator or a connection.
#include <boost/json/array.hpp>
#include <memory>

#include "ha/snapshot.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/home/home_model.hpp"

namespace hamcp::home::testing {

inline ha::SnapshotPtr snapshot_of(const sim::Home& home) {
  auto snap = std::make_shared<ha::Snapshot>();
  ha::StateTableBuilder states{ha::StateTable{}};
  for (const auto& s : home.states) {
    auto st = std::make_shared<ha::EntityState>();
    st->entity_id = s.entity_id;
    st->state = s.state;
    st->attributes = ha::Attributes(s.attributes);
    states.put(std::move(st));
  }
  snap->states = states.build();
  auto put = [&](ha::RegistryKind kind, boost::json::array items) {
    snap->registries[static_cast<std::size_t>(kind)] = ha::Registry::make(kind, std::move(items));
  };
  boost::json::array entities, devices, areas, floors, labels;
  for (const auto& e : home.entities)
    entities.emplace_back(sim::entity_entry_json(e, false));  // config/entity_registry/list
  for (const auto& d : home.devices) devices.emplace_back(sim::device_json(d));
  for (const auto& a : home.areas) areas.emplace_back(sim::area_json(a));
  for (const auto& f : home.floors) floors.emplace_back(sim::floor_json(f));
  for (const auto& l : home.labels) labels.emplace_back(sim::label_json(l));
  put(ha::RegistryKind::entity, std::move(entities));
  put(ha::RegistryKind::device, std::move(devices));
  put(ha::RegistryKind::area, std::move(areas));
  put(ha::RegistryKind::floor, std::move(floors));
  put(ha::RegistryKind::label, std::move(labels));
  return snap;
}

}  // namespace hamcp::home::testing
