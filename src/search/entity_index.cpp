#include "search/entity_index.hpp"

#include <mutex>

#include "search/index_store.hpp"
#include "search/parallel_build.hpp"

namespace hamcp::search {

EntityIndex::EntityIndex() : store_(std::make_unique<IndexStore>()) {}

EntityIndex::EntityIndex(std::vector<EntityDoc> docs) : EntityIndex() { build(std::move(docs)); }

EntityIndex::~EntityIndex() = default;

void EntityIndex::build(std::vector<EntityDoc> docs) {
  build(docs.size(), [&docs](const DocSink& sink) {
    for (auto& d : docs) {
      sink(std::move(d));
      d = EntityDoc{};  // free each source doc as it is indexed, not all at the end
    }
  });
}

void EntityIndex::build(std::size_t expected, const std::function<void(const DocSink&)>& produce) {
  // Built without the lock so queries keep running on the old content.
  auto fresh = std::make_unique<IndexStore>();
  fresh->reserve(expected);
  fresh->begin_bulk(expected);
  if (expected >= kParallelBuildMin) {
    build_in_parallel(*fresh, produce);
  } else {
    produce([&fresh](EntityDoc d) {
      if (!d.entity_id.empty()) fresh->upsert(std::move(d));
    });
  }
  fresh->end_bulk();
  fresh->shrink_to_fit();
  std::unique_lock lock(mutex_);
  store_.swap(fresh);
  lock.unlock();
  // The old store is freed outside the lock.
}

bool EntityIndex::upsert(EntityDoc doc) {
  if (doc.entity_id.empty()) return false;
  std::unique_lock lock(mutex_);
  store_->upsert(std::move(doc));
  return true;
}

bool EntityIndex::remove(std::string_view entity_id) {
  std::unique_lock lock(mutex_);
  return store_->remove(entity_id);
}

Result EntityIndex::query(const Query& q) const {
  std::shared_lock lock(mutex_);
  return run_query(*store_, q);
}

std::optional<EntityDoc> EntityIndex::find(std::string_view entity_id) const {
  std::shared_lock lock(mutex_);
  const Entry* e = store_->find(entity_id);
  if (!e) return std::nullopt;
  return e->doc.unpack();
}

std::vector<std::string> EntityIndex::entity_ids() const {
  std::shared_lock lock(mutex_);
  return store_->entity_ids();
}

std::size_t EntityIndex::size() const {
  std::shared_lock lock(mutex_);
  return store_->size();
}

IndexStats EntityIndex::stats() const {
  std::shared_lock lock(mutex_);
  return store_->stats();
}

}  // namespace hamcp::search
