// Live mirror + HaClient facade against FakeHa (protocol-exact fault injection).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <mutex>
#include <set>

#include "client_loop.hpp"
#include "fake_ha.hpp"
#include "ha/ha_client.hpp"
#include "loopback_servers.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

HaClientOptions fast_options() {
  HaClientOptions o;
  o.ws.command_timeout = 10s;
  o.ws.connect_wait = 2s;
  o.ws.reconnect_initial = 50ms;
  o.ws.reconnect_max = 300ms;
  o.ws.heartbeat_interval = 1s;
  o.mirror.poll_interval = 200ms;
  o.mirror.registry_debounce = 20ms;
  return o;
}

std::unique_ptr<HaClient> make_client(ClientLoop& loop, const std::string& url, const std::string& token,
                                      HaClientOptions options = fast_options()) {
  ConnectionInput in;
  in.url = url;
  in.token = token;
  in.timeout = 10s;
  return HaClient::from_input(loop.executor(), in, options);
}

std::string state_of(const HaClient& c, const std::string& id) {
  auto s = c.snapshot()->states.find(id);
  return s ? s->state : std::string("<missing>");
}

}  // namespace

TEST(Mirror, SyncedMirrorMatchesRestStates) {
  FakeHa::Options opts;
  opts.extra_sensors = 200;
  FakeHa ha(opts);
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  const auto snap = client->snapshot();
  const auto rest = ha.states_json().as_array();
  ASSERT_EQ(snap->states.size(), rest.size());
  for (const auto& item : rest) {
    const auto& o = item.as_object();
    auto s = snap->states.find(o.at("entity_id").as_string());
    ASSERT_TRUE(s) << o.at("entity_id");
    EXPECT_EQ(s->state, o.at("state").as_string());
    EXPECT_EQ(json::value(s->attributes.parse()), o.at("attributes"));
  }
  EXPECT_TRUE(snap->capabilities.websocket);
  EXPECT_TRUE(snap->capabilities.subscribe_entities);
  EXPECT_EQ(snap->registry(RegistryKind::entity).size(), rest.size());
  EXPECT_TRUE(snap->registry(RegistryKind::entity).find("light.kitchen"));
  EXPECT_TRUE(snap->registry(RegistryKind::area).find("kitchen"));
  ASSERT_TRUE(snap->config);
  EXPECT_EQ(snap->config->at("version"), "2026.1.0");
  ASSERT_TRUE(snap->services);
  EXPECT_TRUE(snap->services->contains("light"));
  const auto st = client->status();
  EXPECT_EQ(st.state, MirrorState::synced);
  EXPECT_EQ(st.mode, "websocket");
  EXPECT_EQ(st.ha_version, "2026.1.0");
  EXPECT_FALSE(st.last_error);
}

TEST(Mirror, ServiceCallIsReflectedAndListenersSeeTheChange) {
  FakeHa ha;
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  std::mutex m;
  std::set<std::string> changed;
  std::uint64_t last_version = 0;
  bool versions_increase = true;
  client->add_change_listener([&](const ChangeSet& cs, const SnapshotPtr& snap) {
    std::lock_guard l(m);
    if (cs.version <= last_version || snap->version != cs.version) versions_increase = false;
    last_version = cs.version;
    changed.insert(cs.states_changed.begin(), cs.states_changed.end());
  });
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  auto before = client->snapshot();
  EXPECT_EQ(state_of(*client, "light.bedroom"), "off");
  ServiceCall call;
  call.domain = "light";
  call.service = "turn_on";
  call.target["entity_id"] = "light.bedroom";
  auto result = loop.run(client->call_service(call));
  EXPECT_TRUE(result.as_object().contains("context"));
  ASSERT_TRUE(wait_until([&] { return state_of(*client, "light.bedroom") == "on"; }));
  // Old snapshots are immutable; the new one has a higher version.
  EXPECT_EQ(before->states.find("light.bedroom")->state, "off");
  EXPECT_GT(client->snapshot()->version, before->version);
  std::lock_guard l(m);
  EXPECT_TRUE(changed.count("light.bedroom"));
  EXPECT_TRUE(versions_increase);
}

// Each published update makes listeners (the search index) rebuild their view
// of every entity: the initial sync must publish states, config, services and
// all registries as one full_resync update, not one per piece.
TEST(Mirror, InitialSyncIsOneFullUpdateWithStatesAndRegistries) {
  FakeHa::Options opts;
  opts.extra_sensors = 50;
  FakeHa ha(opts);
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  std::mutex m;
  int full_updates = 0;
  std::size_t states_seen = 0, registries_seen = 0, entity_registry_items = 0;
  bool config_seen = false, services_seen = false;
  client->add_change_listener([&](const ChangeSet& cs, const SnapshotPtr& snap) {
    std::lock_guard l(m);
    if (!cs.full_resync) return;
    ++full_updates;
    states_seen = snap->states.size();
    registries_seen = cs.registries_changed.size();
    entity_registry_items = snap->registry(RegistryKind::entity).size();
    config_seen = cs.config_changed && snap->config;
    services_seen = cs.services_changed && snap->services;
  });
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  std::lock_guard l(m);
  EXPECT_EQ(full_updates, 1);
  EXPECT_EQ(states_seen, ha.states_json().as_array().size());
  EXPECT_EQ(registries_seen, kRegistryKinds);
  EXPECT_GT(entity_registry_items, 0u);
  EXPECT_TRUE(config_seen);
  EXPECT_TRUE(services_seen);
}

// The initial states are held until the sync has fetched the registries; a
// change arriving meanwhile must land in them, not be lost.
TEST(Mirror, StateChangeDuringSyncIsNotLost) {
  FakeHa ha;
  ha.stall_command("config/floor_registry/list");  // the sync waits here, then times out
  ClientLoop loop;
  HaClientOptions options = fast_options();
  options.mirror.command_timeout = 1500ms;
  auto client = make_client(loop, ha.url(), ha.token(), options);
  client->start();
  ASSERT_TRUE(wait_until([&] { return ha.command_count("config/floor_registry/list") >= 1; }));
  ha.set_state("light.bedroom", "on");
  // Published when the stalled sync gives up (the states themselves are fine).
  ASSERT_TRUE(wait_until([&] { return state_of(*client, "light.bedroom") != "<missing>"; }));
  EXPECT_EQ(state_of(*client, "light.bedroom"), "on");
}

// Config, services and every registry list are asked for together: HA builds
// the next answer while the previous one is decoded here. One after another,
// a config that never comes would leave every registry list unasked.
TEST(Mirror, SyncSendsEveryFetchBeforeTheFirstAnswer) {
  FakeHa ha;
  ha.stall_command("get_config");
  ClientLoop loop;
  HaClientOptions options = fast_options();
  options.mirror.command_timeout = 3s;
  auto client = make_client(loop, ha.url(), ha.token(), options);
  client->start();
  for (const char* type : {"get_services", "config/entity_registry/list", "config/device_registry/list",
                           "config/area_registry/list", "config/floor_registry/list", "config/label_registry/list"}) {
    EXPECT_TRUE(wait_until([&] { return ha.command_count(type) >= 1; }, 2s)) << type;
  }
  EXPECT_EQ(client->status().state, MirrorState::connecting);  // the stalled config holds the sync
}

TEST(Mirror, EntityRemovalAndAddition) {
  FakeHa ha;
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  ha.remove_entity("switch.fan");
  ASSERT_TRUE(wait_until([&] { return !client->snapshot()->states.find("switch.fan"); }));
  ha.set_state("binary_sensor.door", "on");
  ASSERT_TRUE(wait_until([&] { return state_of(*client, "binary_sensor.door") == "on"; }));
}

TEST(Mirror, RegistryUpdateEventRefreshesRegistry) {
  FakeHa ha;
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  std::atomic<bool> area_change_seen{false};
  client->add_change_listener([&](const ChangeSet& cs, const SnapshotPtr&) {
    for (auto k : cs.registries_changed) {
      if (k == RegistryKind::area) area_change_seen = true;
    }
  });
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  area_change_seen = false;
  ha.add_area("garage", "Garage");
  ASSERT_TRUE(wait_until([&] { return client->snapshot()->registry(RegistryKind::area).find("garage") != nullptr; }));
  EXPECT_TRUE(area_change_seen.load());
  EXPECT_EQ(client->snapshot()->registry(RegistryKind::area).find("garage")->at("name"), "Garage");
}

TEST(Mirror, OlderHaWithoutFloorsLabelsCategoriesRecordsCapability) {
  FakeHa::Options opts;
  opts.has_floor_label_category = false;
  FakeHa ha(opts);
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  auto snap = client->snapshot();
  for (auto k : {RegistryKind::floor, RegistryKind::label, RegistryKind::category}) {
    EXPECT_FALSE(snap->capabilities.registries[static_cast<std::size_t>(k)]) << to_string(k);
    EXPECT_FALSE(snap->registry(k).available);
    EXPECT_TRUE(snap->registry(k).empty());
  }
  EXPECT_TRUE(snap->capabilities.registries[static_cast<std::size_t>(RegistryKind::area)]);
}

TEST(Mirror, ReconnectAfterDropResyncs) {
  FakeHa ha;
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  // Changes made while the client is disconnected must appear after resync.
  ha.drop_connections();
  ha.remove_entity("light.kitchen");
  ha.set_state("switch.fan", "on");
  ASSERT_TRUE(wait_until([&] { return ha.websocket_sessions() >= 2; }));
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  ASSERT_TRUE(wait_until(
      [&] { return !client->snapshot()->states.find("light.kitchen") && state_of(*client, "switch.fan") == "on"; }));
  EXPECT_EQ(client->status().state, MirrorState::synced);
  // Still live after the resync.
  ha.set_state("light.bedroom", "on");
  EXPECT_TRUE(wait_until([&] { return state_of(*client, "light.bedroom") == "on"; }));
}

TEST(Mirror, DegradesToRestPollingWithoutWebSocket) {
  FakeHa ha;
  ha.set_refuse_websocket(true);
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  client->start();
  ASSERT_TRUE(wait_until([&] { return client->status().state == MirrorState::degraded; }));
  auto st = client->status();
  EXPECT_EQ(st.mode, "rest_polling");
  EXPECT_NE(st.detail.find("polling /api/states"), std::string::npos) << st.detail;
  ASSERT_TRUE(st.last_error);  // why the WebSocket is not used
  EXPECT_EQ(client->snapshot()->states.size(), 4u);
  ha.set_state("switch.fan", "on");  // no WS subscribers: seen by the next poll
  EXPECT_TRUE(wait_until([&] { return state_of(*client, "switch.fan") == "on"; }, 5s));
  // When the WebSocket comes back, the mirror goes live again.
  ha.set_refuse_websocket(false);
  EXPECT_TRUE(wait_until([&] { return client->status().state == MirrorState::synced; }, 10s));
}

TEST(HaClient, UnreachableAtStartStillStartsAndExplains) {
  const auto port = closed_port();
  ClientLoop loop;
  auto client = make_client(loop, "http://127.0.0.1:" + std::to_string(port), "tok-123456");
  EXPECT_NO_THROW(client->start());
  ASSERT_TRUE(
      wait_until([&] { return client->status().state == MirrorState::disconnected && client->last_failure(); }));
  EXPECT_EQ(client->last_failure()->cause, ErrorCause::connection_refused);
  const auto start = std::chrono::steady_clock::now();
  try {
    json::object m;
    m["type"] = "get_states";
    loop.run(client->command(m));
    FAIL() << "command succeeded against a closed port";
  } catch (const HaException& e) {
    EXPECT_EQ(e.error().cause, ErrorCause::connection_refused) << e.error().message();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(HaClient, BadUrlGivesAClientThatExplainsOnEveryCall) {
  ClientLoop loop;
  auto client = make_client(loop, "homeassistant.local:8123", "tok");
  EXPECT_FALSE(client->configured());
  EXPECT_NO_THROW(client->start());
  ASSERT_TRUE(client->last_failure());
  EXPECT_EQ(client->last_failure()->cause, ErrorCause::invalid_url);
  EXPECT_EQ(client->status().state, MirrorState::disconnected);
  EXPECT_EQ(client->snapshot()->states.size(), 0u);
  try {
    loop.run(client->rest_get("/api/"));
    FAIL();
  } catch (const HaException& e) {
    EXPECT_EQ(e.error().cause, ErrorCause::invalid_url);
    EXPECT_NE(std::string(e.what()).find("HOMEASSISTANT_URL"), std::string::npos);
  }
}

TEST(HaClient, RevokedTokenSurfacesAsAuthErrorWithoutHang) {
  FakeHa ha;
  ClientLoop loop;
  auto client = make_client(loop, ha.url(), ha.token());
  client->start();
  ASSERT_TRUE(loop.run(client->wait_synced(10s)));
  ha.revoke_token();
  ASSERT_TRUE(wait_until([&] {
    auto e = client->last_failure();
    return e && e->cause == ErrorCause::unauthorized;
  }));
  EXPECT_NE(client->status().state, MirrorState::synced);
  // The last snapshot stays readable.
  EXPECT_EQ(client->snapshot()->states.size(), 4u);
  client->stop();
}

TEST(Snapshot, StateTableCopyOnWrite) {
  StateTable empty;
  StateTableBuilder b(empty);
  for (int i = 0; i < 1000; ++i) {
    auto s = std::make_shared<EntityState>();
    s->entity_id = "sensor.s" + std::to_string(i);
    s->state = std::to_string(i);
    b.put(s);
  }
  StateTable v1 = b.build();
  EXPECT_EQ(v1.size(), 1000u);
  StateTableBuilder b2(v1);
  auto s = std::make_shared<EntityState>(*v1.find("sensor.s5"));
  s->state = "changed";
  b2.put(s);
  b2.erase("sensor.s6");
  StateTable v2 = b2.build();
  EXPECT_EQ(v1.find("sensor.s5")->state, "5");
  EXPECT_TRUE(v1.find("sensor.s6"));
  EXPECT_EQ(v2.find("sensor.s5")->state, "changed");
  EXPECT_FALSE(v2.find("sensor.s6"));
  EXPECT_EQ(v2.size(), 999u);
  EXPECT_EQ(v2.find("sensor.s7"), v1.find("sensor.s7"));  // shared, not copied
  EXPECT_EQ(v2.entity_ids().front(), "sensor.s0");
}

TEST(Snapshot, IsoTimeRoundTrip) {
  const double t = 1767225600.25;
  EXPECT_EQ(format_iso_time(t), "2026-01-01T00:00:00.250000+00:00");
  EXPECT_DOUBLE_EQ(*parse_iso_time("2026-01-01T00:00:00.250000+00:00"), t);
  EXPECT_DOUBLE_EQ(*parse_iso_time("2026-01-01T01:00:00.250000+01:00"), t);
  EXPECT_FALSE(parse_iso_time("yesterday"));
}

// Timestamps come from HA (or anything claiming to be HA): a malformed one is
// "no time", never a made-up date or a number read past int's range.
TEST(Snapshot, IsoTimeRejectsWhatIsNotATime) {
  EXPECT_FALSE(parse_iso_time("99999999999-01-01T00:00:00+00:00"));
  EXPECT_FALSE(parse_iso_time("2026-13-01T00:00:00+00:00"));
  EXPECT_FALSE(parse_iso_time("2026-01-32T00:00:00+00:00"));
  EXPECT_FALSE(parse_iso_time("2026-01-01T00:99:00+00:00"));
  EXPECT_FALSE(parse_iso_time("2026-01-01T00:00:nan+00:00"));
  EXPECT_FALSE(parse_iso_time("2026-01-01T00:00:1e300+00:00"));
  EXPECT_FALSE(parse_iso_time("0000-01-01T00:00:00+00:00"));
  EXPECT_TRUE(parse_iso_time("2026-06-30T23:59:60.5+00:00"));  // a leap second is still a time
}
