#include "mcp/call_scheduler.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>

namespace hamcp::mcp {

asio::awaitable<void> CallScheduler::wait_turn(const void* owner) {
  if (!turn_taken_ && ring_.empty()) {  // nobody waits: run now, the turn ends behind us
    start_turn();
    co_return;
  }
  auto waiter = std::make_shared<Waiter>(executor_);
  auto& queue = queues_[owner];
  if (queue.empty()) ring_.push_back(owner);
  queue.push_back(waiter);
  ++waiting_;
  if (!turn_taken_) grant_next();  // only abandoned waiters were ahead
  if (waiter->granted) co_return;

  boost::system::error_code ec;
  try {
    auto woken = waiter->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    co_await std::move(woken);
  } catch (...) {  // cancelled before the wait began (Asio's throw_if_cancelled)
    if (!waiter->granted) abandon(*waiter);
    throw;
  }
  if (!waiter->granted) {  // the wake-up was a cancellation, not a grant
    abandon(*waiter);
    throw boost::system::system_error(asio::error::operation_aborted);
  }
}

void CallScheduler::start_turn() {
  turn_taken_ = true;
  // Posted now, so it runs after the granted call's synchronous work (the
  // executor is FIFO) and after whatever completions were already queued.
  asio::post(executor_, [self = shared_from_this()] {
    self->turn_taken_ = false;
    self->grant_next();
  });
}

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
