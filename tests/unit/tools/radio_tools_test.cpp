// ha_manage_radio against the demo sim's radio networks (sim/home/
// demo_radios.cpp): per radio its reads, a write and what it changed in the
// sim, a destructive action's preview (nothing changed) then confirm, the
// answer when the radio is not set up, an unknown action naming what exists, and
// ha_get_system_health's *_network includes.
#include "unit/tools/radio_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::object& o, std::string_view key) { return std::string(o.at(key).as_string()); }

using RadioToolsTest = RadioTest;

TEST_F(RadioToolsTest, ZwaveReadsShowTheNetworkNodesAndParameters) {
  start();
  CallResult status = radio(R"({"radio":"zwave","action":"network_status"})");
  ASSERT_FALSE(status.is_error) << status.text;
  EXPECT_EQ(status.structured.at("node_count").to_number<std::uint64_t>(), 4u);
  EXPECT_EQ(status.structured.at("nodes_by_status").at("dead").as_int64(), 1);
  bool named = false;
  for (const auto& n : status.structured.at("nodes").as_array())
    named = named || (n.as_object().contains("name") && n.at("name") == "Basement Dimmer");
  EXPECT_TRUE(named) << status.text;

  CallResult diag = radio(R"({"radio":"zwave","action":"diagnostics"})");
  ASSERT_FALSE(diag.is_error) << diag.text;
  ASSERT_EQ(diag.structured.at("problem_nodes").as_array().size(), 1u);
  EXPECT_EQ(diag.structured.at("problem_nodes").as_array()[0].at("name"), "Garage Siren");

  const std::string dimmer = device_named("Basement Dimmer");
  CallResult params = radio(R"({"radio":"zwave","action":"get_config_params","device_id":")" + dimmer + "\"}");
  ASSERT_FALSE(params.is_error) << params.text;
  EXPECT_EQ(params.structured.at("parameters").as_array().size(), 3u);
  CallResult one = radio(R"({"radio":"zwave","action":"get_config_param","device_id":")" + dimmer +
                         R"(","params":{"property":20}})");
  ASSERT_FALSE(one.is_error) << one.text;
  EXPECT_EQ(one.structured.at("parameter").at("label"), "Minimum Brightness");
  EXPECT_EQ(one.structured.at("parameter").at("value").as_int64(), 1);
  CallResult missing = radio(R"({"radio":"zwave","action":"get_config_param","device_id":")" + dimmer +
                             R"(","params":{"property":99}})");
  EXPECT_TRUE(missing.is_error);
  EXPECT_NE(missing.text.find("params.property"), std::string::npos) << missing.text;
}

TEST_F(RadioToolsTest, ZwaveSetConfigParamReportsBeforeAndAfter) {
  start();
  const std::string dimmer = device_named("Basement Dimmer");
  CallResult set = radio(R"({"radio":"zwave","action":"set_config_param","device_id":")" + dimmer +
                         R"(","params":{"property":20,"value":15}})");
  ASSERT_FALSE(set.is_error) << set.text;
  EXPECT_EQ(set.structured.at("before").as_int64(), 1);
  EXPECT_EQ(set.structured.at("value").as_int64(), 15);
  const json::value nodes = radio_data("zwave_js", "nodes");
  EXPECT_EQ(nodes.at(2).at("config").at("3-112-0-20").at("value").as_int64(), 15);
  CallResult out_of_range = radio(R"({"radio":"zwave","action":"set_config_param","device_id":")" + dimmer +
                                  R"(","params":{"property":20,"value":500}})");
  EXPECT_EQ(out_of_range.code(), "radio_refused") << out_of_range.text;
  CallResult reinterview = radio(R"({"radio":"zwave","action":"reinterview","device_id":")" + dimmer + "\"}");
  EXPECT_FALSE(reinterview.is_error) << reinterview.text;
  CallResult rebuild = radio(R"({"radio":"zwave","action":"rebuild_routes"})");
  EXPECT_FALSE(rebuild.is_error) << rebuild.text;
  EXPECT_TRUE(radio_data("zwave_js", "controller").at("is_rebuilding_routes").as_bool());
}

TEST_F(RadioToolsTest, ZwaveRemoveDevicePreviewsThenRemovesAFailedNode) {
  start();
  const std::string siren = device_named("Garage Siren");
  const std::string args = R"({"radio":"zwave","action":"remove_device","device_id":")" + siren + "\"";
  CallResult preview = radio(args + "}");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_TRUE((preview.structured.at("result") == "preview"));
  EXPECT_EQ(radio_data("zwave_js", "nodes").as_array().size(), 4u);  // nothing done
  CallResult removed = radio(args + R"(,"confirm":true})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_TRUE(removed.structured.at("removed").as_bool());
  EXPECT_EQ(radio_data("zwave_js", "nodes").as_array().size(), 3u);
  // A working node: Z-Wave JS refuses, and the answer says so.
  const std::string dimmer = device_named("Basement Dimmer");
  CallResult healthy =
      radio(R"({"radio":"zwave","action":"remove_device","confirm":true,"device_id":")" + dimmer + "\"}");
  EXPECT_EQ(healthy.code(), "radio_refused") << healthy.text;
}

TEST_F(RadioToolsTest, ZigbeeReadsAndWrites) {
  start();
  CallResult status = radio(R"({"radio":"zigbee","action":"network_status"})");
  ASSERT_FALSE(status.is_error) << status.text;
  const auto zha_devices = radio_data("zha", "devices").as_array().size();
  EXPECT_GT(zha_devices, 4u);  // the four radio devices and the demo's Zigbee lights and sensors
  EXPECT_EQ(status.structured.at("device_count").to_number<std::uint64_t>(), zha_devices);
  EXPECT_EQ(status.structured.at("network").at("channel").as_int64(), 15);
  const std::string plug = device_named("Desk Lamp Plug");
  CallResult device = radio(R"({"radio":"zigbee","action":"diagnostics","device_id":")" + plug + "\"}");
  ASSERT_FALSE(device.is_error) << device.text;
  EXPECT_EQ(str(device.structured, "ieee"), "84:2e:14:ff:fe:6b:0d:91");
  EXPECT_EQ(str(device.structured, "device_type"), "Router");

  CallResult permit = radio(R"({"radio":"zigbee","action":"permit_join","params":{"duration":90}})");
  ASSERT_FALSE(permit.is_error) << permit.text;
  EXPECT_EQ(radio_data("zha", "permit_duration").as_int64(), 90);
  CallResult too_long = radio(R"({"radio":"zigbee","action":"permit_join","params":{"duration":900}})");
  EXPECT_NE(too_long.text.find("params.duration"), std::string::npos) << too_long.text;

  const std::string motion = device_named("Hallway Motion Sensor");
  CallResult bound = radio(R"({"radio":"zigbee","action":"bind","device_id":")" + motion +
                           R"(","params":{"target_device_id":")" + plug + "\"}}");
  ASSERT_FALSE(bound.is_error) << bound.text;
  EXPECT_EQ(radio_data("zha", "bindings").as_array().size(), 1u);

  CallResult added =
      radio(R"({"radio":"zigbee","action":"group_add","params":{"name":"Desk","members":[{"device_id":")" + plug +
            R"(","endpoint_id":1}]}})");
  ASSERT_FALSE(added.is_error) << added.text;
  const std::string gid = json::serialize(added.structured.at("group_id"));
  CallResult groups = radio(R"({"radio":"zigbee","action":"groups"})");
  EXPECT_EQ(groups.structured.at("groups").as_array().size(), 2u) << groups.text;
  CallResult remove_preview = radio(R"({"radio":"zigbee","action":"group_remove","params":{"group_id":)" + gid + "}}");
  EXPECT_TRUE((remove_preview.structured.at("result") == "preview")) << remove_preview.text;
  EXPECT_EQ(radio_data("zha", "groups").as_array().size(), 2u);
  CallResult removed =
      radio(R"({"radio":"zigbee","action":"group_remove","confirm":true,"params":{"group_id":)" + gid + "}}");
  EXPECT_FALSE(removed.is_error) << removed.text;
  EXPECT_EQ(radio_data("zha", "groups").as_array().size(), 1u);
}

TEST_F(RadioToolsTest, ZigbeeRemoveDeviceNeedsConfirm) {
  start();
  const std::string window = device_named("Bedroom Window Sensor");
  const std::string args = R"({"radio":"zigbee","action":"remove_device","device_id":")" + window + "\"";
  CallResult preview = radio(args + "}");
  EXPECT_TRUE((preview.structured.at("result") == "preview")) << preview.text;
  auto exists = [&] {
    return with_sim_home([&](sim::Home& home) {
      return std::any_of(home.devices.begin(), home.devices.end(),
                         [&](const sim::Device& d) { return d.id == window; });
    });
  };
  EXPECT_TRUE(exists());
  CallResult removed = radio(args + R"(,"confirm":true})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_FALSE(exists());
  // A device of another radio is named as such, with the radio's devices to pick from.
  CallResult wrong =
      radio(R"({"radio":"zigbee","action":"diagnostics","device_id":")" + device_named("Basement Dimmer") + "\"}");
  EXPECT_NE(wrong.text.find("not a ZHA device"), std::string::npos) << wrong.text;
  EXPECT_TRUE(wrong.error().contains("radio_devices"));
}

TEST_F(RadioToolsTest, ThreadDatasetsAndBorderRouters) {
  start();
  CallResult status = radio(R"({"radio":"thread","action":"network_status"})");
  ASSERT_FALSE(status.is_error) << status.text;
  EXPECT_EQ(status.structured.at("datasets").as_array().size(), 1u);
  ASSERT_EQ(status.structured.at("border_routers").as_array().size(), 1u);
  EXPECT_FALSE(status.structured.at("border_routers").at(0).as_object().contains("active_dataset_tlvs"));
  EXPECT_EQ(status.text.find("0e0800000000"), std::string::npos) << "credentials shown";
  CallResult routers = radio(R"({"radio":"thread","action":"discover_routers","params":{"seconds":1}})");
  ASSERT_FALSE(routers.is_error) << routers.text;
  ASSERT_EQ(routers.structured.at("routers").as_array().size(), 1u) << routers.text;
  EXPECT_EQ(routers.structured.at("routers").at(0).at("router").at("extended_address"), "e6a1c9b0f04d2a17");
  // The preferred dataset is not deleted; a second one is, after a preview.
  CallResult preferred = radio(
      R"({"radio":"thread","action":"delete_dataset","confirm":true,"params":{"dataset_id":"01JDEMODATASET000000000001"}})");
  EXPECT_EQ(preferred.code(), "dataset_preferred") << preferred.text;
  with_sim_home([](sim::Home& home) {
    json::object second = home.radios.at("thread").at("datasets").at(0).as_object();
    second["dataset_id"] = "01JSECOND";
    second["preferred"] = false;
    home.radios.at("thread").as_object()["datasets"].as_array().push_back(second);
    home.radios.at("thread").as_object()["tlvs"].as_object()["01JSECOND"] = "00";
    return 0;
  });
  CallResult preview = radio(R"({"radio":"thread","action":"delete_dataset","params":{"dataset_id":"01JSECOND"}})");
  EXPECT_TRUE((preview.structured.at("result") == "preview")) << preview.text;
  EXPECT_EQ(radio_data("thread", "datasets").as_array().size(), 2u);
  CallResult set = radio(R"({"radio":"thread","action":"set_preferred_dataset","params":{"dataset_id":"01JSECOND"}})");
  ASSERT_FALSE(set.is_error) << set.text;
  EXPECT_TRUE(radio_data("thread", "datasets").at(1).at("preferred").as_bool());
  CallResult deleted = radio(
      R"({"radio":"thread","action":"delete_dataset","confirm":true,"params":{"dataset_id":"01JDEMODATASET000000000001"}})");
  ASSERT_FALSE(deleted.is_error) << deleted.text;
  EXPECT_EQ(radio_data("thread", "datasets").as_array().size(), 1u);
}

TEST_F(RadioToolsTest, MatterDiagnosticsPingAndInterview) {
  start();
  CallResult status = radio(R"({"radio":"matter","action":"network_status"})");
  ASSERT_FALSE(status.is_error) << status.text;
  const auto matter_nodes = radio_data("matter", "nodes").as_array().size();
  ASSERT_EQ(status.structured.at("node_count").to_number<std::uint64_t>(), matter_nodes);
  bool thread_node = false;
  for (const auto& n : status.structured.at("nodes").as_array())
    thread_node = thread_node || (n.at("name") == "Living Room Matter Plug" && n.at("network_type") == "thread");
  EXPECT_TRUE(thread_node) << status.text;
  const std::string plug = device_named("Living Room Matter Plug");
  CallResult ping = radio(R"({"radio":"matter","action":"ping","device_id":")" + plug + "\"}");
  ASSERT_FALSE(ping.is_error) << ping.text;
  EXPECT_TRUE(ping.structured.at("reachable").as_bool());
  CallResult interview = radio(R"({"radio":"matter","action":"interview","device_id":")" + plug + "\"}");
  ASSERT_FALSE(interview.is_error) << interview.text;
  EXPECT_EQ(radio_data("matter", "nodes").at(0).at("interviews").as_int64(), 1);
  const std::string fabric = R"({"radio":"matter","action":"remove_fabric","device_id":")" + plug + "\"";
  CallResult own = radio(fabric + R"(,"confirm":true,"params":{"fabric_index":1}})");
  EXPECT_NE(own.text.find("own fabric"), std::string::npos) << own.text;
  CallResult fabric_preview = radio(fabric + R"(,"params":{"fabric_index":2}})");
  EXPECT_TRUE((fabric_preview.structured.at("result") == "preview")) << fabric_preview.text;
  auto fabrics = [&] {
    return radio_data("matter", "nodes").at(0).at("diagnostics").at("active_fabrics").as_array().size();
  };
  EXPECT_EQ(fabrics(), 2u);
  CallResult removed = radio(fabric + R"(,"confirm":true,"params":{"fabric_index":2}})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_EQ(fabrics(), 1u);
  CallResult no_device = radio(R"({"radio":"matter","action":"ping"})");
  EXPECT_NE(no_device.text.find("device_id"), std::string::npos) << no_device.text;
}

TEST_F(RadioToolsTest, ARadioNotSetUpAnswersRadioNotConfigured) {
  start();
  for (const char* domain : {"zha", "zwave_js", "thread", "matter"}) drop_entries(domain);
  for (const char* r : {"zigbee", "zwave", "thread", "matter"}) {
    CallResult c = radio(std::string(R"({"radio":")") + r + R"(","action":"network_status"})");
    EXPECT_EQ(c.code(), "radio_not_configured") << r << ": " << c.text;
    EXPECT_NE(c.text.find("config entry"), std::string::npos) << c.text;
  }
  CallResult health = call("ha_get_system_health", R"({"include":"zha_network,zwave_network"})");
  ASSERT_FALSE(health.is_error) << health.text;
  EXPECT_FALSE(health.structured.at("zha_network").at("configured").as_bool());
  EXPECT_FALSE(health.structured.at("zwave_network").at("configured").as_bool());
}

TEST_F(RadioToolsTest, UnknownActionsNameWhatExists) {
  start();
  CallResult unknown = radio(R"({"radio":"thread","action":"explode"})");
  EXPECT_EQ(unknown.code(), "invalid_argument") << unknown.text;
  EXPECT_NE(unknown.text.find("list_datasets"), std::string::npos) << unknown.text;
  CallResult health = call("ha_get_system_health", R"({"include":"thread_network,matter_network"})");
  ASSERT_FALSE(health.is_error) << health.text;
  EXPECT_EQ(health.structured.at("thread_network").at("datasets").as_array().size(), 1u);
  EXPECT_EQ(health.structured.at("matter_network").at("node_count").to_number<std::uint64_t>(),
            radio_data("matter", "nodes").as_array().size());
}

}  // namespace
}  // namespace hamcp::tools::testing
