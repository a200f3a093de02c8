#pragma once
// Keeps ha_get_overview's aggregates current from the mirror's change sets,
// so an overview costs O(domains + areas + listed entities) instead of a walk
// over every state. Built on the first overview call (homes that never ask
// pay nothing), then maintained by one mirror listener; concurrent callers
// share it and the first build happens once.

#include <cstddef>
#include <memory>
#include <mutex>

#include "ha/ha_client.hpp"
#include "home/overview_data.hpp"

namespace hamcp::home {

class OverviewFeed {
 public:
  explicit OverviewFeed(ha::HaClient& ha);
  ~OverviewFeed();
  OverviewFeed(const OverviewFeed&) = delete;
  OverviewFeed& operator=(const OverviewFeed&) = delete;

  // Numbers for `latest` (a snapshot the caller just read) or a newer one.
  // Summary::snapshot is the snapshot they describe: render from that one.
  overview::Summary summarize(const ha::SnapshotPtr& latest, const overview::Query& query);

  std::size_t rebuilds() const;  // full walks so far (tests, diagnostics)
  // Stops listening to the mirror (idempotent); call before the HaClient dies.
  void detach();

 private:
  struct Shared {
    mutable std::mutex mutex;
    overview::OverviewAggregates aggregates;
  };
  ha::HaClient& ha_;
  std::size_t listener_ = 0;  // 0: no mirror, nothing tells us about changes
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

}  // namespace hamcp::home
