#pragma once
// The mirror's current snapshot and its change listeners.
// Threading: any thread may call current(), add_listener() and
// remove_listener(). publish() may be called from any thread: writers are
// serialised by their own mutex and build the next snapshot outside the
// readers' mutex, which is held only to copy one pointer (a reader never
// waits for an update). Listeners run on the publishing thread, in
// publication order, after the new snapshot is visible.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "ha/snapshot.hpp"

namespace hamcp::ha {
using ChangeListener = std::function<void(const ChangeSet& changes, const SnapshotPtr& snapshot)>;
}

namespace hamcp::ha::detail {

class SnapshotPublisher {
 public:
  // on_published runs right after a snapshot becomes current, before the
  // listeners (the mirror updates its status there).
  explicit SnapshotPublisher(std::function<void(const Snapshot&)> on_published);

  SnapshotPtr current() const;  // never null; version 0 = nothing published yet

  // Copies the current snapshot, lets mutate edit the copy (mutate may fill
  // changes: it is the object the listeners see), bumps the version, makes it
  // current and tells the listeners.
  void publish(ChangeSet& changes, const std::function<void(Snapshot&)>& mutate);

  std::size_t add_listener(ChangeListener listener);
  void remove_listener(std::size_t id);

 private:
  std::function<void(const Snapshot&)> on_published_;
  mutable std::mutex current_mutex_;  // held only to copy current_
  SnapshotPtr current_;
  std::mutex write_mutex_;  // serialises writers; readers never take it
  std::uint64_t version_ = 0;
  mutable std::mutex listeners_mutex_;
  std::map<std::size_t, ChangeListener> listeners_;
  std::size_t next_listener_ = 1;
};

}  // namespace hamcp::ha::detail
