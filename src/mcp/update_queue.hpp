#pragma once
// The resources/updated notifications one session still owes its client.
// A uri that changes again while its notification is pending is not queued
// twice (a burst of 100 changes of one entity costs one notification), and the
// set is bounded, so a slow or stalled client cannot grow the server's memory.
// Its uris are subscribed ones and a session may subscribe to at most
// `max_pending` (ServerOptions), so nothing is dropped in practice; past the
// bound a uri would be dropped and counted. The session drains it
// (Session::flush_updates) while its standalone channel is not congested.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace hamcp::mcp {

// How long a drain waits after `retries` drains found the channel congested:
// `base` doubled each time, never more than `max`, so a client that reads again
// gets its coalesced updates at most `max` later (ServerOptions::congested_retry*).
std::chrono::milliseconds congested_delay(std::chrono::milliseconds base, std::chrono::milliseconds max,
                                          unsigned retries);

class UpdateQueue {
 public:
  explicit UpdateQueue(std::size_t max_pending) : max_pending_(max_pending) {}

  enum class Mark { queued, coalesced, dropped };
  Mark mark(std::string_view uri);
  // Oldest first, at most `max` uris; they leave the queue.
  std::vector<std::string> take(std::size_t max);
  void forget(std::string_view uri);  // unsubscribed: nothing owed any more
  void clear();

  std::size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }
  std::uint64_t coalesced() const { return coalesced_; }
  std::uint64_t dropped() const { return dropped_; }

  bool flush_scheduled = false;  // a drain is posted or waiting on a timer
  // Consecutive drains that found the channel congested: the retry backs off
  // (congested_delay), so a client with no reader costs a few timers a second.
  unsigned congested_retries = 0;

 private:
  std::size_t max_pending_;
  std::deque<std::string> order_;            // pending uris, oldest first
  std::unordered_set<std::string> pending_;  // the same, for coalescing
  std::uint64_t coalesced_ = 0, dropped_ = 0;
};

}  // namespace hamcp::mcp
