// Cancelling callers of WsClient while their commands complete: the shape of
// issue 8's V1 (a client ending its MCP session while its tool calls wait on
// Home Assistant). Before the fix, WsClient::command hopped onto its strand
// with co_spawn(use_awaitable), whose cancellation forwarding in Boost 1.81
// posts a raw pointer to a signal that dies with the spawned coroutine: the
// ASan build reports heap-use-after-free here, the Release build corrupts
// memory or crashes.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <memory>
#include <vector>

#include "client_loop.hpp"
#include "fake_ha.hpp"
#include "ha/errors.hpp"
#include "ha/ws_client.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

struct Tally {
  std::atomic<int> answered{0};
  std::atomic<int> aborted{0};
  std::atomic<int> other{0};
  int total() const { return answered + aborted + other; }
};

// Starts `count` get_config commands, each under its own cancellation signal,
// waits `delay`, then cancels them all; returns when every one has completed.
asio::awaitable<void> cancel_round(WsClient& ws, int count, std::chrono::microseconds delay, Tally& tally) {
  auto ex = co_await asio::this_coro::executor;
  auto signals = std::make_shared<std::vector<asio::cancellation_signal>>(static_cast<std::size_t>(count));
  const int before = tally.total();
  for (auto& signal : *signals) {
    json::object message{{"type", "get_config"}};
    auto op = ws.command(std::move(message));
    asio::co_spawn(ex, std::move(op),
                   asio::bind_cancellation_slot(signal.slot(), [&tally, signals](std::exception_ptr e, json::value) {
                     if (!e) {
                       ++tally.answered;
                       return;
                     }
                     try {
                       std::rethrow_exception(e);
                     } catch (const boost::system::system_error& se) {
                       ++(se.code() == asio::error::operation_aborted ? tally.aborted : tally.other);
                     } catch (const std::exception& other) {
                       if (tally.other++ == 0) ADD_FAILURE() << "unexpected completion: " << other.what();
                     } catch (...) {
                       ++tally.other;
                     }
                   }));
  }
  asio::steady_timer timer(ex, delay);
  co_await timer.async_wait(asio::use_awaitable);
  for (auto& signal : *signals) signal.emit(asio::cancellation_type::terminal);
  // Bounded: every command has the client's 5 s timeout at most.
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (tally.total() - before < count && std::chrono::steady_clock::now() < deadline) {
    timer.expires_after(1ms);
    co_await timer.async_wait(asio::use_awaitable);
  }
}

WsOptions test_options() {
  WsOptions o;
  o.command_timeout = 5s;
  o.connect_wait = 2s;
  return o;
}

}  // namespace

TEST(WsClientCancellation, CancellingCallersWhileAnswersArriveIsSafe) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), test_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  Tally tally;
  constexpr int kRounds = 40;
  constexpr int kPerRound = 100;
  // Cancellation lands at varying points: before the command is written, while
  // it waits, and while its answer is already queued on the client's strand.
  for (int round = 0; round < kRounds; ++round) {
    const auto delay = std::chrono::microseconds(round * 50);
    loop.run(cancel_round(ws, kPerRound, delay, tally), 30s);
  }
  EXPECT_EQ(tally.total(), kRounds * kPerRound);
  EXPECT_EQ(tally.other.load(), 0) << "a cancelled command must end as answered or operation_aborted";
  EXPECT_GT(tally.aborted.load(), 0) << "the test must actually cancel commands that were waiting";
  // The client is still usable afterwards.
  json::object probe{{"type", "get_config"}};
  json::value config = loop.run(ws.command(std::move(probe)), 10s);
  EXPECT_TRUE(config.is_object());
}

TEST(WsClientCancellation, CancelledCallerReturnsAtOnceWhileHaStalls) {
  FakeHa ha;
  ha.stall_command("get_config");
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), test_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  Tally tally;
  const auto start = std::chrono::steady_clock::now();
  loop.run(cancel_round(ws, 50, 20ms, tally), 30s);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(tally.aborted.load(), 50);
  // The stalled commands time out after 5 s; the cancelled callers must not wait for that.
  EXPECT_LT(took, 4s);
}
