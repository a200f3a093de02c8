// The simulated WebSocket API's commands: registries, areas and labels,
// search, helpers, templates, history, and a 100k-entity initial frame.
#include <gtest/gtest.h>

#include "sim/ws/ws_connection.hpp"
#include "unit/sim/ws_test_fixture.hpp"

namespace hamcp::sim {
namespace {

using testing::WsTest;

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
