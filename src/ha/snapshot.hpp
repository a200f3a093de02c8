#pragma once
// The mirror's immutable view of Home Assistant: states, registries, config and
// services at one version. Readers hold a std::shared_ptr<const Snapshot> and
// never wait for (or see half of) an update. States live in a sharded
// copy-on-write table so an update copies one small shard, not 100k entities.

#include <array>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hamcp::ha {

struct EntityState {
  std::string entity_id;
  std::string state;
  boost::json::object attributes;
  double last_changed = 0;   // seconds since the epoch (UTC)
  double last_updated = 0;
  double last_reported = 0;
  std::string context_id;
  std::string context_user_id;
  std::string context_parent_id;

  // HA's REST shape: {entity_id, state, attributes, last_changed (ISO), ...}.
  boost::json::object to_json() const;
  // From HA's REST/WebSocket state object (ISO timestamps).
  static std::optional<EntityState> from_json(const boost::json::value& v);
};
using EntityStatePtr = std::shared_ptr<const EntityState>;

// ISO 8601 <-> epoch seconds, as HA writes them ("2026-01-01T00:00:00.123456+00:00").
std::string format_iso_time(double epoch_seconds);
std::optional<double> parse_iso_time(std::string_view text);

class StateTable {
 public:
  static constexpr std::size_t kShards = 256;
  using Shard = std::unordered_map<std::string, EntityStatePtr>;

  StateTable();
  EntityStatePtr find(std::string_view entity_id) const;
  std::size_t size() const noexcept { return size_; }
  void for_each(const std::function<void(const EntityStatePtr&)>& fn) const;
  std::vector<std::string> entity_ids() const;  // sorted

 private:
  friend class StateTableBuilder;
  std::array<std::shared_ptr<const Shard>, kShards> shards_;
  std::size_t size_ = 0;
};

// Mutable working copy of a StateTable: shards are copied on first write.
class StateTableBuilder {
 public:
  explicit StateTableBuilder(const StateTable& base);
  EntityStatePtr find(std::string_view entity_id) const;
  void put(EntityStatePtr state);
  bool erase(const std::string& entity_id);
  void clear();
  StateTable build();

 private:
  StateTable::Shard& writable(std::size_t index);
  StateTable table_;
  std::array<std::shared_ptr<StateTable::Shard>, StateTable::kShards> owned_;
};

enum class RegistryKind { entity, device, area, floor, label, category };
inline constexpr std::size_t kRegistryKinds = 6;
std::string_view to_string(RegistryKind kind) noexcept;
// Key field of one item: entity_id, id (device), area_id, floor_id, label_id, category_id.
std::string_view registry_key_field(RegistryKind kind) noexcept;

struct Registry {
  boost::json::array items;
  std::unordered_map<std::string, std::size_t> index;  // key field -> position
  bool available = true;  // false: this HA version has no such registry
  const boost::json::object* find(std::string_view key) const;
  static std::shared_ptr<const Registry> make(RegistryKind kind, boost::json::array items, bool available = true);
};
using RegistryPtr = std::shared_ptr<const Registry>;

// What this Home Assistant supports, as discovered while syncing.
struct Capabilities {
  bool websocket = false;
  bool subscribe_entities = false;  // HA >= 2022.4; else state_changed events
  std::array<bool, kRegistryKinds> registries{};  // per RegistryKind
};

struct Snapshot {
  std::uint64_t version = 0;
  StateTable states;
  std::array<RegistryPtr, kRegistryKinds> registries;
  std::shared_ptr<const boost::json::object> config;    // get_config
  std::shared_ptr<const boost::json::object> services;  // domain -> {service -> description}
  Capabilities capabilities;
  std::string ha_version;

  const Registry& registry(RegistryKind kind) const;
};
using SnapshotPtr = std::shared_ptr<const Snapshot>;

// What one published update changed. full_resync: anything may have changed
// (first sync, reconnect, REST poll); rebuild derived data from the snapshot.
struct ChangeSet {
  std::uint64_t version = 0;
  bool full_resync = false;
  std::vector<std::string> states_added;
  std::vector<std::string> states_changed;
  std::vector<std::string> states_removed;
  std::vector<RegistryKind> registries_changed;
  bool config_changed = false;
  bool services_changed = false;
  bool empty() const {
    return !full_resync && states_added.empty() && states_changed.empty() && states_removed.empty() &&
           registries_changed.empty() && !config_changed && !services_changed;
  }
};

}  // namespace hamcp::ha
