#pragma once
// The initial states, held while a sync fetches config, services and the
// registries, so that they are published in the same update: listeners (the
// search index) then build their view of every entity once, not once for the
// states and again for the registries (each a full rebuild next to the old
// view: on a 100k-entity home that is seconds and ~100 MB of peak).
// Threading: offer() and edit_held() run on the WebSocket client's strand,
// begin() and end() on the mirror's; one mutex guards the held table.

#include <functional>
#include <mutex>
#include <optional>

#include "ha/snapshot.hpp"

namespace hamcp::ha::detail {

class InitialStates {
 public:
  // A sync starts: hold the initial states from now on.
  void begin();
  // The sync is done (or failed): whatever is held, for it to publish.
  std::optional<StateTable> end();
  // Is a sync waiting for the initial states? (false: publish them as usual)
  bool waiting() const;
  // Hold table for the running sync. Gives it back when the sync ended in the
  // meantime: the caller publishes it then.
  std::optional<StateTable> offer(StateTable table);
  // Changes that arrive while the initial states are held go into them, so the
  // sync publishes the current states, not those of the first event. False
  // when nothing is held: publish the change as usual.
  bool edit_held(const std::function<void(StateTableBuilder&)>& edit);

 private:
  mutable std::mutex mutex_;
  bool staging_ = false;
  std::optional<StateTable> held_;
};

}  // namespace hamcp::ha::detail
