// StateStore's event bus: listeners by event type ("" = every bus event),
// firing under the store's mutex, and the listener counts GET /api/events shows.
// Types starting with '@' are internal signals (HA's dispatcher): only their
// own listeners hear them.
#include "sim/core/state_store.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim {

uint64_t StateStore::listen(std::string event_type, Listener listener) {
  std::lock_guard lock(mutex_);
  if (event_type == "*") event_type.clear();
  uint64_t id = next_listener_++;
  listeners_[id] = ListenerSlot{std::move(event_type), std::move(listener)};
  return id;
}

void StateStore::unlisten(uint64_t id) {
  std::lock_guard lock(mutex_);
  listeners_.erase(id);
}

void StateStore::fire(std::string event_type, json::object data, const Context& context, std::string origin,
                      StatePtr old_snapshot, StatePtr new_snapshot) {
  std::lock_guard lock(mutex_);
  Event e{std::move(event_type),   std::move(data),        std::move(origin), now_timestamp(), context,
          std::move(old_snapshot), std::move(new_snapshot)};
  // Copy ids first: a listener may unlisten (itself or others) while we iterate.
  std::vector<uint64_t> ids;
  ids.reserve(listeners_.size());
  for (const auto& [id, slot] : listeners_)
    if ((slot.event_type.empty() && !is_signal(e.event_type)) || slot.event_type == e.event_type) ids.push_back(id);
  for (uint64_t id : ids) {
    auto it = listeners_.find(id);
    if (it != listeners_.end()) {
      Listener fn = it->second.fn;  // keep alive if it unlistens itself
      fn(e);
    }
  }
}

std::map<std::string, std::size_t> StateStore::listener_counts() const {
  std::lock_guard lock(mutex_);
  std::map<std::string, std::size_t> out{{"state_changed", 0},
                                         {"call_service", 0},
                                         {"homeassistant_start", 1},
                                         {"homeassistant_started", 1},
                                         {"component_loaded", 0}};
  for (const auto& [id, slot] : listeners_)
    if (!is_signal(slot.event_type)) out[slot.event_type.empty() ? "*" : slot.event_type]++;
  return out;
}

}  // namespace hamcp::sim
