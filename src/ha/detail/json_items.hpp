#pragma once
// Walks a big JSON array or object from Home Assistant one element at a time,
// so a registry list or the initial states of a large home never exist as one
// DOM (at 100k entities that DOM was ~2.5x the frame's text and set the sync's
// memory peak). Each element is parsed by Boost.JSON's own parser
// (json::parser::write_some stops after one complete value) with HA's depth
// limit, into a small arena that is reused for the next element; only the
// separators between elements ('[', ',', ':', ']', '{', '}', whitespace) are
// read here.
// Threading: none of its own; a walk runs on the caller's thread.

#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>
#include <functional>
#include <optional>
#include <string_view>

namespace hamcp::ha::detail {

// The element lives in a scratch arena and is valid only during the call:
// copy what you keep (moving it out would keep pointers into the arena).
using ItemVisitor = std::function<void(boost::json::value& item)>;
using MemberVisitor = std::function<void(std::string_view key, boost::json::value& value)>;

// text must be exactly one JSON array (whitespace around it allowed).
// Returns false with ec set (and possibly some items visited) when it is not.
bool for_each_item(std::string_view text, const ItemVisitor& visit, boost::system::error_code& ec);
// The same for one JSON object's members, in text order.
bool for_each_member(std::string_view text, const MemberVisitor& visit, boost::system::error_code& ec);

}  // namespace hamcp::ha::detail

namespace hamcp::ha::detail {

// Length of the one JSON value at the start of text (validated by Boost.JSON's
// parser, HA's depth limit, nothing allocated), or nullopt when text does not
// start with a complete, valid value.
std::optional<std::size_t> json_value_length(std::string_view text);

// Where the one JSON value at the start of text ends, found by its structure
// alone (strings and their escapes, bracket depth): ~10x faster than
// json_value_length, and enough where the value is parsed afterwards anyway,
// which rejects what is not valid JSON (the registry lists a sync decodes,
// the messages of a coalesced frame). Exact for valid JSON; nullopt when
// text ends inside the value. A scalar ends at the first ',', ']', '}' or space.
std::optional<std::size_t> json_value_extent(std::string_view text);
// The same; for an object, last_value_at is set to where its last member's
// value starts (just past the last ':' at its top level; 0 when there is
// none), so a caller that needs that value's end need not walk it again.
std::optional<std::size_t> json_value_extent(std::string_view text, std::size_t& last_value_at);

}  // namespace hamcp::ha::detail
