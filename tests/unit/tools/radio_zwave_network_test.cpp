// ha_manage_radio radio=zwave ping, add and hard_reset against the demo sim
// (sim/ws/ws_zwave_commands.cpp): ping presses the node's ping button and
// reads its status, add collects inclusion events for params.seconds then
// stops inclusion, hard_reset previews (nothing changed) then resets.
#include "unit/tools/radio_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class RadioZwaveNetworkTest : public RadioTest {
 protected:
  json::value zwave(const char* key) { return radio_data("zwave_js", key); }
  bool including() { return zwave("controller").at("inclusion_state").as_int64() != 0; }
  // An add cut by a drop: not repeated, and the inclusion ended all the same.
  void expect_cut_and_stopped(const CallResult& cut) {
    EXPECT_EQ(cut.code(), "write_outcome_unknown") << cut.text;
    EXPECT_NE(cut.text.find("it was not repeated"), std::string::npos) << cut.text;
    const json::value* stopped = cut.error().if_contains("inclusion_stopped");
    ASSERT_NE(stopped, nullptr) << cut.text;
    EXPECT_EQ(*stopped, true) << cut.text;
    EXPECT_FALSE(including());
  }
};

TEST_F(RadioZwaveNetworkTest, PingPressesTheNodesPingButton) {
  start();
  CallResult ping =
      radio(R"({"radio":"zwave","action":"ping","device_id":")" + device_named("Basement Dimmer") + "\"}");
  ASSERT_FALSE(ping.is_error) << ping.text;
  const std::string button(ping.structured.at("pressed").as_string());
  EXPECT_EQ(button.rfind("button.", 0), 0u) << button;
  EXPECT_NE(state_of(button), "unknown");  // a pressed button's state is the press time
  EXPECT_TRUE(ping.structured.at("status").is_string()) << ping.text;
  CallResult controller =
      radio(R"({"radio":"zwave","action":"ping","device_id":")" + device_named("Z-Wave Controller") + "\"}");
  EXPECT_EQ(controller.code(), "no_ping_button") << controller.text;
}

TEST_F(RadioZwaveNetworkTest, AddReportsInclusionEventsThenStops) {
  start();
  CallResult add = radio(R"({"radio":"zwave","action":"add","params":{"seconds":1}})");
  ASSERT_FALSE(add.is_error) << add.text;
  const json::array& events = add.structured.at("events").as_array();
  ASSERT_EQ(events.size(), 1u) << add.text;
  EXPECT_EQ(events[0].at("event"), "inclusion started");
  EXPECT_FALSE(add.structured.at("node_found").as_bool());
  EXPECT_TRUE(add.structured.at("inclusion_stopped").as_bool()) << add.text;
  EXPECT_EQ(zwave("controller").at("inclusion_state").as_int64(), 0);
  CallResult too_long = radio(R"({"radio":"zwave","action":"add","params":{"seconds":600}})");
  EXPECT_NE(too_long.text.find("params.seconds"), std::string::npos) << too_long.text;
}

// A drop during inclusion: add_node is not sent again; the call says so and ends
// the inclusion HA's controller would otherwise keep running.
TEST_F(RadioZwaveNetworkTest, AddCutByADropIsNotRepeatedAndStopsInclusion) {
  start();
  CallResult cut =
      radio_dropped_when(R"({"radio":"zwave","action":"add","params":{"seconds":20}})", [&] { return including(); });
  expect_cut_and_stopped(cut);
}

// The drop comes before HA answered add_node (the sim holds its frames back
// until then): the call cannot know whether inclusion began, so it ends it
// all the same, as after a later drop.
TEST_F(RadioZwaveNetworkTest, AddCutBeforeHaAnsweredStillStopsInclusion) {
  start();
  sim->set_response_delay(std::chrono::milliseconds(500));
  CallResult cut = radio_dropped_when(R"({"radio":"zwave","action":"add","params":{"seconds":20}})", [&] {
    const bool started = including();
    if (started) sim->set_response_delay(std::chrono::milliseconds(0));  // its answer is still held back
    return started;
  });
  expect_cut_and_stopped(cut);
}

TEST_F(RadioZwaveNetworkTest, HardResetPreviewsThenForgetsEveryNode) {
  start();
  const std::size_t nodes = zwave("nodes").as_array().size();
  ASSERT_GT(nodes, 1u);
  const std::string dimmer = device_named("Basement Dimmer");
  const std::string dimmer_ping = with_sim_home([&](sim::Home& home) {
    for (const auto& e : home.entities)
      if (e.device_id == dimmer && e.entity_id.starts_with("button.")) return e.entity_id;
    return std::string();
  });
  ASSERT_FALSE(dimmer_ping.empty());
  CallResult preview = radio(R"({"radio":"zwave","action":"hard_reset"})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_TRUE((preview.structured.at("result") == "preview"));
  EXPECT_EQ(preview.structured.at("nodes").to_number<std::size_t>(), nodes);
  EXPECT_EQ(zwave("nodes").as_array().size(), nodes);
  CallResult reset = radio(R"({"radio":"zwave","action":"hard_reset","confirm":true})");
  ASSERT_FALSE(reset.is_error) << reset.text;
  EXPECT_EQ(reset.structured.at("controller_device_id"), device_named("Z-Wave Controller").c_str());
  EXPECT_EQ(zwave("nodes").as_array().size(), 1u);
  // The forgotten nodes' devices leave the registry with their entities; the mirror follows.
  EXPECT_FALSE(has_device(dimmer));
  EXPECT_TRUE(has_device(device_named("Z-Wave Controller")));
  EXPECT_EQ(state_of(dimmer_ping), "missing");
  EXPECT_TRUE(eventually([&] { return !ha->snapshot()->registry(ha::RegistryKind::device).find(dimmer); }))
      << "the mirror still has the dimmer";
}

}  // namespace
}  // namespace hamcp::tools::testing
