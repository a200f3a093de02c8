#include "home/entity_docs.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>

#include "common/id_table.hpp"

namespace hamcp::home {

namespace json = boost::json;

std::string str_of(const json::object* o, std::string_view key) {
  if (!o) return {};
  const json::value* v = o->if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

namespace {

// What the documents need from one device, area or floor. A bulk build looks
// the same device or area up for many entities: RegistryFacts reads each
// item once. Items are read in place (ha::PackedMember): no DOM per lookup.
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

void append_strings(const ha::PackedMember& m, std::vector<std::string>& out) {
  m.for_each_string([&](std::string_view s) { out.emplace_back(s); });
}

// Facts by id. A bulk build looks ids up for nearly every entity, in no
// useful order: common::IdTable finds an entry in one bucket probe (the id
// and a tag of its hash) where a node map cost several cache misses. Entries
// never move (a deque), so the returned pointers stay valid.
template <typename Facts>
class FactsById {
 public:
  // The facts of id, and whether they are new (the caller fills them).
  std::pair<Facts*, bool> find_or_add(std::string_view id) {
    const std::size_t hash = std::hash<std::string_view>{}(id);
    if (const auto found = table_.find(hash, [&](std::uint32_t n) { return entries_[n].id == id; }))
      return {&entries_[*found].facts, false};
    entries_.push_back(Entry{hash, std::string(id), Facts{}});
    table_.insert(static_cast<std::uint32_t>(entries_.size() - 1), hash,
                  [this](std::uint32_t n) { return entries_[n].hash; });
    return {&entries_.back().facts, true};
  }

 private:
  struct Entry {
    std::size_t hash;
    std::string id;
    Facts facts;
  };
  common::IdTable table_;
  std::deque<Entry> entries_;
};

class RegistryFacts {
 public:
  explicit RegistryFacts(const ha::Snapshot& snap) : snap_(snap) {}

  const DeviceFacts& device(std::string_view id) {
    auto [facts, fresh] = devices_.find_or_add(id);
    if (fresh) {
      DeviceFacts& f = *facts;
      std::string name;
      f.found = snap_.registry(ha::RegistryKind::device).visit(id, [&](const ha::PackedMember& m) {
        const std::string_view k = m.key();
        if (k == "name_by_user")
          f.name = m.string();
        else if (k == "name")
          name = m.string();
        else if (k == "area_id")
          f.area_id = m.string();
        else if (k == "manufacturer")
          f.manufacturer = m.string();
        else if (k == "model")
          f.model = m.string();
      });
      if (f.name.empty()) f.name = std::move(name);  // name_by_user, else name
    }
    return *facts;
  }
  const AreaFacts& area(std::string_view id) {
    auto [facts, fresh] = areas_.find_or_add(id);
    if (fresh) {
      AreaFacts& f = *facts;
      snap_.registry(ha::RegistryKind::area).visit(id, [&](const ha::PackedMember& m) {
        if (m.key() == "name")
          f.name = m.string();
        else if (m.key() == "floor_id")
          f.floor_id = m.string();
        else if (m.key() == "aliases")
          append_strings(m, f.aliases);
      });
    }
    return *facts;
  }
  const FloorFacts& floor(std::string_view id) {
    auto [facts, fresh] = floors_.find_or_add(id);
    if (fresh) {
      FloorFacts& f = *facts;
      snap_.registry(ha::RegistryKind::floor).visit(id, [&](const ha::PackedMember& m) {
        if (m.key() == "name")
          f.name = m.string();
        else if (m.key() == "aliases")
          append_strings(m, f.aliases);
      });
    }
    return *facts;
  }
  const std::string& label_name(std::string_view id) {
    auto [name, fresh] = labels_.find_or_add(id);
    if (fresh) {
      std::string& label = *name;  // a structured binding cannot be captured before C++20 in clang 14
      snap_.registry(ha::RegistryKind::label).visit(id, [&](const ha::PackedMember& m) {
        if (m.key() == "name") label = m.string();
      });
    }
    return *name;
  }

 private:
  const ha::Snapshot& snap_;
  FactsById<DeviceFacts> devices_;
  FactsById<AreaFacts> areas_;
  FactsById<FloorFacts> floors_;
  FactsById<std::string> labels_;
};

// The facts of where an entry's entity is, each looked up once (null: none).
struct Located {
  const DeviceFacts* device = nullptr;
  const std::string* area_id = nullptr;  // the entry's own, else its device's (HA's rule)
  const AreaFacts* area = nullptr;
  const FloorFacts* floor = nullptr;  // the area's
};

// The facts live in facts' node maps: the pointers stay valid while it lives.
Located locate(RegistryFacts& facts, const std::string& device_id, const std::string& area_id) {
  Located l;
  if (!device_id.empty()) l.device = &facts.device(device_id);
  if (!area_id.empty())
    l.area_id = &area_id;
  else if (l.device && !l.device->area_id.empty())
    l.area_id = &l.device->area_id;
  if (!l.area_id) return l;
  l.area = &facts.area(*l.area_id);
  if (!l.area->floor_id.empty()) l.floor = &facts.floor(l.area->floor_id);
  return l;
}

EntityPlace place_in(RegistryFacts& facts, const json::object* entry) {
  EntityPlace p;
  if (!entry) return p;
  p.device_id = str_of(entry, "device_id");
  const std::string area_id = str_of(entry, "area_id");
  const Located l = locate(facts, p.device_id, area_id);
  if (l.device && l.device->found) p.device_name = l.device->name;
  if (!l.area) return p;
  p.area_id = *l.area_id;
  p.area_name = l.area->name;
  p.floor_id = l.area->floor_id;
  if (l.floor) p.floor_name = l.floor->name;
  return p;
}

// The entity registry entry's fields a document needs.
struct EntryFields {
  std::string name, original_name, device_class, original_device_class, device_id, area_id;
  std::vector<std::string> aliases, label_ids;
  bool hidden = false, disabled = false;
};

// Reads the entry of entity_id in place; false when there is none.
bool read_entry(const ha::Snapshot& snap, std::string_view entity_id, EntryFields& e) {
  return snap.registry(ha::RegistryKind::entity).visit(entity_id, [&](const ha::PackedMember& m) {
    const std::string_view k = m.key();
    if (k == "name")
      e.name = m.string();
    else if (k == "original_name")
      e.original_name = m.string();
    else if (k == "aliases")
      append_strings(m, e.aliases);
    else if (k == "device_class")
      e.device_class = m.string();
    else if (k == "original_device_class")
      e.original_device_class = m.string();
    else if (k == "hidden_by")
      e.hidden = !m.string().empty();
    else if (k == "disabled_by")
      e.disabled = !m.string().empty();
    else if (k == "labels")
      append_strings(m, e.label_ids);
    else if (k == "device_id")
      e.device_id = m.string();
    else if (k == "area_id")
      e.area_id = m.string();
  });
}

// st: the entity's state (null when it has none), as the caller found it.
// has_entry (if given): set when the entity has a registry entry.
search::EntityDoc entity_doc(const ha::Snapshot& snap, RegistryFacts& facts, std::string_view entity_id,
                             const ha::EntityState* st, bool* has_entry) {
  search::EntityDoc d;
  d.entity_id = std::string(entity_id);
  const auto dot = entity_id.find('.');
  d.domain = std::string(entity_id.substr(0, dot));
  // The entry and the attributes are read in place, only the fields needed:
  // this runs for every entity of the home when the index is rebuilt.
  if (st) {
    d.state = st->state;
    bool name_seen = false, class_seen = false;  // the first member with a key counts, as in a parsed object
    st->attributes.visit([&](const ha::PackedMember& m) {
      if (!name_seen && m.key() == "friendly_name") {
        name_seen = true;
        d.friendly_name = m.string();
      } else if (!class_seen && m.key() == "device_class") {
        class_seen = true;
        d.device_class = m.string();
      }
    });
  }
  EntryFields e;
  if (!read_entry(snap, entity_id, e)) return d;
  if (has_entry) *has_entry = true;
  d.registry_name = std::move(e.name);
  d.original_name = std::move(e.original_name);
  d.aliases = std::move(e.aliases);
  if (!e.device_class.empty())
    d.device_class = std::move(e.device_class);
  else if (!e.original_device_class.empty())
    d.device_class = std::move(e.original_device_class);
  d.hidden = e.hidden;
  d.disabled = e.disabled;
  d.labels.reserve(e.label_ids.size());
  for (std::string& id : e.label_ids) {
    const std::string& name = facts.label_name(id);
    d.labels.push_back(name.empty() ? std::move(id) : name);
  }
  const Located l = locate(facts, e.device_id, e.area_id);
  if (l.device) {
    if (l.device->found) d.device_name = l.device->name;
    d.manufacturer = l.device->manufacturer;
    d.model = l.device->model;
  }
  if (l.area) {
    d.area_id = *l.area_id;
    d.area_name = l.area->name;
    d.area_aliases = l.area->aliases;
    d.floor_id = l.area->floor_id;
  }
  if (l.floor) {
    d.floor_name = l.floor->name;
    d.floor_aliases = l.floor->aliases;  // "upstairs", "attic": floor aliases people use for rooms
  }
  d.device_id = std::move(e.device_id);
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
  return entity_doc(snap, facts, entity_id, st.get(), nullptr);
}

void for_each_doc(const ha::Snapshot& snap, const std::function<void(search::EntityDoc)>& fn) {
  RegistryFacts facts(snap);   // each device, area, floor and label read once
  std::size_t with_entry = 0;  // states whose entry was found: distinct keys
  snap.states.for_each([&](const ha::EntityStatePtr& st) {
    bool has_entry = false;
    fn(entity_doc(snap, facts, st->entity_id, st.get(), &has_entry));
    with_entry += has_entry && !st->entity_id.empty();  // "" is no key the walk below counts
  });
  // Entries without a state (disabled entities): their ids are read in place,
  // not by decoding every entry of the registry a second time. When every
  // keyed entry is one that a state found (as many as found, so no duplicate
  // keys either) there are none, and 100k state lookups are saved.
  const ha::Registry& entries = snap.registry(ha::RegistryKind::entity);
  std::size_t keyed = 0;
  entries.for_each_key([&](std::string_view id) { keyed += !id.empty(); });
  if (keyed == with_entry) return;
  entries.for_each_key([&](std::string_view id) {
    if (!id.empty() && !snap.states.find(id)) fn(entity_doc(snap, facts, id, nullptr, nullptr));
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
