// Issue 8, weakness 2 (HA side): a 1,500-call batch once opened 1,500
// simultaneous TCP connections to Home Assistant. The REST client now talks to
// HA over at most 32 connections at once and queues the rest.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "ha/rest_client.hpp"
#include "loopback_servers.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace asio = boost::asio;

TEST(RestPool, ManyConcurrentCallsShareABoundedNumberOfConnections) {
  StubHttpServer server([](const StubRequest&) { return StubResponse{}; });
  asio::io_context ioc;
  RestClient client(ioc.get_executor(), settings_for("http://127.0.0.1:" + std::to_string(server.port())));
  std::atomic<int> ok{0};
  constexpr int kCalls = 300;
  for (int i = 0; i < kCalls; ++i) {
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
          auto r = co_await client.get("/api/");
          if (r.status == 200) ++ok;
        },
        asio::detached);
  }
  for (int i = 0; i < 400 && ok.load() < kCalls; ++i) ioc.run_for(std::chrono::milliseconds(50));
  EXPECT_EQ(ok.load(), kCalls) << "queued calls all complete";
  EXPECT_LE(client.connections_opened(), 32u);
  EXPECT_LE(server.connections(), 32u);
}

TEST(RestPool, AQueuedCallTimesOutWithAClearError) {
  SilentServer server;  // holds every connection: the queue never moves
  asio::io_context ioc;
  auto settings = settings_for("http://127.0.0.1:" + std::to_string(server.port()));
  settings.request_timeout = std::chrono::milliseconds(300);
  RestClient client(ioc.get_executor(), settings);
  RetryPolicy once;
  once.max_attempts = 1;
  client.set_retry_policy(once);
  std::atomic<int> timeouts{0};
  std::string queued_detail;
  for (int i = 0; i < 40; ++i) {
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
          try {
            co_await client.get("/api/");
          } catch (const HaException& e) {
            if (e.error().cause == ErrorCause::timeout) ++timeouts;
            if (e.error().detail.find("connections to Home Assistant") != std::string::npos)
              queued_detail = e.error().detail;
          }
        },
        asio::detached);
  }
  for (int i = 0; i < 200 && timeouts.load() < 40; ++i) ioc.run_for(std::chrono::milliseconds(50));
  EXPECT_EQ(timeouts.load(), 40);
  EXPECT_LE(client.connections_opened(), 32u);
  EXPECT_FALSE(queued_detail.empty()) << "the 8 queued calls say what they waited for";
}
