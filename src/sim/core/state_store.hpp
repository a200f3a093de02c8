#pragma once
// The simulator's run-time state: current entity states (immutable snapshots,
// so history shares them), the event bus, history and logbook records, and the
// registries (kept as the Home's plain data). Thread-safe: every public method
// takes the store's recursive mutex, so tests may poke it while the server
// thread serves clients. Event listeners run synchronously under that mutex and
// must not block (the WebSocket sessions only enqueue a frame).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/home/home_model.hpp"

namespace hamcp::sim {

// An immutable state snapshot plus its serialised forms, filled on first use
// (under the store mutex) so /api/states of a 100k home is mostly memcpy.
struct StoredState : EntityState {
  mutable std::string json_cache;
  mutable std::string compressed_cache;
};
using StatePtr = std::shared_ptr<const StoredState>;

struct Event {
  std::string event_type;
  json::object data;
  std::string origin = "LOCAL";
  Timestamp time_fired = 0;
  Context context;
  // state_changed only: the snapshots behind data.old_state/new_state, so
  // subscribe_entities computes diffs without re-parsing JSON.
  StatePtr old_snapshot;
  StatePtr new_snapshot;
};

struct LogbookEntry {
  Timestamp when = 0;
  std::string entity_id;
  std::string name;
  std::optional<std::string> state;
  std::optional<std::string> message;
  std::string domain;
  Context context;
  std::optional<std::string> context_event_type;
  std::optional<std::string> context_domain;
  std::optional<std::string> context_service;
};

// Wire forms of states and contexts (HA's as_dict / compressed forms).
json::object context_json(const Context& c);
json::object state_json(const EntityState& s);
json::object compressed_state_json(const EntityState& s);
json::object event_json(const Event& e);
// subscribe_entities change for one entity: {"+":{…},"-":{"a":[…]}} (HA's _state_diff).
json::object state_diff_json(const EntityState& old_state, const EntityState& new_state);

class StateStore {
 public:
  using Listener = std::function<void(const Event&)>;

  explicit StateStore(Home home, bool rebase_to_now = true);

  std::recursive_mutex& mutex() const { return mutex_; }

  // --- states
  StatePtr get(std::string_view entity_id) const;
  std::vector<StatePtr> all() const;  // in insertion order
  std::size_t size() const;
  // Sets a state like hass.states.async_set: last_changed moves only when the
  // state string changes, last_updated when state or attributes change;
  // state_changed is fired (unless nothing changed and !force_update).
  // Returns the new snapshot.
  StatePtr set_state(const std::string& entity_id, std::string state, json::object attributes, const Context& context,
                     bool force_update = false);
  bool remove_state(const std::string& entity_id, const Context& context);

  // Serialised /api/states body (cached per entity; big homes stay fast).
  std::string states_array_json() const;
  std::string state_json_cached(const StatePtr& s) const;
  std::string compressed_json_cached(const StatePtr& s) const;

  // --- events
  // "" or "*" = every event. A type starting with '@' is an internal signal (HA's
  // dispatcher, not its bus: e.g. "@config_entry_changed"): only its own listeners hear it.
  uint64_t listen(std::string event_type, Listener listener);
  static bool is_signal(std::string_view event_type) { return !event_type.empty() && event_type[0] == '@'; }
  void unlisten(uint64_t id);
  void fire(std::string event_type, json::object data, const Context& context, std::string origin = "LOCAL",
            StatePtr old_snapshot = nullptr, StatePtr new_snapshot = nullptr);
  // event_type -> listener count (for GET /api/events)
  std::map<std::string, std::size_t> listener_counts() const;
  Context new_context(std::optional<std::string> parent_id = {}, std::optional<std::string> user_id = {});

  // --- history / logbook
  std::vector<StatePtr> history(const std::string& entity_id, Timestamp start, Timestamp end) const;
  std::vector<LogbookEntry> logbook(Timestamp start, Timestamp end) const;
  void add_logbook(LogbookEntry entry);

  // --- registries and configs: plain data, edited under mutex() by the
  // registry commands. The state store keeps it consistent with states.
  Home& home() { return home_; }
  const Home& home() const { return home_; }
  EntityRegistryEntry* entity_entry(std::string_view entity_id);
  Device* device(std::string_view id);
  Area* area(std::string_view id);
  // Renames an entity (registry + state), firing the state_changed pair HA fires.
  void rename_entity(const std::string& old_id, const std::string& new_id, const Context& context);

  std::string user_id() const { return user_id_; }
  Timestamp started_at() const { return started_at_; }

 private:
  void record(const StatePtr& old_state, const StatePtr& new_state);

  mutable std::recursive_mutex mutex_;
  Home home_;
  std::vector<std::string> order_;                    // entity ids in insertion order
  std::unordered_map<std::string, StatePtr> states_;  // entity_id -> current snapshot
  std::unordered_map<std::string, std::vector<StatePtr>> history_;
  std::vector<LogbookEntry> logbook_;
  struct ListenerSlot {
    std::string event_type;
    Listener fn;
  };
  std::map<uint64_t, ListenerSlot> listeners_;
  uint64_t next_listener_ = 1;
  uint64_t ulid_counter_ = 0;
  std::string user_id_;
  Timestamp started_at_;
};

// True when `state` is numeric (e.g. "21.5"); HA's history/statistics only use those.
std::optional<double> numeric_state(std::string_view state);

}  // namespace hamcp::sim
