#include "tools/search_feed.hpp"

#include <algorithm>

#include "tools/entity_docs.hpp"

namespace hamcp::tools {

SearchFeed::SearchFeed(ha::HaClient& ha, search::EntityIndex& index) : ha_(ha), index_(index) {
  listener_ = ha_.add_change_listener(
      [this](const ha::ChangeSet& changes, const ha::SnapshotPtr& snapshot) { apply(changes, snapshot); });
  ha::SnapshotPtr snap = ha_.snapshot();
  if (snap && snap->version > version_.load()) {
    ha::ChangeSet all;
    all.version = snap->version;
    all.full_resync = true;
    apply(all, snap);
  }
}

SearchFeed::~SearchFeed() { ha_.remove_change_listener(listener_); }

void SearchFeed::apply(const ha::ChangeSet& changes, const ha::SnapshotPtr& snapshot) {
  if (!snapshot) return;
  // Listeners run in publication order, but the constructor's initial build
  // may race the first publication: never go backwards.
  if (snapshot->version <= version_.load() && version_.load() != 0) return;
  const bool registry_moved = std::any_of(changes.registries_changed.begin(), changes.registries_changed.end(),
                                          [](ha::RegistryKind k) { return k != ha::RegistryKind::category; });
  if (changes.full_resync || registry_moved) {
    index_.build(make_all_docs(*snapshot));
  } else {
    for (const auto& id : changes.states_added) index_.upsert(make_entity_doc(*snapshot, id));
    for (const auto& id : changes.states_changed) index_.upsert(make_entity_doc(*snapshot, id));
    for (const auto& id : changes.states_removed) {
      // A registry entry without a state (disabled entity) stays findable.
      if (snapshot->registry(ha::RegistryKind::entity).find(id))
        index_.upsert(make_entity_doc(*snapshot, id));
      else
        index_.remove(id);
    }
  }
  version_.store(snapshot->version);
}

}  // namespace hamcp::tools
