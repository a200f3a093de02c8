#pragma once
// Fair turns for tool work on the server's executor (issue 8: a well-behaved
// client keeps getting answers while another session floods heavy calls).
//
// Every session runs on the server's one thread. A batch of 64 heavy tool calls
// used to put 64 ready coroutines in the executor's queue at once, and every
// socket completion of every other connection (a tools/list, another session's
// call) waited behind all of them. Here a call waits for its turn before its
// handler starts. A turn is a short slice of the thread's time: it opens when a
// call starts with no slice open, and ends in a handler posted behind that call.
// While the slice is younger than its budget (kSliceBudget), further calls run
// at once: the light calls of a batch, or of connections whose requests came in
// together, share one slice, and none of them pays a wait, a timer or a
// hand-over (bench/http/THROUGHPUT.md, session 12). A call that comes when the
// slice is older waits. At the end of each slice the next waiting call is
// granted a slice of its own, round-robin across the sessions that have calls
// waiting. Socket completions and other sessions' calls so interleave between
// slices: one session's calls delay another session's call by about one slice
// (the budget, or one call's work when that is longer) per busy session. Cheap
// methods (initialize, ping, tools/list, logging/setLevel, ...) never take a
// turn: Session answers them inline.
//
// What a turn covers: the call's work up to its first suspension (for tools
// that read the mirror, all of it: handler, result serialisation, output
// schema check). Work after an await on Home Assistant is not gated; it is
// bounded by the per-session and global call caps.
//
// Threading: used on the server's executor only (Session's rule), so no
// locks. With a multi-threaded io_context that executor must be a strand.

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <unordered_map>

#include "mcp/json.hpp"

namespace hamcp::mcp {

class CallScheduler : public std::enable_shared_from_this<CallScheduler> {
 public:
  // How long after a slice opened calls may still start at once: a few dozen light calls.
  static constexpr std::chrono::microseconds kSliceBudget{500};

  explicit CallScheduler(asio::any_io_executor executor, std::chrono::microseconds slice_budget = kSliceBudget)
      : executor_(std::move(executor)), slice_budget_(slice_budget) {}

  // Resumes when a call of `owner` (an opaque key: the session) may run: at once
  // when no slice is open or the open one has room, else at a later slice. Throws
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
  bool slice_has_room() const;
  void grant_next();
  void abandon(Waiter& waiter);

  asio::any_io_executor executor_;
  std::chrono::microseconds slice_budget_;
  std::unordered_map<const void*, std::deque<std::shared_ptr<Waiter>>> queues_;
  std::deque<const void*> ring_;  // owners with waiters, in round-robin order
  bool turn_taken_ = false;       // a slice is open; its end is posted
  std::chrono::steady_clock::time_point slice_start_;
  std::size_t waiting_ = 0;
};

}  // namespace hamcp::mcp
