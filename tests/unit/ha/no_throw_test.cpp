// Expected failures are answers, not exceptions: an HA that is down (the normal state of a server
// started before it: the WebSocket's reconnect loop and the mirror's REST poll) and HA refusing a
// command asked for with refusal_as_value (lovelace/config of a never-saved dashboard, in every
// sync). Each throw made the unwinder's tables resident (bench/RESULTS-ha.md, step 11).
// Every C++ throw of this process is counted by interposing __cxa_throw (libstdc++ is shared).
#include <cxxabi.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <boost/json.hpp>
#include <string>

#include "client_loop.hpp"
#include "fake_ha.hpp"
#include "ha/ha_client.hpp"
#include "ha/ws_command.hpp"
#include "loopback_servers.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {
std::atomic<int> g_throws{0};
using ThrowFn = void (*)(void*, std::type_info*, void (*)(void*));
}  // namespace

namespace __cxxabiv1 {
// Counts, then hands over to libstdc++'s own __cxa_throw.
extern "C" void __cxa_throw(void* object, std::type_info* type, void (*destroy)(void*)) {
  g_throws.fetch_add(1);
  static const auto real = reinterpret_cast<ThrowFn>(dlsym(RTLD_NEXT, "__cxa_throw"));
  real(object, type, destroy);
  __builtin_unreachable();
}
}  // namespace __cxxabiv1

namespace {

TEST(UnreachableHa, CountingSeesAThrow) {  // the counter works: without it the test below proves nothing
  const int before = g_throws.load();
  try {
    throw HaException(make_error(ErrorCause::internal, "test", "counted"));
  } catch (const HaException&) {  // NOLINT(bugprone-empty-catch): only the count matters here
  }
  EXPECT_EQ(g_throws.load(), before + 1);
}

TEST(UnreachableHa, ReconnectsAndPollsWithoutThrowing) {
  const auto port = closed_port();
  ClientLoop loop;
  HaClientOptions options;
  options.ws.reconnect_initial = 20ms;
  options.ws.reconnect_max = 50ms;
  options.mirror.poll_interval = 50ms;
  ConnectionInput in;
  in.url = "http://127.0.0.1:" + std::to_string(port);
  in.token = "tok-123456";
  auto client = HaClient::from_input(loop.executor(), in, options);
  const int before = g_throws.load();
  client->start();
  // Several failed connects and polls: each poll that finds HA down says so in the status.
  const auto polled = [&] {
    return client->status().detail.find("unreachable over WebSocket and REST") != std::string::npos;
  };
  ASSERT_TRUE(wait_until(polled, 10s)) << client->status().detail;
  std::this_thread::sleep_for(300ms);
  const int thrown = g_throws.load() - before;
  const MirrorStatus status = client->status();
  EXPECT_EQ(status.state, MirrorState::disconnected);
  ASSERT_TRUE(status.last_error);
  EXPECT_EQ(status.last_error->cause, ErrorCause::connection_refused) << status.last_error->message();
  client->stop();
  EXPECT_EQ(thrown, 0) << "a refused connect was reported by throwing";
}

TEST(RefusedCommand, ComesBackAsAValueWhenMarkedWithoutAThrow) {
  FakeHa ha;  // answers lovelace/config (any unknown command) with success:false, unknown_command
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()));
  ws.start();
  const int before = g_throws.load();
  const json::value answer = loop.run(ws.command(refusal_as_value(json::object{{"type", "lovelace/config"}})));
  EXPECT_EQ(g_throws.load() - before, 0) << "HA's refusal was thrown";
  const std::optional<HaError> refused = refused_by(answer);
  ASSERT_TRUE(refused) << json::serialize(answer);
  EXPECT_EQ(refused->cause, ErrorCause::command_failed);
  EXPECT_EQ(refused->ha_code, "unknown_command");
  EXPECT_EQ(ha.command_count("lovelace/config"), 1u);
  // A result is handed over as it came; unmarked, a refusal is thrown as before.
  const json::value config = loop.run(ws.command(refusal_as_value(json::object{{"type", "get_config"}})));
  EXPECT_FALSE(refused_by(config));
  EXPECT_EQ(config.at("location_name"), "Fake Home");
  EXPECT_THROW(loop.run(ws.command(json::object{{"type", "lovelace/config"}})), HaException);
  ws.stop();
}

TEST(RefusedCommand, TheMarkIsTakenOffBeforeSending) {
  json::object message = refusal_as_value(json::object{{"type", "lovelace/config"}});
  EXPECT_TRUE(take_refusal_mark(message));
  EXPECT_EQ(json::serialize(message), R"({"type":"lovelace/config"})");
  EXPECT_FALSE(take_refusal_mark(message));
}

}  // namespace
