// The simulator's energy and Assist commands in HA 2026.2's shapes:
// energy/get_prefs|save_prefs|info|validate with the schema's refusals,
// assist_pipeline/pipeline/* (all fields required, preferred not deletable),
// conversation/process acting on the sim's states.
#include <gtest/gtest.h>

#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim {
namespace {

using Assist = testing::WsCommandTest;

TEST_F(Assist, EnergyPrefsAreSavedKeyByKeyAndValidated) {
  auto r = cmd({{"type", "energy/get_prefs"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_EQ(r.at("result").at("energy_sources").as_array().size(), 2u);
  r = cmd({{"type", "energy/save_prefs"},
           {"device_consumption", json::array{json::object{{"stat_consumption", "sensor.no_such_energy"}}}}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_EQ(r.at("result").at("energy_sources").as_array().size(), 2u);  // untouched key kept
  r = cmd({{"type", "energy/validate"}});
  const json::array& device_issues = r.at("result").at("device_consumption").as_array();
  ASSERT_EQ(device_issues.size(), 1u);
  ASSERT_EQ(device_issues[0].as_array().size(), 2u);  // HA's order: statistics first, then the entity
  EXPECT_EQ(device_issues[0].as_array()[0].at("type").as_string(), "statistics_not_defined");
  EXPECT_EQ(device_issues[0].as_array()[1].at("type").as_string(), "entity_not_defined");
  r = cmd({{"type", "energy/save_prefs"}, {"device_consumption", json::array{json::object{{"name", "x"}}}}});
  EXPECT_EQ(code(r), "invalid_format");
  EXPECT_NE(message(r).find("stat_consumption"), std::string::npos) << message(r);
  json::object grid{
      {"type", "grid"}, {"flow_from", json::array{}}, {"flow_to", json::array{}}, {"cost_adjustment_day", 0}};
  r = cmd({{"type", "energy/save_prefs"}, {"energy_sources", json::array{grid, grid}}});
  EXPECT_EQ(message(r), "Message incorrectly formatted: You cannot have more than 1 grid source");
  r = cmd({{"type", "energy/info"}});
  EXPECT_TRUE(r.at("result").as_object().contains("solar_forecast_domains"));
}

TEST_F(Assist, PipelinesFollowTheStorageCollection) {
  auto r = cmd({{"type", "assist_pipeline/pipeline/list"}});
  const std::string preferred(r.at("result").at("preferred_pipeline").as_string());
  r = cmd({{"type", "assist_pipeline/pipeline/create"}, {"name", "x"}, {"language", "en"}});
  EXPECT_EQ(code(r), "invalid_format");
  EXPECT_NE(message(r).find("required key not provided"), std::string::npos);
  r = cmd({{"type", "assist_pipeline/pipeline/delete"}, {"pipeline_id", preferred}});
  EXPECT_EQ(code(r), "not_allowed");
  r = cmd({{"type", "assist_pipeline/pipeline/get"}, {"pipeline_id", "nope"}});
  EXPECT_EQ(message(r), "Unable to find pipeline_id nope");
  r = cmd({{"type", "assist_pipeline/pipeline/set_preferred"}, {"pipeline_id", "nope"}});
  EXPECT_EQ(message(r), "unknown item");
}

TEST_F(Assist, ConversationProcessTurnsALightOnAndOff) {
  auto r = cmd({{"type", "conversation/process"}, {"text", "Turn off the kitchen ceiling light."}});
  ASSERT_TRUE(r.at("success").as_bool());
  const json::object& res = r.at("result").as_object();
  EXPECT_EQ(res.at("response").at("response_type").as_string(), "action_done");
  EXPECT_EQ(res.at("response").at("data").at("success").as_array()[0].at("id").as_string(),
            "light.kitchen_ceiling_light");
  EXPECT_EQ(core.store().get("light.kitchen_ceiling_light")->state, "off");
  r = cmd({{"type", "conversation/process"}, {"text", "turn on the garage spaceship"}});
  EXPECT_EQ(r.at("result").at("response").at("data").at("code").as_string(), "no_valid_targets");
  r = cmd({{"type", "conversation/process"}, {"text", "hello"}, {"conversation_id", "abc"}});
  EXPECT_EQ(r.at("result").at("conversation_id").as_string(), "abc");
  EXPECT_EQ(r.at("result").at("response").at("data").at("code").as_string(), "no_intent_match");
}

}  // namespace
}  // namespace hamcp::sim
