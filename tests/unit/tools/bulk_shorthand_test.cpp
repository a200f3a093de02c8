// ha_bulk_control takes ha-mcp's documented operation form
// {"entity_id":"light.hall","action":"off"} and its action words per domain.
// Before: "off" was sent as the service name ("Domain light has no service off").
#include "tools/action_shorthand.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

TEST(ActionShorthand, MapsWordsToTheDomainsServices) {
  auto service = [](std::string_view domain, std::string_view action) {
    return resolve_action(domain, action).service;
  };
  EXPECT_EQ(service("light", "off"), "turn_off");
  EXPECT_EQ(service("switch", "on"), "turn_on");
  EXPECT_EQ(service("fan", "toggle"), "toggle");
  EXPECT_EQ(service("cover", "open"), "open_cover");
  EXPECT_EQ(service("cover", "close"), "close_cover");
  EXPECT_EQ(service("cover", "stop"), "stop_cover");
  EXPECT_EQ(service("valve", "close"), "close_valve");
  EXPECT_EQ(service("lock", "lock"), "lock");
  EXPECT_EQ(service("lock", "unlock"), "unlock");
  EXPECT_EQ(service("lock", "open"), "open");
  EXPECT_EQ(service("media_player", "play"), "media_play");
  EXPECT_EQ(service("media_player", "next"), "media_next_track");
  EXPECT_EQ(service("alarm_control_panel", "disarm"), "alarm_disarm");
  EXPECT_EQ(service("vacuum", "stop"), "stop");
  EXPECT_EQ(service("light", "turn_off"), "turn_off");  // service names pass unchanged
  ResolvedAction heat = resolve_action("climate", "heat");
  EXPECT_EQ(heat.service, "set_hvac_mode");
  EXPECT_EQ(heat.extra_data.at("hvac_mode").as_string(), "heat");
}

TEST_F(ToolsTest, BulkControlTakesHaMcpsActionWords) {
  start();
  CallResult r = call("ha_bulk_control", R"({"operations":[
    {"entity_id":"light.kitchen_ceiling_light","action":"off"},
    {"entity_id":"switch.kuche_wasserkocher","action":"on"},
    {"entity_id":"cover.living_room_blinds","action":"close"},
    {"entity_id":"lock.front_door_lock","action":"unlock"},
    {"entity_id":"climate.living_room_radiator","action":"heat"}]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("failed").to_number<std::int64_t>(), 0) << r.text;
  const auto& results = r.structured.at("results").as_array();
  EXPECT_EQ(results.at(0).at("service").as_string(), "light.turn_off");
  EXPECT_EQ(results.at(2).at("service").as_string(), "cover.close_cover");
  EXPECT_EQ(results.at(4).at("service").as_string(), "climate.set_hvac_mode");
  auto state = [&](const char* id) { return ha->snapshot()->states.find(id)->state; };
  EXPECT_EQ(state("light.kitchen_ceiling_light"), "off");
  EXPECT_EQ(state("switch.kuche_wasserkocher"), "on");
  EXPECT_EQ(state("lock.front_door_lock"), "unlocked");
  EXPECT_EQ(state("climate.living_room_radiator"), "heat");

  r = call("ha_bulk_control", R"({"operations":[{"entity_id":"cover.living_room_blinds","action":"open"},
    {"entity_id":"lock.front_door_lock","action":"lock"},{"entity_id":"light.kitchen_ceiling_light","action":"toggle"}]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("failed").to_number<std::int64_t>(), 0) << r.text;
  EXPECT_EQ(state("cover.living_room_blinds"), "open");
  EXPECT_EQ(state("lock.front_door_lock"), "locked");
  EXPECT_EQ(state("light.kitchen_ceiling_light"), "on");
}

}  // namespace
}  // namespace hamcp::tools::testing
