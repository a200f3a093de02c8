#pragma once
// What an entity view takes from the registries: the entry's names and the
// names of its area and floor. Finding them decodes the entity's registry
// entry, its device, area and floor (about a third of an ha_get_state call's
// instructions), so they are remembered per entity for as long as the
// snapshot's entity, device, area and floor registries are the same objects:
// registries are immutable and replaced as a whole on any change, so a new
// one drops everything remembered (issue 9, item 6).
//
// Threading: any thread (one mutex, held only to look up or store). Old
// registries are referenced weakly: remembering never keeps one alive.

#include <memory>
#include <string>
#include <string_view>

#include "ha/snapshot.hpp"

namespace hamcp::tools {

struct RegistryViewFacts {
  bool has_entry = false;  // the entity is in the entity registry
  std::string name, original_name;
  std::string area_name, floor_name;  // the entity's area, else its device's (HA's rule)
};

std::shared_ptr<const RegistryViewFacts> registry_view_facts(const ha::Snapshot& snap, std::string_view entity_id);

// Entities remembered at most (a view of more, e.g. a large overview, just
// decodes as before); when full the memory starts afresh.
inline constexpr std::size_t kMaxRememberedViewFacts = 1024;  // ~250 KB at most

}  // namespace hamcp::tools
