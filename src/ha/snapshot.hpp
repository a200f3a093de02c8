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
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/id_table.hpp"
#include "common/iso_time.hpp"
#include "ha/detail/packed_json.hpp"
#include "ha/detail/text_chunks.hpp"
#include "ha/state_context.hpp"

namespace hamcp::ha {

// One member of a packed object (an entity's attributes, a registry item),
// read in place: no Boost.JSON DOM is built. A caller that needs a few fields
// of many objects (the search documents of a whole home: ~15 fields of each
// entity's entry and attributes) visits the members instead of parsing each
// object. Everything it gives is valid during the visit only; a string may be
// decoded into a buffer that the next string read reuses.
class PackedMember {
 public:
  PackedMember(std::string_view key, std::string_view value, const detail::StringPool& pool, std::string& scratch)
      : key_(key), value_(value), pool_(&pool), scratch_(&scratch) {}
  std::string_view key() const noexcept { return key_; }
  bool is_string() const { return detail::string_value(value_, *pool_, *scratch_).has_value(); }
  // The string value, "" when the value is not a string.
  std::string_view string() const { return detail::string_value(value_, *pool_, *scratch_).value_or(""); }
  // fn(text) for every string element of an array value (others skipped).
  void for_each_string(const std::function<void(std::string_view)>& fn) const {
    detail::for_each_array_string(value_, *pool_, *scratch_, fn);
  }

 private:
  std::string_view key_, value_;  // value_: the packed value's bytes
  const detail::StringPool* pool_;
  std::string* scratch_;
};
using MemberVisitor = std::function<void(const PackedMember&)>;

// An entity's attributes in a compact binary form: the values packed as the
// registries' are (detail/packed_json.hpp: numbers keep their kind and bits,
// lowercase hex strings at half size) and, instead of the keys, the id of the
// object's key list, interned once for the process (detail/attribute_keys.hpp:
// a 100k-entity home has a few dozen). One 8-byte pointer in EntityState and
// one heap block; as JSON text it was a 32-byte std::string and ~162 bytes
// (half of them keys), as a Boost.JSON object ~450. Tools decode it when they
// need the values; parse() gives back exactly the object that was stored
// (same order, same numbers), so what a tool prints does not change.
class Attributes {
 public:
  Attributes() = default;
  explicit Attributes(const boost::json::object& attributes);
  Attributes(const Attributes& other);
  Attributes& operator=(const Attributes& other);
  Attributes(Attributes&&) noexcept = default;
  Attributes& operator=(Attributes&&) noexcept = default;
  ~Attributes() = default;
  Attributes& operator=(const boost::json::object& attributes) { return *this = Attributes(attributes); }

  // storage: where the parsed object lives (e.g. a monotonic_resource on the
  // caller's stack for a bulk walk: no malloc per node).
  boost::json::object parse(boost::json::storage_ptr storage = {}) const;
  // The string value of one attribute, "" when absent or not a string.
  std::string string_of(std::string_view key) const;
  // fn(member) for every attribute, in order, read in place (no DOM).
  void visit(const MemberVisitor& fn) const;
  std::string text() const;  // the object serialized ("{}" when empty)
  // Equal objects (same keys in the same order, same values) compare equal.
  bool operator==(const Attributes& other) const noexcept { return block() == other.block(); }

 private:
  std::string_view block() const noexcept;  // size prefix and encoding; empty for {}
  std::unique_ptr<char[]> data_;            // 4-byte size, then the encoding; null for {}
};

struct EntityState {
  std::string entity_id;
  std::string state;
  Attributes attributes;
  double last_changed = 0;  // seconds since the epoch (UTC)
  double last_updated = 0;
  double last_reported = 0;
  StateContext context;  // HA's context: id, parent_id, user_id ("" for null)

  // HA's REST shape: {entity_id, state, attributes, last_changed (ISO), ...}.
  boost::json::object to_json() const;
  // From HA's REST/WebSocket state object (ISO timestamps).
  static std::optional<EntityState> from_json(const boost::json::value& v);
};
using EntityStatePtr = std::shared_ptr<const EntityState>;

// ISO 8601 <-> epoch seconds, as HA writes them ("2026-01-01T00:00:00.123456+00:00").
using common::format_iso_time;
using common::parse_iso_time;

class StateTable {
 public:
  static constexpr std::size_t kShards = 256;
  // A shard's states sorted by entity id: 16 bytes a state (a node map cost
  // a 64-byte node and a bucket each). A shard holds ~size/256 states, so an
  // insert's move of the tail is a few KB at 100k entities.
  using Shard = std::vector<EntityStatePtr>;

  StateTable();
  EntityStatePtr find(std::string_view entity_id) const;
  std::size_t size() const noexcept { return size_; }
  void for_each(const std::function<void(const EntityStatePtr&)>& fn) const;
  std::vector<std::string> entity_ids() const;  // sorted
  // Calls fn(id, before's state, this table's state) for every entity whose
  // state differs between `before` and this table (null: absent from that
  // table). Only shards that differ are walked: between two snapshots a few
  // changed states cost a few shards (~size/256 entries each), not the table.
  using Difference = std::function<void(std::string_view id, const EntityStatePtr& was, const EntityStatePtr& is)>;
  void for_each_difference(const StateTable& before, const Difference& fn) const;

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

// One registry item, parsed from the registry's compact text on lookup. Reads
// like a pointer to the item's object (null when not found); it owns the
// parsed object, so keep it alive while you use what it points to.
class RegistryItem {
 public:
  RegistryItem() = default;
  explicit RegistryItem(boost::json::object object) : object_(std::move(object)), found_(true) {}
  explicit operator bool() const noexcept { return found_; }
  const boost::json::object* get() const noexcept { return found_ ? &object_ : nullptr; }
  const boost::json::object& operator*() const noexcept { return object_; }
  const boost::json::object* operator->() const noexcept { return &object_; }
  friend bool operator==(const RegistryItem& item, std::nullptr_t) noexcept { return !item.found_; }

 private:
  boost::json::object object_;
  bool found_ = false;
};

// A registry list as HA sent it, kept per item in a compact binary form
// (detail/packed_json.hpp: strings that repeat stored once, hex ids at half
// size, numbers as their bits) packed into a few large buffers, plus an index
// by key. As Boost.JSON DOMs the entity and device registries were the
// largest part of the mirror (each of an entry's ~21 keys and strings its own
// allocation, ~2 KB per entity); as JSON text without its keys an entry was
// ~0.35 KB. Lookups decode one item straight into a Boost.JSON value.
class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;  // views into its own buffers
  Registry& operator=(const Registry&) = delete;

  bool available = true;  // false: this HA version has no such registry

  RegistryItem find(std::string_view key, boost::json::storage_ptr storage = {}) const;
  // fn(member) for every member of the item with this key, in order, read in
  // place (no DOM); false (fn not called) when there is no such object item.
  bool visit(std::string_view key, const MemberVisitor& fn) const;
  std::size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }
  boost::json::value item(std::size_t i, boost::json::storage_ptr storage = {}) const;  // parsed, in HA's order
  // Calls fn with every item, parsed in turn into a small arena on the stack
  // (a bulk walk over 100k entries without a malloc per node).
  void for_each(const std::function<void(const boost::json::value&)>& fn) const;

  // Calls fn with the key field of every item that has one, in HA's order,
  // without decoding the items (a walk over 100k ids in microseconds).
  void for_each_key(const std::function<void(std::string_view key)>& fn) const;

  // for (const auto& v : registry.items()): each item parsed in turn.
  class Items {
   public:
    struct iterator {
      const Registry* registry;
      std::size_t i;
      boost::json::value operator*() const { return registry->item(i); }
      iterator& operator++() {
        ++i;
        return *this;
      }
      bool operator==(const iterator& o) const noexcept { return i == o.i; }
    };
    explicit Items(const Registry& r) : r_(&r) {}
    iterator begin() const { return {r_, 0}; }
    iterator end() const { return {r_, r_->size()}; }
    std::size_t size() const noexcept { return r_->size(); }
    bool empty() const noexcept { return r_->empty(); }

   private:
    const Registry* r_;
  };
  Items items() const { return Items(*this); }

  // Consumes items (each is freed once stored).
  static std::shared_ptr<const Registry> make(RegistryKind kind, boost::json::array items, bool available = true);
  // The same from the text of HA's list, one item at a time: the list never
  // exists as a DOM. A text that is not an array of JSON values: nullptr, ec set.
  static std::shared_ptr<const Registry> make_from_text(RegistryKind kind, std::string_view list,
                                                        boost::system::error_code& ec);

 private:
  class Builder;

  detail::TextChunks bytes_;
  detail::StringPool pool_;  // strings that occur more than once, views into bytes_
  // An object item is stored as its values only; its keys, in order, are its
  // shape's (entries of one registry nearly all share one key list, ~45 % of
  // an entity entry's text). Other items are stored as they are.
  static constexpr std::uint32_t kNoShape = ~std::uint32_t{0};
  static constexpr std::uint32_t kNoKey = ~std::uint32_t{0};  // no key field (not indexed)
  struct Stored {
    const char* data = nullptr;  // into bytes_
    std::uint32_t size = 0;
    std::uint32_t shape = kNoShape;
    std::uint32_t key_at = kNoKey, key_size = 0;  // the key field's text within the bytes
    std::string_view bytes() const noexcept { return {data, size}; }
    std::string_view key() const noexcept { return {data + key_at, key_size}; }
  };
  std::vector<Stored> items_;
  std::vector<std::vector<std::string>> shapes_;
  // Positions by key field (the key is the text inside the item's bytes): 8
  // bytes a bucket instead of a node map's ~56 bytes an entry.
  common::IdTable index_;
};
using RegistryPtr = std::shared_ptr<const Registry>;

// What this Home Assistant supports, as discovered while syncing.
struct Capabilities {
  bool websocket = false;
  bool subscribe_entities = false;                // HA >= 2022.4; else state_changed events
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
