#pragma once
// An EntityDoc as the index keeps it: every text in one buffer, each behind a
// short length prefix. The index reads a document's texts only to build its
// tokens and for the few hits a query returns; as a struct of 15 strings and 4
// vectors a document took ~570 bytes inline even when most fields were empty
// (plus a heap block per text longer than 15 bytes). Packed: ~200 bytes.
#include <string>
#include <string_view>

#include "search/types.hpp"

namespace hamcp::search {

class PackedDoc {
 public:
  PackedDoc() = default;
  explicit PackedDoc(const EntityDoc& doc);

  EntityDoc unpack() const;
  std::string_view entity_id() const;  // the first packed text
  bool hidden() const noexcept { return hidden_; }
  bool disabled() const noexcept { return disabled_; }
  std::size_t heap_bytes() const noexcept { return bytes_.capacity() > 15 ? bytes_.capacity() + 1 : 0; }

 private:
  std::string bytes_;
  bool hidden_ = false;
  bool disabled_ = false;
};

}  // namespace hamcp::search
