#include "resources/membership.hpp"

#include <algorithm>

namespace hamcp::resources {

namespace json = boost::json;

namespace {

std::string_view string_at(const json::object* o, std::string_view key) {
  if (!o) return {};
  const json::value* v = o->if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

const std::vector<std::string>& members(const std::unordered_map<std::string, std::vector<std::string>>& map,
                                        const std::string& key) {
  static const std::vector<std::string> kNone;
  auto it = map.find(key);
  return it == map.end() ? kNone : it->second;
}

}  // namespace

std::shared_ptr<const Membership> Membership::build(const ha::Snapshot& snap) {
  auto fresh = std::make_shared<Membership>();
  fresh->entities = snap.registries[static_cast<std::size_t>(ha::RegistryKind::entity)];
  fresh->devices = snap.registries[static_cast<std::size_t>(ha::RegistryKind::device)];
  std::unordered_map<std::string, std::string> device_area;
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& d) {
    const json::object* o = d.if_object();
    const std::string_view id = string_at(o, "id"), area = string_at(o, "area_id");
    if (!id.empty() && !area.empty()) device_area.emplace(id, area);
  });
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& e) {
    const json::object* o = e.if_object();
    const std::string id(string_at(o, "entity_id"));
    if (id.empty()) return;
    const std::string device(string_at(o, "device_id"));
    std::string area(string_at(o, "area_id"));
    if (area.empty() && !device.empty())
      if (auto it = device_area.find(device); it != device_area.end()) area = it->second;
    if (!device.empty()) {
      fresh->device_of.emplace(id, device);
      fresh->device_entities[device].push_back(id);
    }
    if (!area.empty()) {
      fresh->area_of.emplace(id, area);
      fresh->area_entities[area].push_back(id);
    }
  });
  for (auto& [area, ids] : fresh->area_entities) std::sort(ids.begin(), ids.end());
  for (auto& [device, ids] : fresh->device_entities) std::sort(ids.begin(), ids.end());
  return fresh;
}

bool Membership::matches(const ha::Snapshot& snap) const {
  return entities == snap.registries[static_cast<std::size_t>(ha::RegistryKind::entity)] &&
         devices == snap.registries[static_cast<std::size_t>(ha::RegistryKind::device)];
}

std::string_view Membership::area(const std::string& entity_id) const {
  auto it = area_of.find(entity_id);
  return it == area_of.end() ? std::string_view() : std::string_view(it->second);
}

std::string_view Membership::device(const std::string& entity_id) const {
  auto it = device_of.find(entity_id);
  return it == device_of.end() ? std::string_view() : std::string_view(it->second);
}

const std::vector<std::string>& Membership::in_area(const std::string& area_id) const {
  return members(area_entities, area_id);
}

const std::vector<std::string>& Membership::of_device(const std::string& device_id) const {
  return members(device_entities, device_id);
}

}  // namespace hamcp::resources
