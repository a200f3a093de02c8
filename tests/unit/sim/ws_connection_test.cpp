// The simulated WebSocket API: authentication, ids, states, services and
// subscriptions (registries, templates, history: ws_commands_test.cpp).
#include "sim/ws/ws_connection.hpp"

#include <gtest/gtest.h>

#include "unit/sim/ws_test_fixture.hpp"

namespace hamcp::sim {
namespace {

using testing::WsTest;

TEST(WsAuth, HandshakeAndInvalidToken) {
  SimCore core{generate_home(50, 1), "tok"};
  std::vector<std::string> out;
  bool closed = false;
  auto c = std::make_shared<WsConnection>(
      core, [&](std::string f) { out.push_back(f); }, [&] { closed = true; });
  auto hello = json::parse(c->auth_required());
  EXPECT_EQ(hello.at("type"), "auth_required");
  EXPECT_EQ(hello.at("ha_version"), json::value(core.ha_version()));
  c->on_message(R"({"type":"auth","access_token":"nope"})");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(json::parse(out[0]).at("message"), "Invalid access token or password");
  EXPECT_EQ(json::parse(out[0]).at("type"), "auth_invalid");
  EXPECT_TRUE(closed);

  core.revoke_token();
  out.clear();
  closed = false;
  auto d = std::make_shared<WsConnection>(
      core, [&](std::string f) { out.push_back(f); }, [&] { closed = true; });
  d->on_message(R"({"type":"auth","access_token":"tok"})");
  EXPECT_EQ(json::parse(out.at(0)).at("type"), "auth_invalid");
  EXPECT_TRUE(closed);
}

TEST_F(WsTest, IdsMustIncreaseAndPingPongs) {
  conn->on_message(R"({"id":5,"type":"ping"})");
  EXPECT_EQ(out.back(), (json::object{{"id", 5}, {"type", "pong"}}));
  conn->on_message(R"({"id":5,"type":"ping"})");
  EXPECT_EQ(out.back().at("error").at("code"), "id_reuse");
  EXPECT_EQ(out.back().at("error").at("message"), "Identifier values have to increase.");
  conn->on_message(R"({"type":"ping"})");
  EXPECT_EQ(out.back().at("error").at("code"), "invalid_format");
  next_id = 10;
  auto r = cmd({{"type", "no/such_command"}});
  EXPECT_EQ(r.at("error").at("code"), "unknown_command");
}

TEST_F(WsTest, SupportedFeaturesEnablesCoalescingAndBatchesAreAccepted) {
  EXPECT_FALSE(conn->coalesce());
  auto r = cmd({{"type", "supported_features"}, {"features", {{"coalesce_messages", 1}}}});
  EXPECT_TRUE(r.at("success").as_bool());
  EXPECT_TRUE(conn->coalesce());
  out.clear();
  conn->on_message(R"([{"id":100,"type":"ping"},{"id":101,"type":"ping"}])");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].at("id"), 101);
}

TEST_F(WsTest, GetStatesConfigServices) {
  auto r = cmd({{"type", "get_states"}});
  EXPECT_EQ(r.at("result").as_array().size(), core.store().size());
  r = cmd({{"type", "get_config"}});
  EXPECT_EQ(r.at("result").at("state"), "RUNNING");
  r = cmd({{"type", "get_services"}});
  EXPECT_TRUE(r.at("result").at("light").as_object().contains("turn_on"));
}

TEST_F(WsTest, CallServiceResultAndErrors) {
  auto r = cmd({{"type", "call_service"},
                {"domain", "light"},
                {"service", "turn_on"},
                {"service_data", {{"brightness", 33}}},
                {"target", {{"entity_id", "light.hallway_light"}}},
                {"return_response", false}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_TRUE(r.at("result").at("context").at("id").is_string());
  EXPECT_FALSE(r.at("result").as_object().contains("response"));
  EXPECT_EQ(json::value(core.store().get("light.hallway_light")->context.id), r.at("result").at("context").at("id"));
  r = cmd({{"type", "call_service"}, {"domain", "light"}, {"service", "nope"}});
  EXPECT_EQ(r.at("error").at("code"), "not_found");
  EXPECT_EQ(r.at("error").at("message"), "Service light.nope not found.");
  EXPECT_EQ(r.at("error").at("translation_key"), "service_not_found");
  r = cmd(
      {{"type", "call_service"}, {"domain", "light"}, {"service", "turn_on"}, {"service_data", {{"brightness", -1}}}});
  EXPECT_EQ(r.at("error").at("code"), "invalid_format");
  r = cmd({{"type", "call_service"}, {"service", "turn_on"}});
  EXPECT_EQ(r.at("error").at("code"), "invalid_format");
  r = cmd({{"type", "call_service"},
           {"domain", "weather"},
           {"service", "get_forecasts"},
           {"service_data", {{"type", "daily"}}},
           {"target", {{"entity_id", "weather.forecast_home"}}},
           {"return_response", true}});
  EXPECT_TRUE(r.at("result").at("response").at("weather.forecast_home").at("forecast").is_array());
}

TEST_F(WsTest, SubscribeEntitiesInitialDiffsAndRemovals) {
  int64_t sub = next_id + 1;
  auto r = cmd({{"type", "subscribe_entities"}});
  ASSERT_TRUE(r.at("success").as_bool());
  auto ev = events(sub);
  ASSERT_EQ(ev.size(), 1u);
  const auto& a = ev[0].at("a").as_object();
  EXPECT_EQ(a.size(), core.store().size());
  const auto& lamp = a.at("light.living_room_floor_lamp").as_object();
  EXPECT_TRUE(lamp.at("lc").is_double());  // float seconds
  EXPECT_TRUE(lamp.at("s").is_string());
  EXPECT_TRUE(lamp.at("c").is_string());  // bare context id when parent/user are null

  out.clear();
  call("light", "turn_on", {{"rgb_color", json::array{1, 2, 3}}}, "light.living_room_floor_lamp");
  ev = events(sub);
  ASSERT_EQ(ev.size(), 1u);
  const auto& diff = ev[0].at("c").at("light.living_room_floor_lamp").as_object();
  EXPECT_EQ(diff.at("+").at("s"), "on");
  EXPECT_TRUE(diff.at("+").at("lc").is_double());
  EXPECT_EQ(diff.at("+").at("a").at("rgb_color"), (json::array{1, 2, 3}));
  EXPECT_TRUE(diff.at("+").at("c").is_object());  // user_id changed -> dict
  EXPECT_FALSE(diff.at("+").as_object().contains("lu"));

  out.clear();
  call("light", "turn_on", {{"brightness", 10}}, "light.living_room_floor_lamp");
  auto ev2 = events(sub);
  const auto& attr_only = ev2.at(0).at("c").at("light.living_room_floor_lamp").as_object();
  EXPECT_FALSE(attr_only.at("+").as_object().contains("s"));
  EXPECT_TRUE(attr_only.at("+").at("lu").is_double());
  EXPECT_EQ(attr_only.at("+").at("a"), (json::object{{"brightness", 10}}));

  out.clear();
  call("media_player", "turn_off", {}, "media_player.living_room_tv");
  auto ev3 = events(sub);
  const auto& removed = ev3.at(0).at("c").at("media_player.living_room_tv").as_object();
  ASSERT_TRUE(removed.contains("-"));
  EXPECT_FALSE(removed.at("-").at("a").as_array().empty());

  out.clear();
  Context ctx = core.store().new_context();
  core.store().set_state("sensor.new_one", "1", {}, ctx);
  EXPECT_TRUE(events(sub).at(0).at("a").as_object().contains("sensor.new_one"));
  out.clear();
  core.store().remove_state("sensor.new_one", ctx);
  EXPECT_EQ(events(sub).at(0).at("r"), (json::array{"sensor.new_one"}));

  out.clear();
  r = cmd({{"type", "unsubscribe_events"}, {"subscription", sub}});
  EXPECT_TRUE(r.at("success").as_bool());
  out.clear();
  call("light", "turn_off", {}, "light.living_room_floor_lamp");
  EXPECT_TRUE(events(sub).empty());
}

TEST_F(WsTest, SubscribeEntitiesFilter) {
  int64_t sub = next_id + 1;
  cmd({{"type", "subscribe_entities"}, {"entity_ids", json::array{"light.hallway_light"}}});
  EXPECT_EQ(events(sub).at(0).at("a").as_object().size(), 1u);
  out.clear();
  call("light", "turn_on", {}, "light.office_ceiling_light");
  EXPECT_TRUE(events(sub).empty());
}

TEST_F(WsTest, SubscribeEventsDeliversStateChanged) {
  int64_t sub = next_id + 1;
  cmd({{"type", "subscribe_events"}, {"event_type", "state_changed"}});
  out.clear();
  call("switch", "toggle", {}, "switch.garden_fountain");
  auto ev = events(sub);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev[0].at("event_type"), "state_changed");
  EXPECT_EQ(ev[0].at("data").at("entity_id"), "switch.garden_fountain");
  EXPECT_EQ(ev[0].at("origin"), "LOCAL");
  EXPECT_TRUE(ev[0].at("time_fired").is_string());
}

}  // namespace
}  // namespace hamcp::sim
