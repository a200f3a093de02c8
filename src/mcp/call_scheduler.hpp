#pragma once
// Fair turns for tool work on the server's executor (issue 8: a well-behaved
// client keeps getting answers while another session floods heavy calls).
//
// Every session runs on the server's one thread. A batch of 64 heavy tool calls
// used to put 64 ready coroutines in the executor's queue at once, and every
// socket completion of every other connection (a tools/list, another session's
// call) waited behind all of them. Here a call waits for its turn before its
// handler starts. Turns are granted one at a time, round-robin across the
// sessions that have calls waiting, and the turn ends in a handler posted
// behind the granted call: socket completions and other sessions' calls
// interleave between any two calls' synchronous work, so one session's 64 calls
// delay another session's call by about one call's work per busy session.
// Cheap methods (initialize, ping, tools/list, logging/setLevel, ...) never
// take a turn: Session answers them inline.
//
// What a turn covers: the call's work up to its first suspension (for tools
// that read the mirror, all of it: handler, result serialisation, output
// schema check). Work after an await on Home Assistant is not gated; it is
// bounded by the per-session and global call caps.
//
// Threading: used on the server's executor only (Session's rule), so no
// locks. With a multi-threaded io_context that executor must be a strand.

#include <boost/asio/steady_timer.hpp>
#include <cstddef>
#include <deque>
#include <memory>
#include <unordered_map>

#include "mcp/json.hpp"

namespace hamcp::mcp {

class CallScheduler : public std::enable_shared_from_this<CallScheduler> {
 public:
  explicit CallScheduler(asio::any_io_executor executor) : executor_(std::move(executor)) {}

  // Resumes when a call of `owner` (an opaque key: the session) may run. Throws
  // boost::system::system_error(operation_aborted) when cancelled while waiting.
  asio::awaitable<void> wait_turn(const void* owner);

  std::size_t waiting() const { return waiting_; }

 private:
  struct Waiter {
    explicit Waiter(const asio::any_io_executor& ex) : wake(ex, asio::steady_timer::time_point::max()) {}
    asio::steady_timer wake;  // cancelled to grant the turn
    bool granted = false;
    bool abandoned = false;  // cancelled while waiting: skipped
  };

  void start_turn();
  void grant_next();
  void abandon(Waiter& waiter);

  asio::any_io_executor executor_;
  std::unordered_map<const void*, std::deque<std::shared_ptr<Waiter>>> queues_;
  std::deque<const void*> ring_;  // owners with waiters, in round-robin order
  bool turn_taken_ = false;
  std::size_t waiting_ = 0;
};

}  // namespace hamcp::mcp
