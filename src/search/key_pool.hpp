#pragma once
// The folded keys of the exact filters (domain, state, device class, area,
// floor and label ids/names/aliases), each stored once for the whole index
// and referred to by a 32-bit id. Every entity of a room shares its area's
// keys; as per-entity std::strings (and vectors of them) they cost ~60-100
// bytes each. Reference-counted, so keys that no entity holds any more
// (numeric states change all the time) are given back.
// Not thread-safe (IndexStore's lock serialises it).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/id_table.hpp"

namespace hamcp::search {

using KeyId = std::uint32_t;
inline constexpr KeyId kNoKey = 0xffffffffu;      // an empty key: matches no filter
inline constexpr KeyId kAbsentKey = 0xfffffffeu;  // a filter key no entity has

class KeyPool {
 public:
  // The id of an already folded key, one more holder counted; kNoKey for "".
  KeyId acquire(std::string_view key);
  void release(KeyId id);
  // The id of a key if some entity holds it, else kAbsentKey.
  KeyId find(std::string_view key) const;
  std::size_t size() const noexcept { return ids_.size(); }
  std::size_t heap_bytes() const;

 private:
  std::vector<std::string> texts_;
  std::vector<std::uint32_t> holders_;
  std::vector<KeyId> free_;
  common::IdTable ids_;
};

// Identical key lists stored once: every entity of a room without labels has
// the same area and floor keys, so the index holds one list per room instead
// of a 16-32-byte heap block per entity. Reference-counted like the keys.
class KeyLists {
 public:
  // The stored copy of keys[0, n) with one more holder; nullptr when n is 0.
  const KeyId* acquire(const KeyId* keys, std::size_t n);
  // Gives back one hold of a list acquire() returned (n: its length).
  void release(const KeyId* list, std::size_t n);
  std::size_t size() const noexcept { return ids_.size(); }
  std::size_t heap_bytes() const;

 private:
  struct List {
    std::unique_ptr<KeyId[]> keys;
    std::uint32_t size = 0;
    std::uint32_t holders = 0;
  };
  std::vector<List> lists_;
  std::vector<std::uint32_t> free_;
  common::IdTable ids_;
};

// An entity's filter keys: one each for domain, state and device class, and
// lists for area (id, name, aliases), floor (the same) and labels, in one vector.
// The lists are shared through KeyLists; a FilterKeys moves but is not copied
// (each one holds its list once).
struct FilterKeys {
  KeyId domain = kNoKey, state = kNoKey, device_class = kNoKey;
  std::uint8_t areas = 0, floors = 0, labels = 0;  // lists = areas, then floors, then labels
  const KeyId* lists = nullptr;                    // held in a KeyLists; null when all three are empty

  FilterKeys() = default;
  FilterKeys(FilterKeys&& other) noexcept { *this = std::move(other); }
  FilterKeys& operator=(FilterKeys&& other) noexcept;
  FilterKeys(const FilterKeys&) = delete;
  FilterKeys& operator=(const FilterKeys&) = delete;
  ~FilterKeys() = default;

  bool has_area(KeyId k) const { return in(0, areas, k); }
  bool has_floor(KeyId k) const { return in(areas, std::size_t{areas} + floors, k); }
  bool has_label(KeyId k) const { return in(std::size_t{areas} + floors, list_size(), k); }
  std::size_t list_size() const { return std::size_t{areas} + floors + labels; }
  // Takes the three lists, each at most 255 keys long, shared through `lists`
  // (the one this FilterKeys held before is given back).
  void set_lists(KeyLists& shared, const std::vector<KeyId>& all, std::uint8_t area_count, std::uint8_t floor_count);
  // Gives every key back to the pool and the list back to `shared`.
  void release(KeyPool& pool, KeyLists& shared);

 private:
  bool in(std::size_t begin, std::size_t end, KeyId k) const {
    for (std::size_t i = begin; i < end; ++i)
      if (lists[i] == k) return true;
    return false;
  }
};

}  // namespace hamcp::search
