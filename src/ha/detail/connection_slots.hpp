// How many requests may talk to Home Assistant at once: a counter of slots
// with a FIFO of waiters (a 1,500-call batch once opened 1,500 sockets to HA).
// Threading: every member may be called from any thread; one mutex guards the
// count and the queue, and a waiter is woken on its own timer's executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>

namespace hamcp::ha::detail {

class ConnectionSlots {
 public:
  ConnectionSlots(boost::asio::any_io_executor executor, std::size_t capacity);

  // Waits (at most `timeout`) for a slot. Returns false when the wait ran
  // out; the caller then owns no slot.
  boost::asio::awaitable<bool> acquire(std::chrono::milliseconds timeout);
  // Hands the slot to the oldest waiter, or frees it.
  void release();

  std::size_t capacity() const noexcept { return capacity_; }

 private:
  struct Waiter;
  boost::asio::any_io_executor executor_;
  std::size_t capacity_;
  std::mutex mutex_;
  std::size_t busy_ = 0;                         // slots in use
  std::deque<std::shared_ptr<Waiter>> waiting_;  // oldest first
};

}  // namespace hamcp::ha::detail
