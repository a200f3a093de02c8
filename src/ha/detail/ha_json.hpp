#pragma once
// Parsing what Home Assistant sends (WebSocket frames, REST bodies).
//
// Boost.JSON's default depth limit is 32. An entity whose attributes nest 29
// deep sits at depth 32+ inside a WebSocket event or a get_states result, so
// with the default one ordinary (if odd) entity made every frame carrying it
// "too deep": the mirror dropped the connection, reconnected, got the same
// frame, and looped. Home Assistant itself puts no limit on attribute nesting.
// 256 leaves room for any real entity while keeping the recursion of our own
// walkers (value destruction, the JSON writer, schema checks) shallow.

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>
#include <memory>
#include <string_view>

#include "ha/detail/message_arena.hpp"

namespace hamcp::ha::detail {

inline constexpr std::size_t kHaJsonMaxDepth = 256;
// Messages at least this big are parsed into a MessageArena of their own
// (see message_arena.hpp); small ones (events, command results) use malloc.
inline constexpr std::size_t kArenaMessageBytes = std::size_t{256} * 1024;

inline boost::json::value parse_ha_json(std::string_view text, boost::system::error_code& ec) {
  boost::json::parse_options options;
  options.max_depth = kHaJsonMaxDepth;
  boost::json::storage_ptr storage;
  if (text.size() >= kArenaMessageBytes) storage = make_message_arena();
  return boost::json::parse(text, ec, std::move(storage), options);
}

// Makes dst the value src holds, in src's own storage. Assigning a
// json::value keeps the target's storage and copies into it node by node:
// for a message parsed into a MessageArena that copied the whole DOM into
// malloc (the initial states of a 100k-entity home: ~70 MB of small blocks,
// and the holes they left in the heap after the sync).
inline void adopt_value(boost::json::value& dst, boost::json::value&& src) noexcept {
  std::destroy_at(&dst);
  std::construct_at(&dst, std::move(src));
}

}  // namespace hamcp::ha::detail
