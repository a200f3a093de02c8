// Mirror + clients against the simulated Home Assistant (src/sim SimServer):
// a realistic home, real HA wire formats, and the simulator's fault switches.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <mutex>

#include "client_loop.hpp"
#include "ha/ha_client.hpp"
#include "sim/home/home_model.hpp"
#include "sim/server/sim_server.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

const std::string kToken = "sim-test-token-0123456789";

struct SimFixture {
  explicit SimFixture(hamcp::sim::Home home) : sim(std::move(home), options()) { sim.start(); }
  static hamcp::sim::SimServerOptions options() {
    hamcp::sim::SimServerOptions o;
    o.token = kToken;
    return o;
  }
  hamcp::sim::SimServer sim;
};

HaClientOptions fast_options() {
  HaClientOptions o;
  o.ws.command_timeout = 20s;
  o.ws.connect_wait = 3s;
  o.ws.reconnect_initial = 50ms;
  o.ws.reconnect_max = 300ms;
  o.mirror.poll_interval = 300ms;
  o.mirror.registry_debounce = 20ms;
  return o;
}

std::unique_ptr<HaClient> connect(ClientLoop& loop, const std::string& url, HaClientOptions o = fast_options()) {
  ConnectionInput in;
  in.url = url;
  in.token = kToken;
  in.timeout = 20s;
  auto c = HaClient::from_input(loop.executor(), in, o);
  c->start();
  return c;
}

std::string state_of(const HaClient& c, const std::string& id) {
  auto s = c.snapshot()->states.find(id);
  return s ? s->state : "<missing>";
}

json::object msg(const char* type) {
  json::object o;
  o["type"] = type;
  return o;
}

}  // namespace

TEST(SimMirror, MirrorMatchesRestStatesOnAGeneratedHome) {
  SimFixture f(hamcp::sim::generate_home(2000, 7));
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  json::value rest = loop.run(client->rest_get_json("/api/states"));
  const auto snap = client->snapshot();
  ASSERT_EQ(snap->states.size(), rest.as_array().size());
  for (const auto& item : rest.as_array()) {
    const auto parsed = EntityState::from_json(item);
    ASSERT_TRUE(parsed);
    const auto mirrored = snap->states.find(parsed->entity_id);
    ASSERT_TRUE(mirrored) << parsed->entity_id;
    EXPECT_EQ(mirrored->state, parsed->state) << parsed->entity_id;
    EXPECT_EQ(mirrored->attributes, parsed->attributes) << parsed->entity_id;
    EXPECT_NEAR(mirrored->last_changed, parsed->last_changed, 0.001) << parsed->entity_id;
  }
  EXPECT_GT(snap->registry(RegistryKind::entity).size(), 0u);
  EXPECT_GT(snap->registry(RegistryKind::device).size(), 0u);
  EXPECT_GT(snap->registry(RegistryKind::area).size(), 0u);
  EXPECT_TRUE(snap->capabilities.subscribe_entities);
  ASSERT_TRUE(snap->services);
  EXPECT_TRUE(snap->services->contains("light"));
}

TEST(SimMirror, ServiceCallIsReflectedInTheMirror) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  std::string light;
  client->snapshot()->states.for_each([&](const EntityStatePtr& s) {
    if (light.empty() && s->entity_id.rfind("light.", 0) == 0 && s->state == "off") light = s->entity_id;
  });
  ASSERT_FALSE(light.empty()) << "demo home has no light that is off";
  ServiceCall call;
  call.domain = "light";
  call.service = "turn_on";
  call.target["entity_id"] = light;
  loop.run(client->call_service(call));
  EXPECT_TRUE(wait_until([&] { return state_of(*client, light) == "on"; }, 5s)) << light;
}

TEST(SimMirror, RegistryUpdateEventRefreshesTheRegistry) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  const auto before = client->snapshot()->registry(RegistryKind::area).size();
  json::object create = msg("config/area_registry/create");
  create["name"] = "Bench Lab";
  json::value created = loop.run(client->command(create));
  const std::string area_id(created.as_object().at("area_id").as_string());
  ASSERT_TRUE(wait_until([&] { return client->snapshot()->registry(RegistryKind::area).find(area_id) != nullptr; }));
  EXPECT_EQ(client->snapshot()->registry(RegistryKind::area).size(), before + 1);
}

TEST(SimMirror, RestartOfHomeAssistantResyncs) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  std::string sensor;
  client->snapshot()->states.for_each([&](const EntityStatePtr& s) {
    if (sensor.empty() && s->entity_id.rfind("sensor.", 0) == 0) sensor = s->entity_id;
  });
  const auto connects = client->ws()->connects();
  f.sim.restart();
  // Changed while the client was away: must appear after the resync.
  f.sim.store().set_state(sensor, "changed_during_restart", {}, f.sim.store().new_context());
  ASSERT_TRUE(wait_until([&] { return client->ws()->connects() > connects; }, 10s));
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  EXPECT_TRUE(wait_until([&] { return state_of(*client, sensor) == "changed_during_restart"; }, 5s));
}

TEST(SimMirror, InFlightCommandAtDropFailsPromptlyAndRetryably) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  f.sim.set_response_delay(5000ms);  // the answer would take 5 s
  std::atomic<bool> done{false};
  std::optional<HaError> err;
  std::mutex m;
  boost::asio::co_spawn(loop.executor(), client->command(msg("get_config"), 30s),
                        [&](std::exception_ptr e, json::value) {
                          try {
                            if (e) std::rethrow_exception(e);
                          } catch (const HaException& ex) {
                            std::lock_guard l(m);
                            err = ex.error();
                          } catch (...) {
                          }
                          done = true;
                        });
  std::this_thread::sleep_for(100ms);
  const auto drop = std::chrono::steady_clock::now();
  f.sim.drop_websockets();
  ASSERT_TRUE(wait_until([&] { return done.load(); }, 3s)) << "command hung after the drop";
  EXPECT_LT(std::chrono::steady_clock::now() - drop, 2s);
  std::lock_guard l(m);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->cause, ErrorCause::connection_lost);
  EXPECT_TRUE(err->retryable());
  f.sim.clear_faults();
}

TEST(SimMirror, HundredMegabyteRegistryFrameWhilePingsComplete) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto opts = fast_options();
  opts.enable_mirror = false;
  opts.ws.heartbeat_interval = 100ms;
  // The simulator builds the 100 MB answer on its only thread (under ASan:
  // tens of seconds) and cannot pong meanwhile, like a busy HA.
  opts.ws.heartbeat_timeout = 60s;
  auto client = connect(loop, f.sim.url(), opts);
  ASSERT_TRUE(wait_until([&] { return client->ws()->state() == WsState::connected; }));
  f.sim.set_registry_padding(std::size_t{100} * 1024 * 1024);
  std::atomic<bool> big_done{false}, big_failed{false};
  boost::asio::co_spawn(loop.executor(), client->command(msg("config/entity_registry/list"), 120s),
                        [&](std::exception_ptr e, json::value) {
                          big_failed = e != nullptr;
                          big_done = true;
                        });
  int pings = 0;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (!big_done && std::chrono::steady_clock::now() < deadline) {
    loop.run(client->command(msg("ping"), 100s), 110s);
    ++pings;
  }
  ASSERT_TRUE(wait_until([&] { return big_done.load(); }, 120s));
  EXPECT_FALSE(big_failed.load());
  EXPECT_GE(pings, 1);
  EXPECT_EQ(client->ws()->connects(), 1u);  // the heartbeat did not kill the connection
  f.sim.clear_faults();
}

TEST(SimMirror, MalformedFrameThenRecovery) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  f.sim.send_malformed_frame();
  ASSERT_TRUE(wait_until([&] { return client->ws()->connects() >= 2; }, 5s));
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  auto v = loop.run(client->command(msg("get_config")));
  EXPECT_TRUE(v.is_object());
}

TEST(SimMirror, RevokedTokenIsAClearAuthError) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(20s)));
  f.sim.revoke_token();
  ASSERT_TRUE(wait_until(
      [&] {
        auto e = client->last_failure();
        return e && e->cause == ErrorCause::unauthorized;
      },
      5s));
  EXPECT_NE(client->last_failure()->fix().find("Long-lived access tokens"), std::string::npos);
  try {
    loop.run(client->command(msg("get_config")), 10s);
    FAIL() << "command succeeded with a revoked token";
  } catch (const HaException& e) {
    EXPECT_EQ(e.error().cause, ErrorCause::unauthorized);
  }
}

// HA answers zha/devices/reconfigure with events only, never a result: the first
// event confirms the subscription, so subscribe() returns at once instead of
// waiting for the command timeout (20 s here) and failing.
TEST(SimMirror, ASubscriptionAnsweredOnlyByEventsIsConfirmedByThem) {
  SimFixture f(hamcp::sim::demo_home());
  ClientLoop loop;
  auto client = connect(loop, f.sim.url());
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  std::mutex m;
  std::vector<std::string> types;
  json::object message{{"type", "zha/devices/reconfigure"}, {"ieee", "84:2e:14:ff:fe:6b:0d:91"}};
  const std::size_t mirrors_own = client->ws()->active_subscriptions();
  const auto started = std::chrono::steady_clock::now();
  const std::uint64_t handle = loop.run(client->ws()->subscribe(message, [&](const json::value& event, bool) {
    std::lock_guard lock(m);
    types.emplace_back(event.at("type").as_string());
  }));
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s) << "waited for a result that never comes";
  EXPECT_TRUE(wait_until([&] {
    std::lock_guard lock(m);
    return !types.empty() && types.back() == "zha_channel_cfg_done";
  }));
  loop.run(client->ws()->unsubscribe(handle));
  EXPECT_EQ(client->ws()->active_subscriptions(), mirrors_own);
}
