#pragma once
// Waits for the mirror to show a condition on some entities ("light.kitchen is
// on"), bounded by a timeout. One mirror listener serves every waiter; a
// waiter only re-checks when a change touches its entities, so waiting costs
// nothing per call beyond a timer. Used by ha_call_service(wait) and
// ha_bulk_control to confirm what a service call did.

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ha/ha_client.hpp"

namespace hamcp::home {

class StateWatch {
 public:
  using Predicate = std::function<bool(const ha::Snapshot&)>;
  explicit StateWatch(ha::HaClient& ha);
  ~StateWatch();
  StateWatch(const StateWatch&) = delete;
  StateWatch& operator=(const StateWatch&) = delete;

  struct Outcome {
    bool satisfied = false;
    ha::SnapshotPtr snapshot;  // the latest snapshot when the wait ended
  };
  // Checks `pred` now and after every change touching `entity_ids` (or any
  // full resync) until it holds or `timeout` passes. Client cancellation
  // aborts the wait (operation_aborted propagates).
  boost::asio::awaitable<Outcome> wait_for(std::vector<std::string> entity_ids, Predicate pred,
                                           std::chrono::milliseconds timeout);

  std::size_t waiting() const;
  // Stops listening to the mirror (idempotent). Call before the HaClient dies
  // when this object may outlive it (it is shared with tool handlers).
  void detach();

  struct Waiter;

 private:
  // Shared with pending waits: a wait's frame destroyed after this object
  // (e.g. io_context torn down later) must still unregister safely.
  struct Shared {
    std::mutex mutex;
    std::vector<std::shared_ptr<Waiter>> waiters;
  };
  static void on_change(Shared& shared, const ha::ChangeSet& changes, const ha::SnapshotPtr& snapshot);

  ha::HaClient& ha_;
  std::size_t listener_ = 0;
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

}  // namespace hamcp::home
