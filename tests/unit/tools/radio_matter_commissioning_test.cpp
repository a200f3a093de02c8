// ha_manage_radio radio=matter commissioning against the demo sim
// (sim/ws/ws_matter_commissioning_commands.cpp): commission by code and on
// the network, share_out's codes, the Thread dataset by id and Wi-Fi
// credentials (the password never echoed), bad codes refused by the server.
#include "unit/tools/radio_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class RadioMatterCommissioningTest : public RadioTest {
 protected:
  json::value matter(const char* key) { return radio_data("matter", key); }
};

TEST_F(RadioMatterCommissioningTest, CommissionByCodeAndOnTheNetwork) {
  start();
  CallResult by_code = radio(R"({"radio":"matter","action":"commission","params":{"code":"3497-011-2332"}})");
  ASSERT_FALSE(by_code.is_error) << by_code.text;
  EXPECT_TRUE(by_code.structured.at("done").as_bool());
  CallResult on_network = radio(
      R"({"radio":"matter","action":"commission_on_network","params":{"pin":20202021,"ip_addr":"192.168.1.77"}})");
  ASSERT_FALSE(on_network.is_error) << on_network.text;
  const json::array commissioned = matter("commissioned").as_array();
  ASSERT_EQ(commissioned.size(), 2u);
  EXPECT_EQ(commissioned[1].at("ip_addr"), "192.168.1.77");
  CallResult bad = radio(R"({"radio":"matter","action":"commission","params":{"code":"12"}})");
  EXPECT_EQ(bad.code(), "radio_refused") << bad.text;
  CallResult missing = radio(R"({"radio":"matter","action":"commission"})");
  EXPECT_NE(missing.text.find("params.code"), std::string::npos) << missing.text;
}

// As HA's matter integration does on the server's node_added: a device of the matter entry with
// its switch, seen by the mirror, and a node the other matter actions find.
TEST_F(RadioMatterCommissioningTest, CommissioningAddsTheNodesDeviceAndEntity) {
  start();
  const std::size_t nodes = matter("nodes").as_array().size();
  CallResult done = radio(R"({"radio":"matter","action":"commission","params":{"code":"3497-011-2332"}})");
  ASSERT_FALSE(done.is_error) << done.text;
  ASSERT_EQ(matter("nodes").as_array().size(), nodes + 1);
  const std::string device_id(matter("nodes").as_array().back().at("device_id").as_string());
  ASSERT_TRUE(has_device(device_id));
  const std::string entity_id = with_sim_home([&](sim::Home& home) {
    for (const auto& e : home.entities)
      if (e.device_id == device_id) return e.entity_id;
    return std::string();
  });
  EXPECT_TRUE(entity_id.starts_with("switch.eve_energy")) << entity_id;
  EXPECT_EQ(state_of(entity_id), "off");
  ASSERT_TRUE(eventually([&] { return bool(ha->snapshot()->registry(ha::RegistryKind::device).find(device_id)); }))
      << "the mirror never saw the new device";
  CallResult ping = radio(R"({"radio":"matter","action":"ping","device_id":")" + device_id + "\"}");
  ASSERT_FALSE(ping.is_error) << ping.text;
}

TEST_F(RadioMatterCommissioningTest, ShareOutAndNetworkCredentials) {
  start();
  CallResult share = radio(R"({"radio":"matter","action":"share_out","device_id":")" +
                           device_named("Living Room Matter Plug") + "\"}");
  ASSERT_FALSE(share.is_error) << share.text;
  EXPECT_EQ(share.structured.at("setup_manual_code"), "34970112332");
  CallResult thread =
      radio(R"({"radio":"matter","action":"set_thread","params":{"dataset_id":"01JDEMODATASET000000000001"}})");
  ASSERT_FALSE(thread.is_error) << thread.text;
  EXPECT_EQ(matter("thread_dataset"), "0e080000000000010000000300000f35060004001fffe0");
  EXPECT_EQ(thread.text.find("0e0800"), std::string::npos) << thread.text;
  CallResult wifi = radio(
      R"({"radio":"matter","action":"set_wifi_credentials","params":{"network_name":"MapleHouse-WiFi","password":"s3cret-pw"}})");
  ASSERT_FALSE(wifi.is_error) << wifi.text;
  EXPECT_EQ(matter("wifi").at("network_name"), "MapleHouse-WiFi");
  EXPECT_EQ(wifi.text.find("s3cret-pw"), std::string::npos) << wifi.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
