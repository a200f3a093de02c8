#pragma once
// What Home Assistant sends, in order: each frame is parsed (a big one on a
// worker thread, so pings and other answers keep flowing), then its messages
// are handed out -- results and pongs to the commands waiting in WsCalls,
// events to their subscription's handler. Events keep their order behind a
// frame still being parsed; answers to commands do not wait for it.
// Threading: strand only, except parse(), which any thread may run on a slot
// that only it holds.

#include <atomic>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ha/connection_config.hpp"
#include "ha/detail/repeat_limiter.hpp"
#include "ha/detail/ws_calls.hpp"

namespace hamcp::ha::detail {

// A received frame waiting to be dispatched in order (big ones parse elsewhere).
struct Slot {
  bool ready = false;
  boost::json::value value;
  std::optional<std::string> parse_error;
  // Messages nesting deeper than kHaJsonMaxDepth, reduced to their top-level
  // scalars (deep_frame.hpp): each fails its command or is skipped as an event.
  std::vector<boost::json::object> too_deep;
  // A successful result in HA's layout that a command_raw() waits for: its
  // text is handed over (raw) instead of parsed into value.
  std::optional<std::uint64_t> raw_for;
  std::size_t raw_offset = 0;
  std::optional<RawResult> raw;
};

// A message whose parse the caller runs elsewhere (a worker thread), then
// hands its slot to parsed(). text lies inside frame.
struct ParseJob {
  std::shared_ptr<Slot> slot;
  std::shared_ptr<boost::beast::flat_buffer> frame;
  std::string_view text;
};

class WsInbox {
 public:
  WsInbox(WsCalls& calls, const ConnectionSettings& settings, std::size_t offload_parse_bytes)
      : calls_(calls), settings_(settings), offload_parse_bytes_(offload_parse_bytes) {}

  // A message of at least offload_parse_bytes is queued and returned as a
  // job: the caller parse()s it elsewhere and then hands its slot to
  // parsed(). Smaller ones are parsed, freed and dispatched here. A big
  // coalesced frame is split into its messages (see split_coalesced).
  std::vector<ParseJob> receive(boost::beast::flat_buffer& buffer);
  static void parse(Slot& slot, const std::shared_ptr<boost::beast::flat_buffer>& frame, std::string_view text);
  static void parse_text(Slot& slot, std::string_view text);
  void parsed(const std::shared_ptr<Slot>& slot);

  // Set when a frame was not JSON: the connection must go.
  const std::optional<std::string>& protocol_failure() const { return protocol_failure_; }
  // A new connection: nothing queued, no failure.
  void reset();
  std::uint64_t too_deep_events() const { return too_deep_events_.load(); }

 private:
  bool split_coalesced(boost::beast::flat_buffer& buffer, std::vector<ParseJob>& jobs);
  void enqueue_ready(const std::shared_ptr<Slot>& slot);
  void deliver_raw(Slot& slot);
  void drain();
  void dispatch_non_events(Slot& slot);
  void reject_too_deep(const boost::json::object& m);
  void dispatch_message(boost::json::value& m);
  void deliver_event(std::uint64_t wire_id, boost::json::object& m);
  void deliver_result(std::uint64_t id, std::string_view type, boost::json::object& m);

  WsCalls& calls_;
  const ConnectionSettings& settings_;
  std::size_t offload_parse_bytes_;
  std::deque<std::shared_ptr<Slot>> queue_;
  std::optional<std::string> protocol_failure_;
  RepeatLimiter frame_log_;
  std::atomic<std::uint64_t> too_deep_events_{0};
};

}  // namespace hamcp::ha::detail
