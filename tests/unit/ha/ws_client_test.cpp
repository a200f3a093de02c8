// WebSocket client against FakeHa: handshake, multiplexing, failures that must
// be prompt and typed, reconnect with re-subscription, huge frames.
#include "ha/ws_client.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <mutex>

#include "client_loop.hpp"
#include "fake_ha.hpp"
#include "ha/ws_command.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

WsOptions fast_options() {
  WsOptions o;
  o.command_timeout = 5s;
  o.connect_wait = 2s;
  o.reconnect_initial = 50ms;
  o.reconnect_max = 400ms;
  o.heartbeat_interval = 200ms;
  o.heartbeat_timeout = 2s;
  return o;
}

json::object msg(const char* type) {
  json::object o;
  o["type"] = type;
  return o;
}

HaError command_error(ClientLoop& loop, WsClient& ws, json::object m, std::optional<std::chrono::milliseconds> t = {}) {
  try {
    loop.run(ws.command(std::move(m), t), 20s);
  } catch (const HaException& e) {
    return e.error();
  }
  ADD_FAILURE() << "command did not fail";
  return {};
}

}  // namespace

TEST(WsClient, AuthenticatesAndMultiplexesCommands) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  EXPECT_EQ(ws.ha_version(), "2026.1.0");
  // 50 concurrent commands: all answered, ids strictly increasing (FakeHa
  // rejects a non-increasing id with id_reuse).
  std::atomic<int> done{0};
  std::atomic<int> failed{0};
  for (int i = 0; i < 50; ++i) {
    asio::co_spawn(loop.executor(), ws.command(msg("get_config")), [&](std::exception_ptr e, json::value v) {
      if (e || !v.is_object() || v.as_object().at("version") != "2026.1.0") ++failed;
      ++done;
    });
  }
  ASSERT_TRUE(wait_until([&] { return done == 50; }));
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(ha.command_count("supported_features"), 1u);
}

TEST(WsClient, HaErrorsAreTypedWithTheirCode) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  json::object call = msg("call_service");
  call["domain"] = "light";
  call["service"] = "explode";
  HaError e = command_error(loop, ws, call);
  EXPECT_EQ(e.cause, ErrorCause::command_failed);
  EXPECT_EQ(e.ha_code, "not_found");
  EXPECT_NE(e.detail.find("light.explode"), std::string::npos);
  EXPECT_FALSE(e.retryable());
}

TEST(WsClient, PerCommandTimeout) {
  FakeHa ha;
  ha.stall_command("get_panels");
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  const auto start = std::chrono::steady_clock::now();
  HaError e = command_error(loop, ws, msg("get_panels"), 300ms);
  EXPECT_EQ(e.cause, ErrorCause::timeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  // The connection is still fine for others.
  EXPECT_NO_THROW(loop.run(ws.command(msg("get_config"))));
}

TEST(WsClient, InFlightCommandFailsPromptlyAndRetryablyOnDrop) {
  FakeHa ha;
  ha.stall_command("get_panels");
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  std::atomic<bool> finished{false};
  std::optional<HaError> error;
  std::mutex m;
  asio::co_spawn(loop.executor(), ws.command(msg("get_panels"), 30s), [&](std::exception_ptr e, json::value) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const HaException& ex) {
      std::lock_guard lock(m);
      error = ex.error();
    } catch (...) {
    }
    finished = true;
  });
  ASSERT_TRUE(wait_until([&] { return ha.command_count("get_panels") == 1; }));
  const auto drop_at = std::chrono::steady_clock::now();
  ha.drop_connections();
  ASSERT_TRUE(wait_until([&] { return finished.load(); }, 3s)) << "in-flight command hung after the drop";
  EXPECT_LT(std::chrono::steady_clock::now() - drop_at, 2s);
  std::lock_guard lock(m);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->cause, ErrorCause::connection_lost);
  EXPECT_TRUE(error->retryable());
  // And the client comes back by itself.
  EXPECT_TRUE(wait_until([&] { return ha.websocket_sessions() == 2 && ws.state() == WsState::connected; }));
}

TEST(WsClient, ReconnectResubscribesEverySubscription) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  std::mutex m;
  int firsts = 0;
  std::vector<std::string> changed;
  loop.run(ws.subscribe(msg("subscribe_entities"), [&](const json::value& ev, bool first) {
    std::lock_guard lock(m);
    if (first) ++firsts;
    if (const auto* c = ev.as_object().if_contains("c")) {
      for (const auto& kv : c->as_object()) changed.emplace_back(kv.key());
    }
  }));
  ASSERT_TRUE(wait_until([&] {
    std::lock_guard l(m);
    return firsts == 1;
  }));
  ha.drop_connections();
  ASSERT_TRUE(wait_until([&] {
    std::lock_guard l(m);
    return firsts == 2;
  })) << "not re-subscribed";
  EXPECT_EQ(ws.connects(), 2u);
  EXPECT_EQ(ws.active_subscriptions(), 1u);
  ha.set_state("switch.fan", "on");
  EXPECT_TRUE(wait_until([&] {
    std::lock_guard l(m);
    return std::find(changed.begin(), changed.end(), "switch.fan") != changed.end();
  }));
}

// A command that acts on HA and streams events (zha/devices/reconfigure) must
// not run twice: a drop ends it for its owner and the reconnect does not send
// it again, while the state subscriptions next to it are re-sent.
TEST(WsClient, CommandSubscriptionEndsOnDropAndIsNeverResent) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  std::atomic<int> firsts{0};
  loop.run(ws.subscribe(msg("subscribe_entities"), [&](const json::value&, bool first) { firsts += first ? 1 : 0; }));
  std::mutex m;
  std::vector<HaError> ended;
  json::object command = msg("subscribe_events");  // FakeHa confirms it with a result, as HA does add_node
  command["event_type"] = "zha_channel_msg";
  const auto handle = loop.run(ws.subscribe(command_subscription(command), [&](const json::value& event, bool) {
    std::lock_guard lock(m);
    if (auto error = ended_by(event)) ended.push_back(*error);
  }));
  EXPECT_EQ(ws.active_subscriptions(), 2u);
  ha.drop_connections();
  ASSERT_TRUE(wait_until([&] { return firsts == 2 && ws.state() == WsState::connected; })) << "not re-subscribed";
  {
    std::lock_guard lock(m);
    ASSERT_EQ(ended.size(), 1u) << "the owner was not told";
    EXPECT_EQ(ended[0].cause, ErrorCause::connection_lost);
  }
  EXPECT_EQ(ha.command_count("subscribe_entities"), 2u);
  EXPECT_EQ(ha.command_count("subscribe_events"), 1u) << "the command was sent again";
  EXPECT_EQ(ws.active_subscriptions(), 1u);
  loop.run(ws.unsubscribe(handle));  // already over: nothing to send
  EXPECT_EQ(ha.command_count("unsubscribe_events"), 0u);
}

// Dropped before HA confirmed it: subscribe() fails at once and nothing is re-sent.
TEST(WsClient, CommandSubscriptionDroppedBeforeItsAnswerFails) {
  FakeHa ha;
  ha.stall_command("zha/devices/reconfigure");
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  std::atomic<bool> finished{false};
  std::atomic<int> ended{0};
  std::optional<HaError> error;
  json::object reconfigure = msg("zha/devices/reconfigure");
  reconfigure["ieee"] = "84:2e:14:ff:fe:6b:0d:91";
  auto op = ws.subscribe(command_subscription(reconfigure), [&](const json::value& event, bool) {
    if (ended_by(event)) ++ended;
  });
  asio::co_spawn(loop.executor(), std::move(op), [&](std::exception_ptr e, std::uint64_t) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const HaException& ex) {
      error = ex.error();
    }
    finished = true;
  });
  ASSERT_TRUE(wait_until([&] { return ha.command_count("zha/devices/reconfigure") == 1; }));
  ha.drop_connections();
  ASSERT_TRUE(wait_until([&] { return finished.load(); }, 3s)) << "subscribe hung after the drop";
  ASSERT_TRUE(error) << "subscribe succeeded on a dropped connection";
  EXPECT_EQ(error->cause, ErrorCause::connection_lost);
  ASSERT_TRUE(wait_until([&] { return ha.websocket_sessions() == 2 && ws.state() == WsState::connected; }));
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(ha.command_count("zha/devices/reconfigure"), 1u) << "the command was sent again";
  EXPECT_EQ(ws.active_subscriptions(), 0u);
  EXPECT_EQ(ended.load(), 1);
}

TEST(WsClient, UnsubscribeStopsEvents) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  std::atomic<int> events{0};
  auto handle = loop.run(ws.subscribe(msg("subscribe_entities"), [&](const json::value&, bool) { ++events; }));
  ASSERT_TRUE(wait_until([&] { return events == 1; }));
  loop.run(ws.unsubscribe(handle));
  EXPECT_EQ(ws.active_subscriptions(), 0u);
  EXPECT_EQ(ha.command_count("unsubscribe_events"), 1u);
  ha.set_state("switch.fan", "on");
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(events.load(), 1);
}

TEST(WsClient, MalformedFrameGivesClearErrorThenRecovers) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  std::mutex m;
  std::vector<HaError> errors;
  ws.on_state_change([&](WsState, const std::optional<HaError>& e) {
    if (e) {
      std::lock_guard l(m);
      errors.push_back(*e);
    }
  });
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  ha.send_raw_to_all("{\"id\": 3, \"type\": \"result\", \"success\": tru");
  ASSERT_TRUE(wait_until([&] {
    std::lock_guard l(m);
    return !errors.empty();
  }));
  {
    std::lock_guard l(m);
    EXPECT_EQ(errors.front().cause, ErrorCause::protocol_error);
    EXPECT_NE(errors.front().detail.find("malformed JSON"), std::string::npos) << errors.front().message();
  }
  ASSERT_TRUE(wait_until([&] { return ha.websocket_sessions() == 2 && ws.state() == WsState::connected; }));
  auto v = loop.run(ws.command(msg("get_config")));
  EXPECT_EQ(v.as_object().at("version"), "2026.1.0");
}

TEST(WsClient, WrongTokenIsAClearAuthErrorWithoutTheToken) {
  FakeHa ha;
  ClientLoop loop;
  const std::string wrong = "definitely-wrong-token-XYZ";
  WsClient ws(loop.executor(), settings_for(ha.url(), wrong), fast_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.last_error().has_value(); }));
  HaError e = *ws.last_error();
  EXPECT_EQ(e.cause, ErrorCause::unauthorized);
  EXPECT_NE(e.fix().find("Long-lived access tokens"), std::string::npos);
  EXPECT_EQ(e.message().find(wrong), std::string::npos);
  // Commands fail fast with the reason instead of hanging.
  const auto start = std::chrono::steady_clock::now();
  HaError c = command_error(loop, ws, msg("get_config"));
  EXPECT_EQ(c.cause, ErrorCause::unauthorized);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);
  // A rejected token is not hammered (HA bans IPs after failed logins).
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(ha.auth_attempts(), 3u);
  EXPECT_EQ(ws.last_error()->cause, ErrorCause::unauthorized);
}

TEST(WsClient, RevokedTokenWhileConnected) {
  FakeHa ha;
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  ha.revoke_token();
  ASSERT_TRUE(wait_until([&] {
    auto e = ws.last_error();
    return e && e->cause == ErrorCause::unauthorized;
  }));
  EXPECT_NE(ws.state(), WsState::connected);
  ws.stop();
  EXPECT_TRUE(wait_until([&] { return ws.state() == WsState::stopped; }, 3s));
}

TEST(WsClient, UpgradeDeclinedIsExplained) {
  FakeHa ha;
  ha.set_refuse_websocket(true);
  ClientLoop loop;
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), fast_options());
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.last_error().has_value(); }));
  EXPECT_EQ(ws.last_error()->cause, ErrorCause::not_found) << ws.last_error()->message();
}

TEST(WsClient, HundredMegabyteFrameWhilePingsComplete) {
  FakeHa ha;
  ha.set_big_entity_registry_bytes(std::size_t{100} * 1024 * 1024);
  ClientLoop loop;
  auto opts = fast_options();
  opts.heartbeat_interval = 100ms;
  opts.heartbeat_timeout = 60s;  // generous: under ASan a busy server needs seconds to send 100 MB
  WsClient ws(loop.executor(), settings_for(ha.url(), ha.token()), opts);
  ws.start();
  ASSERT_TRUE(wait_until([&] { return ws.state() == WsState::connected; }));
  std::atomic<bool> big_done{false};
  std::atomic<std::size_t> entries{0};
  std::atomic<bool> big_failed{false};
  asio::co_spawn(loop.executor(), ws.command(msg("config/entity_registry/list"), 120s),
                 [&](std::exception_ptr e, json::value v) {
                   if (e)
                     big_failed = true;
                   else
                     entries = v.as_array().size();
                   big_done = true;
                 });
  // Pings keep completing while the frame is transferred and parsed.
  int pings_ok = 0;
  // A ping sent meanwhile is queued behind the frame on the server, so its
  // timeout must cover the frame's transfer (slow under ASan on a busy machine).
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (!big_done && std::chrono::steady_clock::now() < deadline) {
    loop.run(ws.command(msg("ping"), 100s), 110s);
    ++pings_ok;
  }
  ASSERT_TRUE(wait_until([&] { return big_done.load(); }, 120s));
  EXPECT_FALSE(big_failed.load());
  EXPECT_GT(entries.load(), 100000u);
  EXPECT_GE(pings_ok, 1);
  // Ping after the frame: fast again, and no reconnect happened.
  const auto start = std::chrono::steady_clock::now();
  loop.run(ws.command(msg("ping")));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
  EXPECT_EQ(ws.connects(), 1u);
  EXPECT_EQ(ha.websocket_sessions(), 1u);
}
