#include "ha/detail/snapshot_publisher.hpp"

#include <spdlog/spdlog.h>

#include <exception>
#include <utility>
#include <vector>

namespace hamcp::ha::detail {

SnapshotPublisher::SnapshotPublisher(std::function<void(const Snapshot&)> on_published)
    : on_published_(std::move(on_published)), current_(std::make_shared<const Snapshot>()) {}

SnapshotPtr SnapshotPublisher::current() const {
  std::lock_guard lock(current_mutex_);
  return current_;
}

void SnapshotPublisher::publish(ChangeSet& changes, const std::function<void(Snapshot&)>& mutate) {
  std::lock_guard write(write_mutex_);
  auto next = std::make_shared<Snapshot>(*current());
  mutate(*next);
  next->version = ++version_;
  changes.version = next->version;
  SnapshotPtr frozen = next;
  {
    std::lock_guard lock(current_mutex_);
    current_ = frozen;
  }
  if (on_published_) on_published_(*frozen);
  // Copied so a listener may add or remove listeners without deadlocking.
  std::vector<ChangeListener> to_call;
  {
    std::lock_guard lock(listeners_mutex_);
    to_call.reserve(listeners_.size());
    for (auto& [id, fn] : listeners_) to_call.push_back(fn);
  }
  for (auto& fn : to_call) {
    try {
      fn(changes, frozen);
    } catch (const std::exception& e) {
      spdlog::error("ha mirror: change listener threw: {}", e.what());
    }
  }
}

std::size_t SnapshotPublisher::add_listener(ChangeListener listener) {
  std::lock_guard lock(listeners_mutex_);
  const std::size_t id = next_listener_++;
  listeners_.emplace(id, std::move(listener));
  return id;
}

void SnapshotPublisher::remove_listener(std::size_t id) {
  std::lock_guard lock(listeners_mutex_);
  listeners_.erase(id);
}

}  // namespace hamcp::ha::detail
