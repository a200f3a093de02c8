#pragma once
// A compact binary form of JSON values for the mirror's registries: every
// registry entry was kept as JSON text (~0.6 KB per entity and device entry
// on a generated home), and each lookup parsed that text. Here:
//   - numbers keep their kind and bits (int64 / uint64 / double), so what a
//     tool prints is exactly what the text form printed;
//   - a string that occurs again (config entry ids, platforms, area ids,
//     manufacturers, models) is stored once per registry and referenced;
//   - lowercase hex strings of even length (HA's 32-character uuids: entity
//     registry ids, device ids) take half their size;
//   - decoding builds the Boost.JSON value directly: no text parser.
// Threading: a StringPool is built by one thread (Registry::make) and only
// read afterwards, when it is immutable and may be shared.

#include <boost/json/array.hpp>
#include <boost/json/storage_ptr.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/id_table.hpp"
#include "ha/detail/text_chunks.hpp"

namespace hamcp::ha::detail {

// Strings that occur more than once in one registry, each stored once. While
// building, every candidate string's first occurrence is remembered (a view
// into the encoded bytes, so no copy); the second occurrence makes it shared.
class StringPool {
 public:
  // Index of s if it is shared; otherwise nullopt (and s is remembered:
  // call remember() with the view of the bytes it was written to).
  std::optional<std::uint32_t> shared(std::string_view s);
  void remember(std::string_view stored);
  std::string_view at(std::uint32_t i) const { return strings_.at(i); }
  // Building is over: drop the lookup table (the pool keeps only its strings).
  void freeze();

 private:
  static constexpr std::uint32_t kSeenOnce = ~std::uint32_t{0};
  std::vector<std::string_view> strings_;  // views into the registry's chunks
  // Building only: every string seen, by text, in an open-addressing table (a
  // node map cost an allocation per distinct string: ~1M at 100k entities).
  struct Seen {
    std::string_view text;
    std::uint32_t shared = kSeenOnce;  // its index in strings_ once seen twice
  };
  std::vector<Seen> seen_;
  common::IdTable ids_;
};

// Appends the encoding of v to out. Strings eligible for the pool are written
// inline the first time; their positions in out are listed in inline_strings
// (offset, length) so the caller can remember() them once out is stored.
struct PackedWriter {
  StringPool& pool;
  std::string& out;
  std::vector<std::pair<std::size_t, std::size_t>>& inline_strings;

  void value(const boost::json::value& v);
  // A string that must stay readable in place (an index key): inline, never
  // hex or pooled. Returns its offset in out.
  std::size_t plain_string(std::string_view s);
  void values_of(const boost::json::object& o);  // an object's values only, in order (its shape is elsewhere)

 private:
  void string(std::string_view s);
  void varint(std::uint64_t n);
};

// Decodes one value from the front of in (advancing it).
boost::json::value unpack_value(std::string_view& in, const StringPool& pool, const boost::json::storage_ptr& sp);

// Reading in place, without a DOM: a caller that needs a few fields of many
// items (the search documents of a whole home) walks the bytes instead.
// The bytes of the value at the front of in (advancing in past it).
std::string_view take_value(std::string_view& in);
// The text of a packed string value (a view into value or the pool, or the
// hex digits written into scratch); nullopt when value is no string.
std::optional<std::string_view> string_value(std::string_view value, const StringPool& pool, std::string& scratch);
// fn(text) for every string element of a packed array value (others skipped).
void for_each_array_string(std::string_view value, const StringPool& pool, std::string& scratch,
                           const std::function<void(std::string_view)>& fn);
// fn(key, value's bytes) for every member of a packed object value, in order;
// false when value is no object. The key may be a view into key_scratch.
bool for_each_member(std::string_view value, const StringPool& pool, std::string& key_scratch,
                     const std::function<void(std::string_view key, std::string_view value)>& fn);

}  // namespace hamcp::ha::detail
