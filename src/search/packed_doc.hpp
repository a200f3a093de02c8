#pragma once
// An EntityDoc as the index keeps it: every text in one buffer, each behind a
// short length prefix. The index reads a document's texts only to build its
// tokens and for the few hits a query returns; as a struct of 15 strings and 4
// vectors a document took ~570 bytes inline even when most fields were empty
// (plus a heap block per text longer than 15 bytes). Packed: ~130 bytes (a
// text repeated within the document is a 2-byte back-reference, a hex device id
// takes 16 bytes).
//
// Where the entity is (area and floor: ids, names, aliases, ~80 bytes) is the
// same for every entity of a room, so it is packed apart and shared through a
// PlacePool when the index builds the document.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "search/types.hpp"

namespace hamcp::search {

class PlacePool;

class PackedDoc {
 public:
  PackedDoc() = default;
  // pool: where to share the place part (null: the document keeps its own).
  explicit PackedDoc(const EntityDoc& doc, PlacePool* pool = nullptr);

  EntityDoc unpack() const;
  std::string_view entity_id() const;  // the first packed text
  bool hidden() const noexcept { return hidden_; }
  bool disabled() const noexcept { return disabled_; }
  // The document's own heap (a shared place counts for the pool).
  std::size_t heap_bytes() const noexcept { return size_; }

 private:
  std::string_view bytes() const noexcept { return {bytes_.get(), size_}; }

  // Exactly sized, not a std::string: 12 bytes inline instead of 32 (every
  // document is longer than a short string's 15 bytes anyway).
  std::unique_ptr<char[]> bytes_;
  std::uint32_t size_ = 0;
  bool hidden_ = false;
  bool disabled_ = false;
  std::shared_ptr<const std::string> place_;  // null when the entity has no area or floor
};

// One copy of each distinct packed place. Not thread-safe: used by the index's
// writers, under its exclusive lock. Places no document holds any more are
// dropped every so often (areas are few, renames rare).
class PlacePool {
 public:
  std::shared_ptr<const std::string> share(std::string packed);
  std::size_t size() const noexcept { return places_.size(); }
  std::size_t heap_bytes() const noexcept;
  void drop_unused();

 private:
  // Keyed by a view of the shared string itself.
  std::unordered_map<std::string_view, std::shared_ptr<const std::string>> places_;
  std::size_t added_since_sweep_ = 0;
};

}  // namespace hamcp::search
