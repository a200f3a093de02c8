#include "home/search_feed.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <unordered_set>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "common/elapsed.hpp"
#include "home/entity_docs.hpp"

namespace hamcp::home {

using common::elapsed_ms;

namespace {
// A rebuild frees the old index and every document's transient texts; glibc
// keeps freed memory in its arenas, so hand whole free pages back (a no-op on
// mimalloc, which returns pages as they empty: common/allocator_settings.hpp).
void return_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

bool same_doc(const search::EntityDoc& a, const search::EntityDoc& b) {
  return a.entity_id == b.entity_id && a.domain == b.domain && a.friendly_name == b.friendly_name &&
         a.registry_name == b.registry_name && a.original_name == b.original_name && a.aliases == b.aliases &&
         a.area_id == b.area_id && a.area_name == b.area_name && a.area_aliases == b.area_aliases &&
         a.floor_id == b.floor_id && a.floor_name == b.floor_name && a.device_id == b.device_id &&
         a.device_name == b.device_name && a.manufacturer == b.manufacturer && a.model == b.model &&
         a.labels == b.labels && a.device_class == b.device_class && a.state == b.state && a.hidden == b.hidden &&
         a.disabled == b.disabled;
}
}  // namespace

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
  if (changes.full_resync || index_.size() == 0) {
    // Documents go into the new index one at a time (see EntityIndex::build).
    const auto started = std::chrono::steady_clock::now();
    index_.build(doc_count_hint(*snapshot), [&](const search::EntityIndex::DocSink& sink) {
      for_each_doc(*snapshot, [&](search::EntityDoc d) { sink(std::move(d)); });
    });
    const auto built = std::chrono::steady_clock::now();
    return_freed_memory();
    spdlog::debug("search index: {} entities indexed in {} ms, freed memory returned in {} ms", index_.size(),
                  elapsed_ms(started, built), elapsed_ms(built, std::chrono::steady_clock::now()));
  } else if (registry_moved) {
    // A registry list was refetched (one rename/area/label edit refetches
    // all of it): rebuild the documents, but touch the index only where a
    // document really changed, so a big home does not stall on every edit.
    std::unordered_set<std::string> now;
    now.reserve(doc_count_hint(*snapshot));
    for_each_doc(*snapshot, [&](search::EntityDoc d) {
      now.insert(d.entity_id);
      std::optional<search::EntityDoc> old = index_.find(d.entity_id);
      if (!old || !same_doc(*old, d)) index_.upsert(std::move(d));
    });
    // The index's own ids (this feed keeps no copy of every id: ~100 bytes each).
    for (const auto& id : index_.entity_ids())
      if (!now.count(id)) index_.remove(id);
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

}  // namespace hamcp::home
