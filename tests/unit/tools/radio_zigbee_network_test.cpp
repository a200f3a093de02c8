// ha_manage_radio radio=zigbee network-wide and cluster actions against the
// demo sim's ZHA network (sim/home/demo_radios.cpp, sim/ws/
// ws_zha_network_commands.cpp): backups listed and created without their
// keys, restore and channel change previewed (nothing changed) then done,
// clusters, attributes and values read by id or name, bad input named.
#include "unit/tools/radio_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class RadioZigbeeNetworkTest : public RadioTest {
 protected:
  json::value zha(const char* key) { return radio_data("zha", key); }
  std::int64_t channel() { return zha("network").at("settings").at("network_info").at("channel").as_int64(); }
  std::string plug() { return device_named("Desk Lamp Plug"); }
};

TEST_F(RadioZigbeeNetworkTest, BackupsAreListedAndCreatedWithoutTheirKeys) {
  start();
  CallResult listed = radio(R"({"radio":"zigbee","action":"network_backup","params":{"list":true}})");
  ASSERT_FALSE(listed.is_error) << listed.text;
  ASSERT_EQ(listed.structured.at("backups").as_array().size(), 1u);
  EXPECT_EQ(listed.structured.at("backups").at(0).at("channel").as_int64(), 15);
  CallResult made = radio(R"({"radio":"zigbee","action":"network_backup"})");
  ASSERT_FALSE(made.is_error) << made.text;
  EXPECT_TRUE(made.structured.at("done").as_bool());
  EXPECT_EQ(made.structured.at("backup").at("pan_id"), "0x4C2A");
  EXPECT_EQ(made.text.find("network_key"), std::string::npos) << made.text;
  EXPECT_EQ(zha("backups").as_array().size(), 2u);
}

TEST_F(RadioZigbeeNetworkTest, ChangeChannelPreviewsThenMovesTheNetwork) {
  start();
  CallResult preview = radio(R"({"radio":"zigbee","action":"change_channel","params":{"channel":20}})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_TRUE((preview.structured.at("result") == "preview"));
  EXPECT_EQ(preview.structured.at("from_channel").as_int64(), 15);
  EXPECT_EQ(channel(), 15);
  CallResult moved = radio(R"({"radio":"zigbee","action":"change_channel","confirm":true,"params":{"channel":20}})");
  ASSERT_FALSE(moved.is_error) << moved.text;
  EXPECT_EQ(moved.structured.at("channel").as_int64(), 20);
  EXPECT_EQ(channel(), 20);
  CallResult bad = radio(R"({"radio":"zigbee","action":"change_channel","confirm":true,"params":{"channel":30}})");
  EXPECT_EQ(bad.code(), "invalid_argument") << bad.text;
  EXPECT_NE(bad.text.find("params.channel"), std::string::npos) << bad.text;
  EXPECT_EQ(channel(), 20);
}

TEST_F(RadioZigbeeNetworkTest, RestorePicksAStoredBackupByItsTime) {
  start();
  radio(R"({"radio":"zigbee","action":"change_channel","confirm":true,"params":{"channel":25}})");
  ASSERT_EQ(channel(), 25);
  const std::string args =
      R"({"radio":"zigbee","action":"network_restore","params":{"backup_time":"2026-01-01T03:00:00+00:00"})";
  CallResult preview = radio(args + "}");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_TRUE((preview.structured.at("result") == "preview"));
  EXPECT_EQ(preview.structured.at("current").at("channel").as_int64(), 25);
  EXPECT_EQ(preview.structured.at("restore").at("channel").as_int64(), 15);
  EXPECT_EQ(channel(), 25);
  CallResult restored = radio(args + R"(,"confirm":true})");
  ASSERT_FALSE(restored.is_error) << restored.text;
  EXPECT_TRUE(restored.structured.at("restored").as_bool());
  EXPECT_EQ(channel(), 15);
  CallResult unknown =
      radio(R"({"radio":"zigbee","action":"network_restore","confirm":true,"params":{"backup_time":"yesterday"}})");
  EXPECT_EQ(unknown.code(), "invalid_argument") << unknown.text;
  EXPECT_EQ(unknown.error().at("backup_times").as_array().size(), 1u) << unknown.text;
}

TEST_F(RadioZigbeeNetworkTest, ClusterReadListsClustersAttributesAndValues) {
  start();
  const std::string device = R"({"radio":"zigbee","action":"cluster_read","device_id":")" + plug() + "\"";
  CallResult clusters = radio(device + "}");
  ASSERT_FALSE(clusters.is_error) << clusters.text;
  EXPECT_EQ(clusters.structured.at("clusters").as_array().size(), 4u) << clusters.text;
  CallResult attributes = radio(device + R"(,"params":{"cluster_id":"0x0000"}})");
  ASSERT_FALSE(attributes.is_error) << attributes.text;
  EXPECT_EQ(attributes.structured.at("attributes").as_array().size(), 4u) << attributes.text;
  CallResult values = radio(device + R"(,"params":{"cluster_id":0,"attribute":["manufacturer",5]}})");
  ASSERT_FALSE(values.is_error) << values.text;
  const json::array& v = values.structured.at("values").as_array();
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].at("value"), "IKEA of Sweden");
  EXPECT_EQ(v[1].at("name"), "model");
  EXPECT_EQ(v[1].at("value"), "TRADFRI control outlet");
  CallResult on_off = radio(device + R"(,"params":{"cluster_id":6,"attribute":"on_off"}})");
  EXPECT_EQ(on_off.structured.at("values").at(0).at("value"), "True") << on_off.text;
  // A cluster the device lacks names the ones it has; an unknown attribute name the attributes.
  CallResult missing = radio(device + R"(,"params":{"cluster_id":1}})");
  EXPECT_EQ(missing.code(), "invalid_argument") << missing.text;
  EXPECT_NE(missing.text.find("params.cluster_id"), std::string::npos) << missing.text;
  EXPECT_TRUE(missing.error().contains("clusters"));
  CallResult bad = radio(device + R"(,"params":{"cluster_id":0,"attribute":"colour"}})");
  EXPECT_NE(bad.text.find("params.attribute"), std::string::npos) << bad.text;
  CallResult no_device = radio(R"({"radio":"zigbee","action":"cluster_read"})");
  EXPECT_NE(no_device.text.find("device_id"), std::string::npos) << no_device.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
