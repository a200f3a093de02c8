#pragma once
// Run a coroutine to completion on a private io_context, bounded in time.

#include <gtest/gtest.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <chrono>
#include <future>
#include <stdexcept>

#include "ha/connection_config.hpp"

namespace hamcp::ha::testing {

template <class T>
T run_bounded(boost::asio::io_context& ioc, boost::asio::awaitable<T> op,
              std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  auto fut = boost::asio::co_spawn(ioc, std::move(op), boost::asio::use_future);
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (fut.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    if (std::chrono::steady_clock::now() >= deadline) {
      throw std::runtime_error("operation did not finish within the test's time bound");
    }
    if (ioc.stopped()) ioc.restart();  // run_for stops the context when it runs out of work
    ioc.run_for(std::chrono::milliseconds(20));
  }
  return fut.get();
}

inline ConnectionSettings settings_for(const std::string& url, const std::string& token = "test-token-123456") {
  ConnectionInput in;
  in.url = url;
  in.token = token;
  in.timeout = std::chrono::milliseconds(3000);
  auto r = make_connection_settings(in);
  if (auto* e = std::get_if<HaError>(&r)) throw std::runtime_error(e->message());
  return std::get<ConnectionSettings>(r);
}

}  // namespace hamcp::ha::testing
