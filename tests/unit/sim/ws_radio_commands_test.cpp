// The radio integrations' WebSocket APIs in the sim (ws_zha/zwave/thread/
// matter_commands.cpp) against the demo's networks: HA's shapes and refusals,
// and every command unknown once its integration's config entry is gone.
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim::testing {
namespace {

class WsRadioTest : public WsCommandTest {
 protected:
  std::string device_named(const std::string& name) {
    for (const auto& d : core.store().home().devices)
      if (d.name == name) return d.id;
    ADD_FAILURE() << "no device " << name;
    return {};
  }
};

TEST_F(WsRadioTest, ZhaAnswersInItsShapes) {
  const json::object settings = cmd({{"type", "zha/network/settings"}});
  ASSERT_TRUE(settings.at("success").as_bool()) << json::serialize(settings);
  EXPECT_EQ(settings.at("result").at("radio_type"), "znp");
  EXPECT_EQ(settings.at("result").at("settings").at("network_info").at("channel").as_int64(), 15);
  const json::object device = cmd({{"type", "zha/device"}, {"ieee", "84:2e:14:ff:fe:6b:0d:91"}});
  ASSERT_TRUE(device.at("success").as_bool());
  EXPECT_EQ(device.at("result").at("device_reg_id"), device_named("Desk Lamp Plug").c_str());
  const json::object missing = cmd({{"type", "zha/device"}, {"ieee", "00:00:00:00:00:00:00:01"}});
  EXPECT_EQ(code(missing), "not_found");
  const json::object permit = cmd({{"type", "zha/devices/permit"}, {"duration", 300}});
  EXPECT_EQ(code(permit), "invalid_format") << json::serialize(permit);
}

TEST_F(WsRadioTest, ZhaBackupsChannelAndClustersInHasShapes) {
  const json::object made = cmd({{"type", "zha/network/backups/create"}});
  ASSERT_TRUE(made.at("success").as_bool()) << json::serialize(made);
  EXPECT_TRUE(made.at("result").at("is_complete").as_bool());
  const json::value backup = made.at("result").at("backup");
  EXPECT_TRUE(backup.as_object().contains("network_info"));
  EXPECT_EQ(cmd({{"type", "zha/network/backups/list"}}).at("result").as_array().size(), 2u);
  EXPECT_EQ(code(cmd({{"type", "zha/network/change_channel"}, {"new_channel", 27}})), "invalid_format");
  ASSERT_TRUE(cmd({{"type", "zha/network/change_channel"}, {"new_channel", "auto"}}).at("success").as_bool());
  const auto channel = [&] {
    return cmd({{"type", "zha/network/settings"}}).at("result").at("settings").at("network_info").at("channel");
  };
  EXPECT_EQ(channel().as_int64(), 25);
  EXPECT_EQ(code(cmd({{"type", "zha/network/backups/restore"}, {"backup", json::object{{"x", 1}}}})), "invalid_format");
  ASSERT_TRUE(cmd({{"type", "zha/network/backups/restore"}, {"backup", backup}}).at("success").as_bool());
  EXPECT_EQ(channel().as_int64(), 15);
  const std::string plug = "84:2e:14:ff:fe:6b:0d:91";
  const json::object clusters = cmd({{"type", "zha/devices/clusters"}, {"ieee", plug}});
  EXPECT_EQ(clusters.at("result").at(0),
            (json::object{{"type", "in"}, {"id", 0}, {"name", "Basic"}, {"endpoint_id", 1}}));
  const json::object read = cmd({{"type", "zha/devices/clusters/attributes/value"},
                                 {"ieee", plug},
                                 {"endpoint_id", 1},
                                 {"cluster_id", 0},
                                 {"cluster_type", "in"},
                                 {"attribute", 4}});
  EXPECT_EQ(read.at("result"), "IKEA of Sweden") << json::serialize(read);
}

TEST_F(WsRadioTest, ZwaveFindsNodesByDeviceAndChecksParameters) {
  EXPECT_EQ(code(cmd({{"type", "zwave_js/network_status"}})), "invalid_format");
  const std::string dimmer = device_named("Basement Dimmer");
  const json::object set =
      cmd({{"type", "zwave_js/set_config_parameter"}, {"device_id", dimmer}, {"property", 1}, {"value", 1}});
  ASSERT_TRUE(set.at("success").as_bool()) << json::serialize(set);
  EXPECT_EQ(set.at("result").at("value_id"), "3-112-0-1");
  EXPECT_EQ(
      code(cmd({{"type", "zwave_js/set_config_parameter"}, {"device_id", dimmer}, {"property", 77}, {"value", 1}})),
      "not_found");
  EXPECT_EQ(code(cmd({{"type", "zwave_js/node_status"}, {"device_id", "nope"}})), "not_found");
  EXPECT_EQ(code(cmd({{"type", "zwave_js/remove_failed_node"}, {"device_id", dimmer}})), "zwave_error");
  EXPECT_EQ(code(cmd({{"type", "zwave_js/stop_inclusion"}, {"entry_id", "nope"}})), "not_found");
  EXPECT_EQ(code(cmd({{"type", "zwave_js/add_node"}, {"entry_id", "x"}, {"inclusion_strategy", 1}})), "invalid_format");
}

TEST_F(WsRadioTest, ThreadKeepsThePreferredDataset) {
  const json::object listed = cmd({{"type", "thread/list_datasets"}});
  ASSERT_EQ(listed.at("result").at("datasets").as_array().size(), 1u);
  EXPECT_EQ(code(cmd({{"type", "thread/delete_dataset"}, {"dataset_id", "01JDEMODATASET000000000001"}})),
            "not_allowed");
  EXPECT_EQ(code(cmd({{"type", "thread/set_preferred_dataset"}, {"dataset_id", "nope"}})), "not_found");
  const json::object otbr = cmd({{"type", "otbr/info"}});
  EXPECT_TRUE(otbr.at("result").as_object().contains("e6a1c9b0f04d2a17"));
}

TEST_F(WsRadioTest, WithoutAConfigEntryEveryRadioCommandIsUnknown) {
  std::erase_if(core.store().home().config_entries, [](const json::object& e) {
    const auto& d = e.at("entry").at("domain");
    return d == "zha" || d == "zwave_js" || d == "thread" || d == "matter" || d == "otbr";
  });
  for (const char* type :
       {"zha/devices", "zwave_js/network_status", "thread/list_datasets", "otbr/info", "matter/node_diagnostics"})
    EXPECT_EQ(code(cmd({{"type", type}})), "unknown_command") << type;
}

}  // namespace
}  // namespace hamcp::sim::testing
