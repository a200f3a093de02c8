#include "ha/detail/connection_slots.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace hamcp::ha::detail {

namespace asio = boost::asio;

struct ConnectionSlots::Waiter {
  explicit Waiter(asio::any_io_executor ex) : timer(std::move(ex)) {}
  asio::steady_timer timer;
  bool granted = false;  // guarded by ConnectionSlots::mutex_
};

ConnectionSlots::ConnectionSlots(asio::any_io_executor executor, std::size_t capacity)
    : executor_(std::move(executor)), capacity_(capacity) {}

asio::awaitable<bool> ConnectionSlots::acquire(std::chrono::milliseconds timeout) {
  auto waiter = std::make_shared<Waiter>(executor_);
  {
    std::lock_guard lock(mutex_);
    if (busy_ < capacity_) {
      ++busy_;
      co_return true;
    }
    waiter->timer.expires_after(timeout);
    waiting_.push_back(waiter);
  }
  boost::system::error_code ec;
  co_await waiter->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  std::lock_guard lock(mutex_);
  if (waiter->granted) co_return true;  // release() passed its slot on to us
  std::erase(waiting_, waiter);
  co_return false;
}

void ConnectionSlots::release() {
  std::shared_ptr<Waiter> next;
  {
    std::lock_guard lock(mutex_);
    if (waiting_.empty()) {
      --busy_;
      return;
    }
    next = std::move(waiting_.front());
    waiting_.pop_front();
    next->granted = true;  // the slot passes on; busy_ is unchanged
  }
  asio::post(next->timer.get_executor(), [next] { next->timer.cancel(); });
}

}  // namespace hamcp::ha::detail
