#include "tools/entity_docs.hpp"

namespace hamcp::tools {

namespace json = boost::json;

std::string str_of(const json::object* o, std::string_view key) {
  if (!o) return {};
  const json::value* v = o->if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

namespace {
std::vector<std::string> strings_of(const json::object* o, std::string_view key) {
  std::vector<std::string> out;
  if (!o) return out;
  const json::value* v = o->if_contains(key);
  if (!v || !v->is_array()) return out;
  for (const auto& e : v->get_array())
    if (e.is_string()) out.emplace_back(e.get_string());
  return out;
}
}  // namespace

EntityPlace place_of(const ha::Snapshot& snap, const json::object* entry) {
  EntityPlace p;
  if (!entry) return p;
  p.device_id = str_of(entry, "device_id");
  const json::object* device =
      p.device_id.empty() ? nullptr : snap.registry(ha::RegistryKind::device).find(p.device_id);
  if (device) {
    p.device_name = str_of(device, "name_by_user");
    if (p.device_name.empty()) p.device_name = str_of(device, "name");
  }
  p.area_id = str_of(entry, "area_id");
  if (p.area_id.empty() && device) p.area_id = str_of(device, "area_id");
  if (!p.area_id.empty()) {
    const json::object* area = snap.registry(ha::RegistryKind::area).find(p.area_id);
    p.area_name = str_of(area, "name");
    p.floor_id = str_of(area, "floor_id");
    if (!p.floor_id.empty()) p.floor_name = str_of(snap.registry(ha::RegistryKind::floor).find(p.floor_id), "name");
  }
  return p;
}

std::string display_name(const ha::EntityState* state, const json::object* entry) {
  std::string name = str_of(entry, "name");
  if (!name.empty()) return name;
  if (state) {
    name = str_of(&state->attributes, "friendly_name");
    if (!name.empty()) return name;
  }
  name = str_of(entry, "original_name");
  if (!name.empty()) return name;
  const std::string id = state ? state->entity_id : str_of(entry, "entity_id");
  const auto dot = id.find('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

search::EntityDoc make_entity_doc(const ha::Snapshot& snap, std::string_view entity_id) {
  search::EntityDoc d;
  d.entity_id = std::string(entity_id);
  const auto dot = entity_id.find('.');
  d.domain = std::string(entity_id.substr(0, dot));
  ha::EntityStatePtr st = snap.states.find(entity_id);
  const json::object* entry = snap.registry(ha::RegistryKind::entity).find(entity_id);
  if (st) {
    d.state = st->state;
    d.friendly_name = str_of(&st->attributes, "friendly_name");
    d.device_class = str_of(&st->attributes, "device_class");
  }
  if (entry) {
    d.registry_name = str_of(entry, "name");
    d.original_name = str_of(entry, "original_name");
    d.aliases = strings_of(entry, "aliases");
    std::string dc = str_of(entry, "device_class");
    if (dc.empty()) dc = str_of(entry, "original_device_class");
    if (!dc.empty()) d.device_class = dc;
    d.hidden = !str_of(entry, "hidden_by").empty();
    d.disabled = !str_of(entry, "disabled_by").empty();
    const auto& labels = snap.registry(ha::RegistryKind::label);
    for (const std::string& id : strings_of(entry, "labels")) {
      std::string name = str_of(labels.find(id), "name");
      d.labels.push_back(name.empty() ? id : name);
    }
    EntityPlace p = place_of(snap, entry);
    d.area_id = p.area_id;
    d.area_name = p.area_name;
    d.floor_id = p.floor_id;
    d.floor_name = p.floor_name;
    d.device_id = p.device_id;
    d.device_name = p.device_name;
    if (!p.area_id.empty())
      d.area_aliases = strings_of(snap.registry(ha::RegistryKind::area).find(p.area_id), "aliases");
    if (!p.floor_id.empty())  // "upstairs", "attic": floor aliases people use for rooms
      d.floor_aliases = strings_of(snap.registry(ha::RegistryKind::floor).find(p.floor_id), "aliases");
    if (!p.device_id.empty()) {
      const json::object* device = snap.registry(ha::RegistryKind::device).find(p.device_id);
      d.manufacturer = str_of(device, "manufacturer");
      d.model = str_of(device, "model");
    }
  }
  return d;
}

std::vector<search::EntityDoc> make_all_docs(const ha::Snapshot& snap) {
  std::vector<search::EntityDoc> docs;
  docs.reserve(snap.states.size());
  snap.states.for_each([&](const ha::EntityStatePtr& st) { docs.push_back(make_entity_doc(snap, st->entity_id)); });
  for (const auto& item : snap.registry(ha::RegistryKind::entity).items) {
    const json::object* entry = item.if_object();
    const std::string id = str_of(entry, "entity_id");
    if (!id.empty() && !snap.states.find(id)) docs.push_back(make_entity_doc(snap, id));
  }
  return docs;
}

}  // namespace hamcp::tools
