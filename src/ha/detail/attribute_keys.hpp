#pragma once
// The key lists of entities' attribute objects, interned once for the whole
// process. On a generated 100k-entity home the states' attributes have 37
// distinct key lists, and the keys were half of each object's JSON text
// (~84 of ~162 bytes): ha::Attributes now keeps an object's values and the id
// of its key list.
// Threading: intern_attribute_keys() may be called from any thread (a mutex);
// attribute_keys() is lock-free. A list, once interned, never changes or goes
// away, so an id read from an Attributes published to another thread stays valid.
#include <boost/json/object.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hamcp::ha::detail {

using AttributeKeys = std::vector<std::string>;

// At most this many lists are interned (bounded memory whatever the
// attributes look like); an object with more keys than kMaxInternedKeys, or
// one met when the table is full, keeps its keys beside its values.
inline constexpr std::uint32_t kMaxKeyLists = 4096;
inline constexpr std::size_t kMaxInternedKeys = 64;

// The id of o's key list (in order), interned now if new; nullopt when o is
// empty, has too many keys, or the table is full.
std::optional<std::uint16_t> intern_attribute_keys(const boost::json::object& o);
// The list of an id that intern_attribute_keys() returned.
const AttributeKeys& attribute_keys(std::uint16_t id);
std::size_t attribute_key_lists();  // how many are interned
// Whether o's keys are exactly keys, in order (also the registries' shape check).
bool same_keys(const boost::json::object& o, const std::vector<std::string>& keys);

}  // namespace hamcp::ha::detail
