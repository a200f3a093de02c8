#pragma once
// Turns the mirror's view of one entity (state + entity/device/area/floor/label
// registries) into the search index's document, and resolves where an entity
// lives (area, floor, device) for tool responses. Pure functions of a snapshot.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ha/snapshot.hpp"
#include "search/types.hpp"

namespace hamcp::home {

struct EntityPlace {
  std::string area_id, area_name, floor_id, floor_name, device_id, device_name;
};

// Area: the entity's own area, else its device's area (HA's rule).
EntityPlace place_of(const ha::Snapshot& snap, const boost::json::object* registry_entry);

// Display name: registry name, else friendly_name, else original_name, else object id.
std::string display_name(const ha::EntityState* state, const boost::json::object* registry_entry);

search::EntityDoc make_entity_doc(const ha::Snapshot& snap, std::string_view entity_id);
// Every entity with a state, plus registry entries without one (disabled ones).
std::vector<search::EntityDoc> make_all_docs(const ha::Snapshot& snap);
// The same documents handed to fn one at a time (a rebuild of a big home never
// holds all of them); returns how many entities there are at most, for reserve.
void for_each_doc(const ha::Snapshot& snap, const std::function<void(search::EntityDoc)>& fn);
std::size_t doc_count_hint(const ha::Snapshot& snap);

// String member or "".
std::string str_of(const boost::json::object* o, std::string_view key);
inline std::string str_of(const ha::RegistryItem& item, std::string_view key) { return str_of(item.get(), key); }

}  // namespace hamcp::home
