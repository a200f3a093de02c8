#pragma once
// What is left of a WebSocket frame from Home Assistant that nests deeper than
// kHaJsonMaxDepth (ha_json.hpp). Such a frame cannot become a DOM, but
// dropping the whole connection for it failed every command in flight and,
// when the frame was a subscription's initial event, looped: reconnect, same
// frame, drop. Instead the frame is split into its messages (one object, or
// the elements of a coalesced array): the ones within the limit are kept
// whole, the ones beyond it are reduced to their top-level scalars (id, type,
// success; every nested value becomes null), enough for the client to fail
// the one command such a message answers, or to skip and count the event.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace hamcp::ha::detail {

struct DeepFrame {
  boost::json::array whole;                   // messages within the depth limit, in order
  std::vector<boost::json::object> too_deep;  // top-level scalars of each message beyond it
};

// nullopt when the text is not a frame of JSON objects (then it is malformed,
// not merely deep, and the caller treats it as such).
std::optional<DeepFrame> salvage_deep_frame(std::string_view text);

}  // namespace hamcp::ha::detail
