#pragma once
// The one entity search engine used by every hamcp path (tools, resources,
// prompts). Build it once from documents, then keep it current with upsert()
// and remove() as the HA mirror changes; never rebuild per change.
//
// Thread safety: one std::shared_mutex. Queries take a shared lock and run
// concurrently with each other; upsert/remove take the exclusive lock for a
// few microseconds (they only touch the changed entity's postings). We chose
// this over an immutable snapshot swap because HA emits a steady stream of
// single-entity changes: copying a 100k-entity index per change (or a
// persistent data structure) would cost far more than the brief exclusive
// lock, and queries are milliseconds long so writers never wait long.
// build() prepares the new index outside the lock and swaps it in.
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string_view>
#include <vector>

#include "search/types.hpp"

namespace hamcp::search {

class IndexStore;

struct IndexStats {
  std::size_t entities = 0;
  std::size_t tokens = 0;  // distinct vocabulary tokens
  std::size_t postings = 0;
  std::size_t approx_bytes = 0;  // rough heap estimate of the index structures
};

class EntityIndex {
 public:
  EntityIndex();
  explicit EntityIndex(std::vector<EntityDoc> docs);
  ~EntityIndex();
  EntityIndex(const EntityIndex&) = delete;
  EntityIndex& operator=(const EntityIndex&) = delete;

  // Replaces the whole content (documents with an empty entity_id are ignored;
  // a duplicate entity_id keeps the last document).
  void build(std::vector<EntityDoc> docs);
  // The same, with the documents handed over one at a time: produce(sink)
  // calls sink once per document, which is indexed at once, so a rebuild of a
  // 100k-entity home never holds every document (~0.6 KB each) at the same
  // time. expected: how many documents to make room for.
  using DocSink = std::function<void(EntityDoc)>;
  void build(std::size_t expected, const std::function<void(const DocSink&)>& produce);
  // Inserts or replaces one entity (keyed by entity_id). A change that only
  // touches non-indexed data (state, flags) updates no postings.
  // Returns false (and changes nothing) when entity_id is empty.
  bool upsert(EntityDoc doc);
  // Returns false when the entity was not indexed.
  bool remove(std::string_view entity_id);

  Result query(const Query& q) const;

  std::optional<EntityDoc> find(std::string_view entity_id) const;
  // Every indexed entity_id (unordered): for a caller that must find which
  // entities went away, without keeping its own copy of every id.
  std::vector<std::string> entity_ids() const;
  std::size_t size() const;
  IndexStats stats() const;

 private:
  mutable std::shared_mutex mutex_;
  std::unique_ptr<IndexStore> store_;
};

}  // namespace hamcp::search
