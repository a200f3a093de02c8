#include "sim/ws/ws_connection.hpp"

#include <gtest/gtest.h>

namespace hamcp::sim {
namespace {

// A WebSocket connection without a network: frames out are collected.
class WsTest : public ::testing::Test {
 protected:
  SimCore core{demo_home(), "tok"};
  std::vector<json::value> out;
  bool closed = false;
  std::shared_ptr<WsConnection> conn = std::make_shared<WsConnection>(
      core, [this](std::string f) { out.push_back(json::parse(f)); }, [this] { closed = true; });
  int64_t next_id = 1;

  void SetUp() override {
    conn->on_message(R"({"type":"auth","access_token":"tok"})");
    ASSERT_EQ(out.back().at("type"), "auth_ok");
    out.clear();
  }
  void TearDown() override { conn->shutdown(); }

  // Sends a command, returns its result message.
  json::object cmd(json::object msg) {
    int64_t id = ++next_id;
    msg["id"] = id;
    out.clear();
    conn->on_message(json::serialize(msg));
    for (auto& m : out)
      if (m.at("id") == id && m.at("type") == "result") return m.as_object();
    ADD_FAILURE() << "no result for " << json::serialize(msg);
    return {};
  }
  std::vector<json::object> events(int64_t id) {
    std::vector<json::object> ev;
    for (auto& m : out)
      if (m.at("type") == "event" && m.at("id") == id) ev.push_back(m.at("event").as_object());
    return ev;
  }
  void call(const char* domain, const char* service, json::object data, const char* entity) {
    auto r = cmd({{"type", "call_service"},
                  {"domain", domain},
                  {"service", service},
                  {"service_data", data},
                  {"target", {{"entity_id", entity}}}});
    ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  }
};

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

TEST_F(WsTest, EntityRegistryUpdateRenameAndConflicts) {
  int64_t sub = next_id + 1;
  cmd({{"type", "subscribe_events"}, {"event_type", "entity_registry_updated"}});
  auto r = cmd({{"type", "config/entity_registry/update"},
                {"entity_id", "light.hallway_light"},
                {"name", "Hall lamp"},
                {"aliases", json::array{"corridor"}},
                {"labels", json::array{"security"}},
                {"area_id", "office"}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_EQ(r.at("result").at("entity_entry").at("name"), "Hall lamp");
  EXPECT_EQ(r.at("result").at("entity_entry").at("aliases"), (json::array{"corridor"}));
  EXPECT_EQ(core.store().get("light.hallway_light")->attributes.at("friendly_name"), "Hall lamp");
  auto ev = events(sub);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev[0].at("data").at("action"), "update");

  r = cmd({{"type", "config/entity_registry/update"},
           {"entity_id", "light.hallway_light"},
           {"new_entity_id", "light.office_ceiling_light"}});
  EXPECT_EQ(r.at("error").at("code"), "invalid_info");
  r = cmd({{"type", "config/entity_registry/update"},
           {"entity_id", "light.hallway_light"},
           {"new_entity_id", "switch.hall"}});
  EXPECT_EQ(r.at("error").at("code"), "invalid_info");
  r = cmd({{"type", "config/entity_registry/update"},
           {"entity_id", "light.hallway_light"},
           {"new_entity_id", "light.hall"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_FALSE(core.store().get("light.hallway_light"));
  EXPECT_TRUE(core.store().get("light.hall"));
  r = cmd({{"type", "config/entity_registry/get"}, {"entity_id", "light.hall"}});
  EXPECT_EQ(r.at("result").at("name"), "Hall lamp");
  r = cmd({{"type", "config/entity_registry/get"}, {"entity_id", "light.hallway_light"}});
  EXPECT_EQ(r.at("error").at("code"), "not_found");

  r = cmd({{"type", "config/entity_registry/update"}, {"entity_id", "light.hall"}, {"disabled_by", "user"}});
  EXPECT_FALSE(core.store().get("light.hall"));
  r = cmd({{"type", "config/entity_registry/update"}, {"entity_id", "light.hall"}, {"disabled_by", nullptr}});
  EXPECT_TRUE(core.store().get("light.hall"));
  EXPECT_EQ(r.at("result").at("reload_delay"), 30);
}

TEST_F(WsTest, RegistryListsAndDisplayForm) {
  auto r = cmd({{"type", "config/entity_registry/list"}});
  EXPECT_EQ(r.at("result").as_array().size(), core.store().home().entities.size());
  const auto& first = r.at("result").as_array().front().as_object();
  for (const char* k : {"entity_id", "id", "unique_id", "platform", "device_id", "area_id", "labels", "categories",
                        "name", "original_name", "icon", "disabled_by", "hidden_by", "has_entity_name", "options"})
    EXPECT_TRUE(first.contains(k)) << k;
  EXPECT_FALSE(first.contains("aliases"));  // only in the extended form
  r = cmd({{"type", "config/entity_registry/list_for_display"}});
  EXPECT_EQ(r.at("result").at("entity_categories").at("0"), "config");
  EXPECT_TRUE(r.at("result").at("entities").as_array().front().as_object().contains("ei"));
  r = cmd({{"type", "config/device_registry/list"}});
  EXPECT_EQ(r.at("result").as_array().size(), core.store().home().devices.size());

  core.pad_registry_bytes = std::size_t{2} * 1024 * 1024;
  out.clear();
  r = cmd({{"type", "config/entity_registry/list"}});
  EXPECT_GE(json::serialize(r.at("result")).size(), 2u * 1024 * 1024 * 9 / 10);
}

TEST_F(WsTest, AreaFloorLabelCategoryCrudFireEvents) {
  int64_t sub = next_id + 1;
  cmd({{"type", "subscribe_events"}});
  auto r = cmd({{"type", "config/floor_registry/create"}, {"name", "Loft"}, {"level", 3}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_EQ(r.at("result").at("floor_id"), "loft");
  r = cmd({{"type", "config/area_registry/create"},
           {"name", "Sauna"},
           {"floor_id", "loft"},
           {"aliases", json::array{"Spa"}}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_EQ(r.at("result").at("area_id"), "sauna");
  r = cmd({{"type", "config/area_registry/create"}, {"name", "sauna"}});
  EXPECT_EQ(r.at("error").at("code"), "invalid_info");
  r = cmd({{"type", "config/label_registry/create"}, {"name", "Wellness"}, {"color", "teal"}});
  EXPECT_EQ(r.at("result").at("label_id"), "wellness");
  r = cmd({{"type", "config/category_registry/create"}, {"scope", "automation"}, {"name", "Spa"}});
  ASSERT_TRUE(r.at("success").as_bool());
  r = cmd({{"type", "config/device_registry/update"},
           {"device_id", core.store().home().devices.front().id},
           {"area_id", "sauna"}});
  EXPECT_EQ(r.at("result").at("area_id"), "sauna");
  r = cmd({{"type", "config/floor_registry/delete"}, {"floor_id", "loft"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_FALSE(core.store().area("sauna")->floor_id);
  r = cmd({{"type", "config/area_registry/delete"}, {"area_id", "sauna"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_FALSE(core.store().home().devices.front().area_id);
  r = cmd({{"type", "config/area_registry/delete"}, {"area_id", "sauna"}});
  EXPECT_EQ(r.at("error").at("code"), "invalid_info");
  out.clear();
  cmd({{"type", "config/label_registry/delete"}, {"label_id", "wellness"}});
  auto ev = events(sub);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev[0].at("event_type"), "label_registry_updated");
  EXPECT_EQ(ev[0].at("data"), (json::object{{"action", "remove"}, {"label_id", "wellness"}}));
}

TEST_F(WsTest, SearchRelatedAndConfigs) {
  auto r = cmd({{"type", "search/related"}, {"item_type", "entity"}, {"item_id", "light.hallway_light"}});
  const auto& res = r.at("result").as_object();
  EXPECT_EQ(res.at("area"), (json::array{"hallway"}));
  EXPECT_EQ(res.at("automation"), (json::array{"automation.hallway_light_on_motion"}));
  EXPECT_TRUE(res.contains("device"));
  r = cmd({{"type", "automation/config"}, {"entity_id", "automation.hallway_light_on_motion"}});
  EXPECT_TRUE(r.at("result").at("config").at("triggers").is_array());
  r = cmd({{"type", "script/config"}, {"entity_id", "script.goodnight"}});
  EXPECT_EQ(r.at("result").at("config").at("alias"), "Goodnight");
}

TEST_F(WsTest, HelperCollections) {
  auto r = cmd({{"type", "input_boolean/create"}, {"name", "Party Mode"}, {"icon", "mdi:party-popper"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_EQ(r.at("result").at("id"), "party_mode");
  EXPECT_EQ(core.store().get("input_boolean.party_mode")->state, "off");
  r = cmd({{"type", "input_select/create"}, {"name", "Mood"}, {"options", json::array{"calm", "lively"}}});
  EXPECT_EQ(core.store().get("input_select.mood")->state, "calm");
  r = cmd({{"type", "input_boolean/update"}, {"input_boolean_id", "party_mode"}, {"name", "Party!"}});
  EXPECT_EQ(core.store().get("input_boolean.party_mode")->attributes.at("friendly_name"), "Party!");
  r = cmd({{"type", "input_boolean/list"}});
  bool found = false;
  for (auto& i : r.at("result").as_array()) found |= i.at("id") == "party_mode";
  EXPECT_TRUE(found);
  r = cmd({{"type", "input_boolean/delete"}, {"input_boolean_id", "party_mode"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_FALSE(core.store().get("input_boolean.party_mode"));
  EXPECT_FALSE(core.store().entity_entry("input_boolean.party_mode"));
}

TEST_F(WsTest, RenderTemplateSubscription) {
  int64_t sub = next_id + 1;
  auto r = cmd({{"type", "render_template"}, {"template", "{{ is_state('switch.garden_fountain', 'on') }}"}});
  ASSERT_TRUE(r.at("success").as_bool());
  auto ev = events(sub);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_TRUE(ev[0].at("result").is_bool());
  EXPECT_EQ(ev[0].at("listeners").at("entities"), (json::array{"switch.garden_fountain"}));
  out.clear();
  call("switch", "toggle", {}, "switch.garden_fountain");
  EXPECT_EQ(events(sub).size(), 1u);
  r = cmd({{"type", "render_template"}, {"template", "{{ bogus_fn() }}"}});
  EXPECT_EQ(r.at("error").at("code"), "template_error");
}

TEST_F(WsTest, HistoryLogbookStatistics) {
  call("switch", "turn_off", {}, "switch.coffee_machine");
  call("switch", "turn_on", {}, "switch.coffee_machine");
  call("switch", "turn_off", {}, "switch.coffee_machine");
  std::string start = "2020-01-01T00:00:00Z";
  auto r = cmd({{"type", "history/history_during_period"},
                {"start_time", start},
                {"entity_ids", json::array{"switch.coffee_machine", "sensor.living_room_climate_temperature"}},
                {"minimal_response", true}});
  const auto& h = r.at("result").as_object();
  const auto& sw = h.at("switch.coffee_machine").as_array();
  ASSERT_GE(sw.size(), 2u);
  EXPECT_TRUE(sw[0].as_object().contains("a"));
  EXPECT_FALSE(sw.back().as_object().contains("a"));
  EXPECT_TRUE(sw.back().at("lu").is_double());
  EXPECT_GT(h.at("sensor.living_room_climate_temperature").as_array().size(), 24u);  // synthesized hourly data
  r = cmd(
      {{"type", "logbook/get_events"}, {"start_time", start}, {"entity_ids", json::array{"switch.coffee_machine"}}});
  ASSERT_GE(r.at("result").as_array().size(), 2u);
  EXPECT_EQ(r.at("result").as_array().back().at("state"), "off");
  r = cmd(
      {{"type", "recorder/statistics_during_period"},
       {"start_time", start},
       {"period", "hour"},
       {"statistic_ids", json::array{"sensor.living_room_climate_temperature", "sensor.grid_meter_energy_import"}}});
  const auto& stats = r.at("result").as_object();
  ASSERT_TRUE(stats.contains("sensor.living_room_climate_temperature"));
  EXPECT_TRUE(stats.at("sensor.living_room_climate_temperature").as_array().front().as_object().contains("mean"));
  ASSERT_TRUE(stats.contains("sensor.grid_meter_energy_import"));
  EXPECT_TRUE(stats.at("sensor.grid_meter_energy_import").as_array().front().as_object().contains("sum"));
  r = cmd({{"type", "history/history_during_period"}, {"start_time", "yesterday"}, {"entity_ids", json::array{"x.y"}}});
  EXPECT_EQ(r.at("error").at("code"), "invalid_format");
}

TEST(WsLarge, HundredThousandEntitiesInitialFrames) {
  SimCore core{generate_home(100000, 1), "tok"};
  std::vector<std::string> frames;
  auto c = std::make_shared<WsConnection>(
      core, [&](std::string f) { frames.push_back(std::move(f)); }, [] {});
  c->on_message(R"({"type":"auth","access_token":"tok"})");
  c->on_message(R"({"id":1,"type":"get_states"})");
  ASSERT_EQ(frames.size(), 2u);
  auto states = json::parse(frames[1]);
  EXPECT_EQ(states.at("result").as_array().size(), 100000u);
  frames.clear();
  c->on_message(R"({"id":2,"type":"subscribe_entities"})");
  ASSERT_EQ(frames.size(), 2u);
  auto initial = json::parse(frames[1]);
  EXPECT_EQ(initial.at("event").at("a").as_object().size(), 100000u);
  c->shutdown();
}

}  // namespace
}  // namespace hamcp::sim
