// ha_manage_radio radio=zigbee reconfigure, cluster_write and cluster_command
// against the demo sim (sim/ws/ws_zha_cluster_commands.cpp, core/services_zha.cpp):
// reconfigure collects ZHA's progress until cfg_done and says per cluster what
// was configured (and what failed); the cluster writes preview without confirm
// (nothing sent), then act and show before/after; bad input is named with
// what exists; On/Off moves the device's light as in HA; a drop during a
// reconfigure is not repeated; read-only sessions and a home without ZHA refuse them.
#include "unit/tools/radio_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr char kPlugIeee[] = "84:2e:14:ff:fe:6b:0d:91";

class RadioZigbeeDeviceTest : public RadioTest {
 protected:
  std::string plug() { return device_named("Desk Lamp Plug"); }
  CallResult on_plug(const char* action, const std::string& params, bool confirm = false) {
    return radio(std::string(R"({"radio":"zigbee","action":")") + action + R"(","device_id":")" + plug() +
                 R"(","params":)" + params + (confirm ? R"(,"confirm":true})" : "}"));
  }
  json::value written(const std::string& key) {
    const json::value values = radio_data("zha", "attribute_values");
    const json::value* v = values.is_object() ? values.as_object().if_contains(key) : nullptr;
    return v ? *v : json::value(nullptr);
  }
  // A demo ZHA light (a TRADFRI bulb): its device id and light entity.
  std::pair<std::string, std::string> zha_light() {
    return with_sim_home([](sim::Home& home) {
      for (const auto& d : home.devices)
        for (const auto& e : home.entities)
          if (!d.identifiers.empty() && d.identifiers.front().first == "zha" && e.device_id == d.id &&
              e.entity_id.rfind("light.", 0) == 0)
            return std::make_pair(d.id, e.entity_id);
      return std::make_pair(std::string(), std::string());
    });
  }
  void set_plug_available(bool available) {
    with_sim_home([&](sim::Home& home) {
      for (auto& d : home.radios.at("zha").at("devices").as_array())
        if (d.at("ieee") == kPlugIeee) d.as_object()["available"] = available;
      return 0;
    });
  }
};

TEST_F(RadioZigbeeDeviceTest, ReconfigureSaysPerClusterWhatWasConfigured) {
  start();
  CallResult done = on_plug("reconfigure", "{}");
  ASSERT_FALSE(done.is_error) << done.text;
  EXPECT_TRUE(done.structured.at("done").as_bool()) << done.text;
  const json::value& on_off = done.structured.at("clusters").at("OnOff");
  EXPECT_TRUE(on_off.at("bound").as_bool()) << done.text;
  EXPECT_EQ(on_off.at("reporting").at("on_off"), "SUCCESS") << done.text;
  EXPECT_TRUE(done.structured.at("failures").as_array().empty()) << done.text;
  EXPECT_EQ(radio_data("zha", "reconfigured"), (json::array{kPlugIeee}));

  set_plug_available(false);
  CallResult failed = on_plug("reconfigure", R"({"seconds":5})");
  ASSERT_FALSE(failed.is_error) << failed.text;
  EXPECT_FALSE(failed.structured.at("failures").as_array().empty()) << failed.text;
  EXPECT_FALSE(failed.structured.at("clusters").at("OnOff").at("bound").as_bool()) << failed.text;
  CallResult bad = on_plug("reconfigure", R"({"seconds":500})");
  EXPECT_NE(bad.text.find("params.seconds"), std::string::npos) << bad.text;
}

// The connection drops while ZHA configures a sleeping device (no message yet):
// the call ends with a clear error and the reconnect does not reconfigure again.
TEST_F(RadioZigbeeDeviceTest, ReconfigureCutByADropIsNotRepeated) {
  start();
  with_sim_home([](sim::Home& home) {
    home.radios.at("zha").as_object()["asleep"] = json::array{kPlugIeee};  // ZHA waits for it to wake up
    return 0;
  });
  auto reconfigured = [&] { return radio_data("zha", "reconfigured"); };
  CallResult cut = radio_dropped_when(
      R"({"radio":"zigbee","action":"reconfigure","device_id":")" + plug() + R"(","params":{"seconds":20}})",
      [&] { return reconfigured().is_array() && !reconfigured().as_array().empty(); });
  EXPECT_EQ(cut.code(), "write_outcome_unknown") << cut.text;
  EXPECT_NE(cut.text.find("dropped during the reconfigure; it was not repeated"), std::string::npos) << cut.text;
  EXPECT_NE(cut.error().at("suggestion").as_string().find("Check the device"), std::string::npos) << cut.text;
  EXPECT_EQ(reconfigured(), (json::array{kPlugIeee})) << "sent again on the reconnect";
}

TEST_F(RadioZigbeeDeviceTest, ClusterWritePreviewsThenWritesAndShowsBeforeAndAfter) {
  start();
  const std::string key = std::string(kPlugIeee) + "/1/3/0";
  CallResult preview = on_plug("cluster_write", R"({"cluster_id":"0x0003","attribute":"identify_time","value":10})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_EQ(preview.structured.at("result"), "preview") << preview.text;
  EXPECT_TRUE(preview.structured.at("confirm_required").as_bool());
  EXPECT_EQ(preview.structured.at("before"), "0") << preview.text;
  EXPECT_TRUE(written(key).is_null()) << "a preview wrote";
  CallResult done = on_plug("cluster_write", R"({"cluster_id":"0x0003","attribute":"identify_time","value":10})", true);
  ASSERT_FALSE(done.is_error) << done.text;
  EXPECT_TRUE(done.structured.at("written").as_bool());
  EXPECT_EQ(done.structured.at("before"), "0");
  EXPECT_EQ(done.structured.at("after"), "10") << done.text;
  EXPECT_EQ(written(key), "10");
  CallResult off = on_plug("cluster_write", R"({"cluster_id":6,"attribute":0,"value":false})", true);
  ASSERT_FALSE(off.is_error) << off.text;
  EXPECT_EQ(off.structured.at("after"), "False") << off.text;
}

TEST_F(RadioZigbeeDeviceTest, ClusterWriteNamesBadInput) {
  start();
  CallResult cluster = on_plug("cluster_write", R"({"cluster_id":8,"attribute":0,"value":1})", true);
  EXPECT_EQ(cluster.code(), "invalid_argument") << cluster.text;
  EXPECT_NE(cluster.text.find("params.cluster_id"), std::string::npos) << cluster.text;
  EXPECT_NE(cluster.text.find("OnOff"), std::string::npos) << "the clusters that exist: " << cluster.text;
  CallResult attribute = on_plug("cluster_write", R"({"cluster_id":6,"attribute":"brightness","value":1})", true);
  EXPECT_NE(attribute.text.find("params.attribute"), std::string::npos) << attribute.text;
  CallResult value = on_plug("cluster_write", R"({"cluster_id":6,"attribute":0,"value":{"x":1}})", true);
  EXPECT_NE(value.text.find("params.value"), std::string::npos) << value.text;
  CallResult missing = on_plug("cluster_write", R"({"cluster_id":6,"value":1})", true);
  EXPECT_NE(missing.text.find("params.attribute"), std::string::npos) << missing.text;
  EXPECT_TRUE(written(std::string(kPlugIeee) + "/1/6/0").is_null()) << "a refused write wrote";
}

TEST_F(RadioZigbeeDeviceTest, ClusterCommandPreviewsThenSends) {
  start();
  CallResult preview = on_plug("cluster_command", R"({"cluster_id":6,"command":"toggle"})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_EQ(preview.structured.at("result"), "preview") << preview.text;
  EXPECT_TRUE(radio_data("zha", "commands_issued").is_null()) << "a preview sent a command";
  CallResult toggled = on_plug("cluster_command", R"({"cluster_id":6,"command":"toggle"})", true);
  ASSERT_FALSE(toggled.is_error) << toggled.text;
  EXPECT_TRUE(toggled.structured.at("issued").as_bool());
  EXPECT_EQ(toggled.structured.at("command").at("id").as_int64(), 2);
  CallResult read = on_plug("cluster_read", R"({"cluster_id":6,"attribute":"on_off"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_EQ(read.structured.at("values").at(0).at("value"), "False") << read.text;
  CallResult identify =
      on_plug("cluster_command", R"({"cluster_id":3,"command":0,"params":{"identify_time":5}})", true);
  ASSERT_FALSE(identify.is_error) << identify.text;
  EXPECT_EQ(written(std::string(kPlugIeee) + "/1/3/0"), "5");
  CallResult client_side = on_plug("cluster_command", R"({"cluster_id":6,"command":2,"command_type":"client"})", true);
  EXPECT_NE(client_side.text.find("params.command"), std::string::npos) << "OnOff has no client command 2";
  CallResult unknown = on_plug("cluster_command", R"({"cluster_id":6,"command":"explode"})", true);
  EXPECT_NE(unknown.text.find("params.command"), std::string::npos) << unknown.text;
  EXPECT_NE(unknown.text.find("toggle"), std::string::npos) << "the commands that exist: " << unknown.text;
}

// As in HA, On/Off through the cluster moves the light entity ZHA made of it
// (hamcp's mirror sees the state change), and the entity's own turn_on is what
// the cluster read answers next.
TEST_F(RadioZigbeeDeviceTest, OnOffThroughTheClusterMovesTheLight) {
  start();
  const auto [device, light] = zha_light();
  ASSERT_FALSE(light.empty()) << "the demo has no ZHA light";
  auto on_light = [&, device = device](const char* action, const char* params) {
    return radio(std::string(R"({"radio":"zigbee","action":")") + action + R"(","device_id":")" + device +
                 R"(","params":)" + params + R"(,"confirm":true})");
  };
  CallResult off = on_light("cluster_command", R"({"cluster_id":6,"command":"off"})");
  ASSERT_FALSE(off.is_error) << off.text;
  EXPECT_EQ(state_of(light), "off");
  EXPECT_TRUE(eventually([&, light = light] { return ha->snapshot()->states.find(light)->state == "off"; }))
      << "no state_changed reached the mirror";
  CallResult on = call("ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":")" + light + R"("})");
  ASSERT_FALSE(on.is_error) << on.text;
  CallResult read = on_light("cluster_read", R"({"cluster_id":6,"attribute":"on_off"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_EQ(read.structured.at("values").at(0).at("value"), "True") << read.text;
}

TEST_F(RadioZigbeeDeviceTest, ReadOnlySessionsRefuseTheWritesButShowPreviews) {
  start();
  const std::string device = R"(","device_id":")" + plug() + "\"";
  CallResult write = radio_read_only(R"({"radio":"zigbee","action":"cluster_write)" + device +
                                     R"(,"params":{"cluster_id":6,"attribute":0,"value":1},"confirm":true})");
  EXPECT_EQ(write.code(), "read_only") << write.text;
  CallResult command = radio_read_only(R"({"radio":"zigbee","action":"cluster_command)" + device +
                                       R"(,"params":{"cluster_id":6,"command":"on"},"confirm":true})");
  EXPECT_EQ(command.code(), "read_only") << command.text;
  CallResult reconfigure = radio_read_only(R"({"radio":"zigbee","action":"reconfigure)" + device + "}");
  EXPECT_EQ(reconfigure.code(), "read_only") << reconfigure.text;
  CallResult preview = radio_read_only(R"({"radio":"zigbee","action":"cluster_write)" + device +
                                       R"(,"params":{"cluster_id":6,"attribute":0,"value":1}})");
  EXPECT_EQ(preview.structured.at("result"), "preview") << preview.text;
  EXPECT_TRUE(written(std::string(kPlugIeee) + "/1/6/0").is_null());
  EXPECT_TRUE(radio_data("zha", "reconfigured").is_null());
}

TEST_F(RadioZigbeeDeviceTest, WithoutZhaEachAnswersRadioNotConfigured) {
  start();
  drop_entries("zha");
  for (const char* action : {"reconfigure", "cluster_write", "cluster_command"}) {
    CallResult r = radio(std::string(R"({"radio":"zigbee","action":")") + action + R"(","params":{}})");
    EXPECT_EQ(r.code(), "radio_not_configured") << action << ": " << r.text;
  }
}

}  // namespace
}  // namespace hamcp::tools::testing
