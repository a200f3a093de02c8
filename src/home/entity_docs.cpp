#include "home/entity_docs.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <unordered_map>

namespace hamcp::home {

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

namespace {

// What the documents need from one device, area or floor. Registry items are
// kept as text and parsed on lookup, and a bulk build looks the same device
// or area up for many entities: RegistryFacts parses each item once.
struct DeviceFacts {
  bool found = false;
  std::string name, area_id, manufacturer, model;
};
struct AreaFacts {
  std::string name, floor_id;
  std::vector<std::string> aliases;
};
struct FloorFacts {
  std::string name;
  std::vector<std::string> aliases;
};

// A registry item is parsed into this (on the stack), read, and dropped: no
// malloc per JSON node on a path that runs for every hit of every search.
struct Arena {
  unsigned char buffer[4096];
  json::monotonic_resource resource{buffer, sizeof buffer};
};

class RegistryFacts {
 public:
  explicit RegistryFacts(const ha::Snapshot& snap) : snap_(snap) {}

  const DeviceFacts& device(const std::string& id) {
    auto [it, fresh] = devices_.try_emplace(id);
    if (fresh) {
      Arena arena;
      const ha::RegistryItem d = snap_.registry(ha::RegistryKind::device).find(id, &arena.resource);
      it->second.found = static_cast<bool>(d);
      it->second.name = str_of(d, "name_by_user");
      if (it->second.name.empty()) it->second.name = str_of(d, "name");
      it->second.area_id = str_of(d, "area_id");
      it->second.manufacturer = str_of(d, "manufacturer");
      it->second.model = str_of(d, "model");
    }
    return it->second;
  }
  const AreaFacts& area(const std::string& id) {
    auto [it, fresh] = areas_.try_emplace(id);
    if (fresh) {
      Arena arena;
      const ha::RegistryItem a = snap_.registry(ha::RegistryKind::area).find(id, &arena.resource);
      it->second.name = str_of(a, "name");
      it->second.floor_id = str_of(a, "floor_id");
      it->second.aliases = strings_of(a.get(), "aliases");
    }
    return it->second;
  }
  const FloorFacts& floor(const std::string& id) {
    auto [it, fresh] = floors_.try_emplace(id);
    if (fresh) {
      Arena arena;
      const ha::RegistryItem f = snap_.registry(ha::RegistryKind::floor).find(id, &arena.resource);
      it->second.name = str_of(f, "name");
      it->second.aliases = strings_of(f.get(), "aliases");
    }
    return it->second;
  }
  const std::string& label_name(const std::string& id) {
    auto [it, fresh] = labels_.try_emplace(id);
    if (fresh) {
      Arena arena;
      it->second = str_of(snap_.registry(ha::RegistryKind::label).find(id, &arena.resource), "name");
    }
    return it->second;
  }

 private:
  const ha::Snapshot& snap_;
  std::unordered_map<std::string, DeviceFacts> devices_;
  std::unordered_map<std::string, AreaFacts> areas_;
  std::unordered_map<std::string, FloorFacts> floors_;
  std::unordered_map<std::string, std::string> labels_;
};

EntityPlace place_in(RegistryFacts& facts, const json::object* entry) {
  EntityPlace p;
  if (!entry) return p;
  p.device_id = str_of(entry, "device_id");
  const DeviceFacts* device = p.device_id.empty() ? nullptr : &facts.device(p.device_id);
  if (device && device->found) p.device_name = device->name;
  p.area_id = str_of(entry, "area_id");
  if (p.area_id.empty() && device) p.area_id = device->area_id;
  if (!p.area_id.empty()) {
    const AreaFacts& area = facts.area(p.area_id);
    p.area_name = area.name;
    p.floor_id = area.floor_id;
    if (!p.floor_id.empty()) p.floor_name = facts.floor(p.floor_id).name;
  }
  return p;
}

// st: the entity's state (null when it has none), as the caller found it.
search::EntityDoc entity_doc(const ha::Snapshot& snap, RegistryFacts& facts, std::string_view entity_id,
                             const ha::EntityState* st) {
  search::EntityDoc d;
  d.entity_id = std::string(entity_id);
  const auto dot = entity_id.find('.');
  d.domain = std::string(entity_id.substr(0, dot));
  // The entry and the attributes are parsed into a stack arena: this runs for
  // every entity of the home when the index is rebuilt.
  unsigned char buffer[4096];
  json::monotonic_resource arena(buffer, sizeof buffer);
  const ha::RegistryItem entry_item = snap.registry(ha::RegistryKind::entity).find(entity_id, &arena);
  const json::object* entry = entry_item.get();
  if (st) {
    d.state = st->state;
    const json::object attributes = st->attributes.parse(&arena);
    d.friendly_name = str_of(&attributes, "friendly_name");
    d.device_class = str_of(&attributes, "device_class");
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
    for (const std::string& id : strings_of(entry, "labels")) {
      const std::string& name = facts.label_name(id);
      d.labels.push_back(name.empty() ? id : name);
    }
    EntityPlace p = place_in(facts, entry);
    d.area_id = p.area_id;
    d.area_name = p.area_name;
    d.floor_id = p.floor_id;
    d.floor_name = p.floor_name;
    d.device_id = p.device_id;
    d.device_name = p.device_name;
    if (!p.area_id.empty()) d.area_aliases = facts.area(p.area_id).aliases;
    if (!p.floor_id.empty())  // "upstairs", "attic": floor aliases people use for rooms
      d.floor_aliases = facts.floor(p.floor_id).aliases;
    if (!p.device_id.empty()) {
      const DeviceFacts& device = facts.device(p.device_id);
      d.manufacturer = device.manufacturer;
      d.model = device.model;
    }
  }
  return d;
}

}  // namespace

EntityPlace place_of(const ha::Snapshot& snap, const json::object* entry) {
  RegistryFacts facts(snap);
  return place_in(facts, entry);
}

std::string display_name(const ha::EntityState* state, const json::object* entry) {
  std::string name = str_of(entry, "name");
  if (!name.empty()) return name;
  if (state) {
    name = state->attributes.string_of("friendly_name");
    if (!name.empty()) return name;
  }
  name = str_of(entry, "original_name");
  if (!name.empty()) return name;
  const std::string id = state ? state->entity_id : str_of(entry, "entity_id");
  const auto dot = id.find('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

search::EntityDoc make_entity_doc(const ha::Snapshot& snap, std::string_view entity_id) {
  RegistryFacts facts(snap);
  const ha::EntityStatePtr st = snap.states.find(entity_id);
  return entity_doc(snap, facts, entity_id, st.get());
}

void for_each_doc(const ha::Snapshot& snap, const std::function<void(search::EntityDoc)>& fn) {
  RegistryFacts facts(snap);  // each device, area, floor and label parsed once
  snap.states.for_each([&](const ha::EntityStatePtr& st) { fn(entity_doc(snap, facts, st->entity_id, st.get())); });
  // Entries without a state (disabled entities): their ids are read in place,
  // not by decoding every entry of the registry a second time.
  snap.registry(ha::RegistryKind::entity).for_each_key([&](std::string_view id) {
    if (!id.empty() && !snap.states.find(id)) fn(entity_doc(snap, facts, id, nullptr));
  });
}

std::size_t doc_count_hint(const ha::Snapshot& snap) { return snap.states.size(); }

std::vector<search::EntityDoc> make_all_docs(const ha::Snapshot& snap) {
  std::vector<search::EntityDoc> docs;
  docs.reserve(doc_count_hint(snap));
  for_each_doc(snap, [&docs](search::EntityDoc d) { docs.push_back(std::move(d)); });
  return docs;
}

}  // namespace hamcp::home
