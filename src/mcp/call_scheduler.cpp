#include "mcp/call_scheduler.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>

namespace hamcp::mcp {

asio::awaitable<void> CallScheduler::wait_turn(const void* owner) {
  if (!turn_taken_) {  // nobody waits (granting keeps a slice open while anybody does)
    start_turn();      // run now; the slice ends behind us
    co_return;
  }
  // Within the open slice: run now, even ahead of calls waiting for a later
  // slice (they are granted at its end, so the wait they see stays bounded).
  // Were it FIFO, a steady load would queue every call once one had to wait.
  if (slice_has_room()) co_return;
  auto waiter = std::make_shared<Waiter>(executor_);
  auto& queue = queues_[owner];
  if (queue.empty()) ring_.push_back(owner);
  queue.push_back(waiter);
  ++waiting_;

  boost::system::error_code ec;
  try {
    auto woken = waiter->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    co_await std::move(woken);
  } catch (...) {  // cancelled before the wait began (Asio's throw_if_cancelled)
    if (!waiter->granted) abandon(*waiter);
    throw;
  }
  // Cancelled: its wake-up may have been queued before a grant came, so the
  // grant does not count (the slice it opened just ends).
  const asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
  if (!waiter->granted || state.cancelled() != asio::cancellation_type::none) {
    if (!waiter->granted) abandon(*waiter);
    throw boost::system::system_error(asio::error::operation_aborted);
  }
}

void CallScheduler::start_turn() {
  turn_taken_ = true;
  slice_start_ = std::chrono::steady_clock::now();
  // Posted now, so it runs after the granted call's synchronous work (the
  // executor is FIFO) and after whatever completions were already queued.
  asio::post(executor_, [self = shared_from_this()] {
    self->turn_taken_ = false;
    self->grant_next();
  });
}

bool CallScheduler::slice_has_room() const { return std::chrono::steady_clock::now() - slice_start_ < slice_budget_; }

void CallScheduler::grant_next() {
  while (!ring_.empty()) {
    const void* owner = ring_.front();
    ring_.pop_front();
    auto it = queues_.find(owner);
    std::shared_ptr<Waiter> waiter = std::move(it->second.front());
    it->second.pop_front();
    --waiting_;
    if (it->second.empty())
      queues_.erase(it);
    else
      ring_.push_back(owner);  // its next call waits for the other sessions' turns
    if (waiter->abandoned) continue;
    waiter->granted = true;
    waiter->wake.cancel();
    start_turn();
    return;
  }
}

void CallScheduler::abandon(Waiter& waiter) {
  waiter.abandoned = true;
  if (!turn_taken_) grant_next();  // drain it now rather than at the next turn
}

}  // namespace hamcp::mcp
