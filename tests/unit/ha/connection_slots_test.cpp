// ConnectionSlots: at most `capacity` holders; waiters get freed slots oldest
// first; a wait that runs out holds nothing.
#include "ha/detail/connection_slots.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace asio = boost::asio;
using hamcp::ha::detail::ConnectionSlots;
using hamcp::ha::testing::run_bounded;
using namespace std::chrono_literals;

namespace {
asio::awaitable<void> pause(std::chrono::milliseconds d) {
  asio::steady_timer t(co_await asio::this_coro::executor, d);
  co_await t.async_wait(asio::use_awaitable);
}
}  // namespace

TEST(ConnectionSlots, FreedSlotsGoToTheOldestWaiterFirst) {
  asio::io_context ioc;
  ConnectionSlots slots(ioc.get_executor(), 1);
  std::vector<std::string> order;
  auto waiter = [&](std::string name) -> asio::awaitable<void> {
    const bool got = co_await slots.acquire(5s);
    order.push_back(name + (got ? "" : " timed out"));
    slots.release();
  };
  auto scenario = [&]() -> asio::awaitable<void> {
    const bool first = co_await slots.acquire(1s);
    EXPECT_TRUE(first);
    asio::co_spawn(ioc, waiter("a"), asio::detached);
    co_await pause(5ms);
    asio::co_spawn(ioc, waiter("b"), asio::detached);
    co_await pause(5ms);
    EXPECT_TRUE(order.empty()) << "a waiter ran while the only slot was held";
    slots.release();
    for (int i = 0; i < 200 && order.size() < 2; ++i) co_await pause(5ms);
  };
  run_bounded(ioc, scenario());
  EXPECT_EQ(order, (std::vector<std::string>{"a", "b"}));
}

TEST(ConnectionSlots, AWaitThatRunsOutHoldsNoSlot) {
  asio::io_context ioc;
  ConnectionSlots slots(ioc.get_executor(), 1);
  auto scenario = [&]() -> asio::awaitable<void> {
    const bool held = co_await slots.acquire(1s);
    EXPECT_TRUE(held);
    const bool late = co_await slots.acquire(20ms);
    EXPECT_FALSE(late) << "the second holder got a slot beyond capacity";
    slots.release();
    // The timed-out waiter left the queue: the freed slot is free, not handed to it.
    const bool again = co_await slots.acquire(20ms);
    EXPECT_TRUE(again);
    slots.release();
  };
  run_bounded(ioc, scenario());
}
