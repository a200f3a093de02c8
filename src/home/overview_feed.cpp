#include "home/overview_feed.hpp"

namespace hamcp::home {

OverviewFeed::OverviewFeed(ha::HaClient& ha) : ha_(ha) {
  // The listener holds the shared state, not `this`: a publication racing
  // detach() still finds it alive.
  listener_ = ha_.add_change_listener([shared = shared_](const ha::ChangeSet& changes, const ha::SnapshotPtr& snap) {
    std::lock_guard lock(shared->mutex);
    shared->aggregates.apply(changes, snap);
  });
}

OverviewFeed::~OverviewFeed() { detach(); }

void OverviewFeed::detach() {
  if (listener_) ha_.remove_change_listener(listener_);
  listener_ = 0;
}

overview::Summary OverviewFeed::summarize(const ha::SnapshotPtr& latest, const overview::Query& query) {
  std::lock_guard lock(shared_->mutex);
  auto& agg = shared_->aggregates;
  // Behind `latest` with a listener: its change set is being delivered right
  // now (listeners run just after publication); the aggregates' own snapshot
  // is a consistent, microseconds-older view. Without a listener (or before
  // the first build) walk the snapshot once: the mirror's newest one, since a
  // change set published before we held the lock was skipped (not built yet).
  if (latest && (!agg.built() || (listener_ == 0 && agg.snapshot()->version != latest->version))) {
    ha::SnapshotPtr fresh = ha_.snapshot();
    agg.rebuild(fresh && fresh->version >= latest->version ? fresh : latest);
  }
  if (!agg.built()) return {};
  return agg.summarize(query);
}

std::size_t OverviewFeed::rebuilds() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->aggregates.rebuilds();
}

}  // namespace hamcp::home
