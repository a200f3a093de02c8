#pragma once
// Keeps the search index equal to the mirror: rebuilt on a full resync or a
// registry change (names, areas, labels may all move), otherwise updated per
// changed entity. Reads never download anything: they query the index.

#include <atomic>
#include <cstdint>
#include <string>

#include "ha/ha_client.hpp"
#include "search/entity_index.hpp"

namespace hamcp::home {

class SearchFeed {
 public:
  // Indexes the current snapshot at once, then follows the mirror's changes.
  SearchFeed(ha::HaClient& ha, search::EntityIndex& index);
  ~SearchFeed();
  SearchFeed(const SearchFeed&) = delete;
  SearchFeed& operator=(const SearchFeed&) = delete;

  // Snapshot version the index reflects (0 = nothing yet).
  std::uint64_t indexed_version() const noexcept { return version_.load(); }

  // Applies one published change (called by the mirror listener; public for tests).
  void apply(const ha::ChangeSet& changes, const ha::SnapshotPtr& snapshot);

 private:
  ha::HaClient& ha_;
  search::EntityIndex& index_;
  std::size_t listener_ = 0;
  std::atomic<std::uint64_t> version_{0};
};

}  // namespace hamcp::home
