// ha_manage_energy_prefs and ha_manage_pipeline against the demo sim: prefs
// read with a hash, a dry run that saves nothing, saves guarded by
// config_hash and journaled, restored; unknown statistics named by field;
// pipelines created, updated, preferred and restored; a sentence processed
// through Assist switching a light; every error names its field.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::value& o, std::string_view key) { return std::string(o.at(key).as_string()); }

std::string error_code(const CallResult& r) {
  const json::value* e = r.structured.if_contains("error");
  return e ? str(*e, "code") : std::string();
}

class EnergyVoiceTest : public ToolsTest {
 protected:
  json::object prefs() {
    CallResult r = call("ha_manage_energy_prefs", R"({"mode":"get"})");
    EXPECT_FALSE(r.is_error) << r.text;
    return r.structured;
  }
  std::size_t devices() { return prefs().at("prefs").at("device_consumption").as_array().size(); }
  std::string sim_state(const std::string& entity_id) {
    std::lock_guard lock(sim->store().mutex());
    auto s = sim->store().get(entity_id);
    return s ? s->state : std::string();
  }
};

TEST_F(EnergyVoiceTest, GetShowsTheDemoSourcesWithAHashAndStatistics) {
  start();
  CallResult r = call("ha_manage_energy_prefs", R"({"mode":"get","include_statistics":true,"include_schema":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::array& sources = r.structured.at("prefs").at("energy_sources").as_array();
  ASSERT_EQ(sources.size(), 2u);
  EXPECT_EQ(str(sources[0], "type"), "grid");
  EXPECT_EQ(str(sources[1], "stat_energy_from"), "sensor.solar_inverter_energy");
  EXPECT_EQ(str(r.structured, "config_hash").size(), 16u);
  EXPECT_EQ(r.structured.at("validation").at("energy_sources").as_array().size(), 2u);
  EXPECT_NE(r.text.find("sensor.grid_meter_energy_import"), std::string::npos);
  EXPECT_TRUE(r.structured.contains("schema"));
  EXPECT_TRUE(r.structured.at("info").as_object().contains("cost_sensors")) << r.text;
}

TEST_F(EnergyVoiceTest, DryRunShowsTheDiffAndSavesNothing) {
  start();
  const std::string hash = str(prefs(), "config_hash");
  CallResult r = call("ha_manage_energy_prefs", R"({"mode":"add_device","stat_consumption":
      "sensor.office_monitor_plug_energy","name":"Monitors","dry_run":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("saved").as_bool());
  const json::array& diff = r.structured.at("diff").as_array();
  ASSERT_EQ(diff.size(), 1u);
  EXPECT_EQ(str(diff[0], "op"), "add");
  EXPECT_EQ(str(diff[0], "path"), "/device_consumption/-");
  EXPECT_EQ(str(prefs(), "config_hash"), hash);
  EXPECT_EQ(devices(), 3u);
}

TEST_F(EnergyVoiceTest, DeviceAddedJournaledAndRestored) {
  start();
  const std::string hash = str(prefs(), "config_hash");
  CallResult r =
      call("ha_manage_energy_prefs",
           R"({"mode":"add_device","stat_consumption":"sensor.office_monitor_plug_energy","name":"Monitors"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("saved").as_bool());
  EXPECT_NE(str(r.structured, "config_hash"), hash);
  EXPECT_EQ(devices(), 4u);
  const std::string edit = str(r.structured, "edit_id");
  r = call("ha_config_set", R"({"restore":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "restored");
  EXPECT_EQ(devices(), 3u);
  EXPECT_EQ(str(prefs(), "config_hash"), hash);
}

TEST_F(EnergyVoiceTest, SetNeedsTheCurrentHashAndAStaleOneWritesNothing) {
  start();
  const std::string hash = str(prefs(), "config_hash");
  CallResult r = call("ha_manage_energy_prefs", R"({"mode":"set","config":{"device_consumption":[]}})");
  EXPECT_EQ(error_code(r), "invalid_argument") << r.text;
  EXPECT_NE(r.text.find("config_hash"), std::string::npos);
  r = call("ha_manage_energy_prefs", R"({"mode":"set","config":{"device_consumption":[]},"config_hash":"0000"})");
  EXPECT_EQ(error_code(r), "stale_config_hash") << r.text;
  EXPECT_EQ(devices(), 3u);
  r = call("ha_manage_energy_prefs",
           R"({"mode":"set","config":{"device_consumption":[]},"config_hash":")" + hash + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(devices(), 0u);
}

TEST_F(EnergyVoiceTest, UnknownStatisticsAndBadArgumentsNameTheirField) {
  start();
  CallResult r = call("ha_manage_energy_prefs", R"({"mode":"add_device","stat_consumption":"sensor.no_such_meter"})");
  EXPECT_EQ(error_code(r), "unknown_statistic") << r.text;
  EXPECT_NE(r.text.find("stat_consumption"), std::string::npos);
  r = call("ha_manage_energy_prefs",
           R"({"mode":"add_source","source":{"type":"solar","stat_energy_from":"sensor.roof_panels"}})");
  EXPECT_EQ(error_code(r), "unknown_statistic") << r.text;
  EXPECT_NE(r.text.find("source.stat_energy_from"), std::string::npos);
  r = call("ha_manage_energy_prefs", R"({"mode":"add_source","source":{"type":"wind"}})");
  EXPECT_NE(r.text.find("source.type"), std::string::npos) << r.text;
  r = call("ha_manage_energy_prefs", R"({"mode":"remove_device","stat_consumption":"sensor.nothing"})");
  EXPECT_NE(r.text.find("sensor.coffee_machine_energy"), std::string::npos) << r.text;
  r = call("ha_manage_energy_prefs", R"({"mode":"add_device","stat_consumption":"sensor.coffee_machine_energy"})");
  EXPECT_NE(r.text.find("already"), std::string::npos) << r.text;
  EXPECT_EQ(devices(), 3u);
}

TEST_F(EnergyVoiceTest, SourceAddedAndDeviceRemoved) {
  start();
  CallResult r = call("ha_manage_energy_prefs", R"({"mode":"add_source","source":{"type":"gas",
      "stat_energy_from":"sensor.kuche_wasserkocher_energy"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(prefs().at("prefs").at("energy_sources").as_array().size(), 3u);
  r = call("ha_manage_energy_prefs", R"({"mode":"remove_device","stat_consumption":"sensor.dishwasher_energy"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(devices(), 2u);
}

TEST_F(EnergyVoiceTest, PipelineCreatedUpdatedPreferredAndRestored) {
  start();
  CallResult r = call("ha_manage_pipeline", R"({"action":"list"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string preferred = str(r.structured, "preferred_pipeline");
  EXPECT_EQ(r.structured.at("pipelines").as_array().size(), 2u);
  r = call("ha_manage_pipeline", R"({"action":"create","name":"Kitchen","language":"en","make_preferred":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string id = str(r.structured.at("pipeline"), "id");
  EXPECT_EQ(str(r.structured, "preferred_pipeline"), id);
  r = call("ha_manage_pipeline", R"({"action":"update","pipeline_id":")" + id + R"(","tts_voice":"anna"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("pipeline"), "tts_voice"), "anna");
  EXPECT_EQ(str(r.structured.at("pipeline"), "name"), "Kitchen");
  const std::string update_edit = str(r.structured, "edit_id");
  r = call("ha_config_set", R"({"restore":")" + update_edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_manage_pipeline", R"({"action":"get"})");
  EXPECT_EQ(str(r.structured.at("pipeline"), "id"), id);
  EXPECT_FALSE(r.structured.at("pipeline").as_object().contains("tts_voice")) << r.text;  // null again
  r = call("ha_manage_pipeline", R"({"action":"set_preferred","pipeline_id":")" + preferred + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_manage_pipeline", R"({"action":"list"})");
  EXPECT_EQ(str(r.structured, "preferred_pipeline"), preferred);
  r = call("ha_manage_pipeline", R"({"action":"set_preferred","pipeline_id":"nope"})");
  EXPECT_EQ(error_code(r), "pipeline_not_found") << r.text;
  r = call("ha_manage_pipeline", R"({"action":"create"})");
  EXPECT_NE(r.text.find("name"), std::string::npos) << r.text;
}

TEST_F(EnergyVoiceTest, SentenceThroughAssistSwitchesTheLight) {
  start();
  const std::string light = "light.kitchen_ceiling_light";
  CallResult r = call("ha_manage_pipeline", R"({"action":"process","sentence":"Turn off the kitchen ceiling light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(sim_state(light), "off");
  r = call("ha_manage_pipeline", R"({"action":"process","sentence":"turn on the Kitchen Ceiling Light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "response_type"), "action_done");
  EXPECT_EQ(str(r.structured, "speech"), "Turned on the light");
  EXPECT_EQ(str(r.structured.at("success").as_array()[0], "id"), light);
  EXPECT_EQ(str(r.structured.at("states_now"), light), "on");
  EXPECT_EQ(sim_state(light), "on");
  EXPECT_FALSE(str(r.structured, "conversation_id").empty());
  r = call("ha_manage_pipeline", R"({"action":"process","sentence":"what is the temperature in the living room"})");
  EXPECT_EQ(str(r.structured, "response_type"), "query_answer") << r.text;
  r = call("ha_manage_pipeline", R"({"action":"process","sentence":"make me a sandwich"})");
  EXPECT_EQ(str(r.structured, "error_code"), "no_intent_match") << r.text;
  r = call("ha_manage_pipeline", R"({"action":"process"})");
  EXPECT_NE(r.text.find("sentence"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
