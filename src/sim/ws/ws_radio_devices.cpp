#include "sim/ws/ws_radio_devices.hpp"

#include <cstdio>

#include "sim/core/time_util.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim::radio_devices {

namespace {

using namespace ws_util;

// 32 hex characters, stable for the same identifiers (HA's ids are random uuids).
std::string id_for(const Device& d) {
  std::string key;
  for (const auto& [domain, id] : d.identifiers) key += domain + "/" + id + ";";
  const std::size_t h = std::hash<std::string>{}(key), g = std::hash<std::string>{}(key + "#device");
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016zx%016zx", h, g);
  return buf;
}

std::string free_entity_id(WsConnection& c, const std::string& domain, const std::string& name) {
  StateStore& store = c.core().store();
  const std::string base = slugify(name);
  std::string object = base;
  for (int n = 2; store.get(domain + "." + object) || store.entity_entry(domain + "." + object); ++n)
    object = base + "_" + std::to_string(n);
  return domain + "." + object;
}

}  // namespace

std::string entry_of(WsConnection& c, std::string_view domain) {
  for (const auto& e : home(c).config_entries)
    if (const json::value& d = e.at("entry").at("domain"); d.is_string() && d.get_string() == domain)
      return std::string(e.at("entry").at("entry_id").as_string());
  return {};
}

std::string add_device(WsConnection& c, Device device, const NewEntity& entity) {
  if (device.id.empty()) device.id = id_for(device);
  device.created_at = device.modified_at = now_timestamp();
  const std::string device_id = device.id, name = device.name;
  const std::optional<std::string> entry = device.primary_config_entry;
  home(c).devices.push_back(std::move(device));
  fire(c, "device_registry_updated", {{"action", "create"}, {"device_id", device_id}});
  const Context context = ctx(c);
  EntityRegistryEntry e;
  e.entity_id = free_entity_id(c, entity.domain, name);
  e.id = context.id;
  e.unique_id = entity.unique_id;
  e.platform = entity.platform;
  e.device_id = device_id;
  e.config_entry_id = entry;
  e.has_entity_name = true;
  e.created_at = e.modified_at = now_timestamp();
  home(c).entities.push_back(e);
  fire(c, "entity_registry_updated", {{"action", "create"}, {"entity_id", e.entity_id}});
  c.core().store().set_state(e.entity_id, entity.state, json::object{{"friendly_name", name}}, context);
  return device_id;
}

bool remove_device(WsConnection& c, const std::string& device_id) {
  auto& devices = home(c).devices;
  const auto removed = std::erase_if(devices, [&](const Device& d) { return d.id == device_id; });
  if (!removed) return false;
  fire(c, "device_registry_updated", {{"action", "remove"}, {"device_id", device_id}});
  auto& entities = home(c).entities;
  for (auto e = entities.begin(); e != entities.end();) {
    if (e->device_id != device_id) {
      ++e;
      continue;
    }
    const std::string entity_id = e->entity_id;
    e = entities.erase(e);
    c.core().store().remove_state(entity_id, ctx(c));
    fire(c, "entity_registry_updated", {{"action", "remove"}, {"entity_id", entity_id}});
  }
  return true;
}

}  // namespace hamcp::sim::radio_devices
