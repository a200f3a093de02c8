#pragma once
// A client-side io_context on its own thread, so HA clients make progress
// while the test thread waits; every wait is bounded.

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <thread>

namespace hamcp::ha::testing {

class ClientLoop {
 public:
  ClientLoop() : guard_(ioc_.get_executor()), thread_([this] { ioc_.run(); }) {}
  ~ClientLoop() {
    guard_.reset();
    ioc_.stop();
    thread_.join();
  }
  boost::asio::any_io_executor executor() { return ioc_.get_executor(); }

  template <class T>
  T run(boost::asio::awaitable<T> op, std::chrono::milliseconds limit = std::chrono::seconds(15)) {
    auto fut = boost::asio::co_spawn(ioc_, std::move(op), boost::asio::use_future);
    if (fut.wait_for(limit) != std::future_status::ready) {
      throw std::runtime_error("operation did not finish within the test's time bound");
    }
    return fut.get();
  }

 private:
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::thread thread_;
};

// Poll pred until true or the limit passes.
inline bool wait_until(const std::function<bool()>& pred, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace hamcp::ha::testing
