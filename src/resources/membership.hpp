#pragma once
// Which entities belong to which area and device, from the entity and device
// registries (an entity's own area wins over its device's). Built in one walk
// when those registries change and shared by every resource read until then,
// so an area or device read costs its own members, not a walk of the home.

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ha/snapshot.hpp"

namespace hamcp::resources {

struct Membership {
  ha::RegistryPtr entities, devices;                                // held: identity check without pointer reuse
  std::unordered_map<std::string, std::string> area_of, device_of;  // entity_id -> area_id / device id
  std::unordered_map<std::string, std::vector<std::string>> area_entities, device_entities;  // sorted ids

  static std::shared_ptr<const Membership> build(const ha::Snapshot& snap);
  bool matches(const ha::Snapshot& snap) const;
  std::string_view area(const std::string& entity_id) const;
  std::string_view device(const std::string& entity_id) const;
  // The members of an area / device (empty when none).
  const std::vector<std::string>& in_area(const std::string& area_id) const;
  const std::vector<std::string>& of_device(const std::string& device_id) const;
};

}  // namespace hamcp::resources
