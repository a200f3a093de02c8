// ha_manage_radio radio=thread network writes against the demo sim's border
// router (sim/ws/ws_thread_network_commands.cpp): add_dataset stores TLVs,
// create_network / set_network / set_channel preview (nothing changed) then
// act on the only border router, bad input is named.
#include "unit/tools/radio_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr char kRouter[] = "e6a1c9b0f04d2a17";
// Channel 20, PAN 0xbeef, extended PAN 00112233445566aa, network name "Garden".
constexpr char kTlv[] =
    "0003000014"
    "0102beef"
    "020800112233445566aa"
    "030647617264656e";

class RadioThreadNetworkTest : public RadioTest {
 protected:
  json::value thread(const char* key) { return radio_data("thread", key); }
  std::int64_t router_channel() { return thread("otbr").at(kRouter).at("channel").as_int64(); }
};

TEST_F(RadioThreadNetworkTest, AddDatasetThenSetNetworkMovesTheRouter) {
  start();
  CallResult added =
      radio(std::string(R"({"radio":"thread","action":"add_dataset","params":{"tlv":")") + kTlv + "\"}}");
  ASSERT_FALSE(added.is_error) << added.text;
  EXPECT_TRUE(added.structured.at("added").as_bool());
  const json::array datasets = thread("datasets").as_array();
  ASSERT_EQ(datasets.size(), 2u);
  EXPECT_EQ(datasets[1].at("network_name"), "Garden");
  EXPECT_EQ(datasets[1].at("channel").as_int64(), 20);
  const std::string id(datasets[1].at("dataset_id").as_string());
  CallResult bad = radio(R"({"radio":"thread","action":"add_dataset","params":{"tlv":"zz"}})");
  EXPECT_EQ(bad.code(), "radio_refused") << bad.text;

  const std::string set = R"({"radio":"thread","action":"set_network","params":{"dataset_id":")" + id + "\"}";
  CallResult preview = radio(set + "}");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_TRUE((preview.structured.at("result") == "preview"));
  EXPECT_EQ(router_channel(), 15);
  CallResult moved = radio(set + R"(,"confirm":true})");
  ASSERT_FALSE(moved.is_error) << moved.text;
  EXPECT_EQ(router_channel(), 20);
  EXPECT_EQ(moved.text.find("active_dataset_tlvs"), std::string::npos) << moved.text;
}

TEST_F(RadioThreadNetworkTest, CreateNetworkAndSetChannelNeedConfirm) {
  start();
  CallResult preview = radio(R"({"radio":"thread","action":"create_network"})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_TRUE((preview.structured.at("result") == "preview"));
  EXPECT_EQ(thread("datasets").as_array().size(), 1u);
  CallResult created = radio(R"({"radio":"thread","action":"create_network","confirm":true})");
  ASSERT_FALSE(created.is_error) << created.text;
  EXPECT_EQ(thread("datasets").as_array().size(), 2u);
  EXPECT_EQ(created.structured.at("datasets").as_array().size(), 2u);

  CallResult channel = radio(R"({"radio":"thread","action":"set_channel","confirm":true,"params":{"channel":25}})");
  ASSERT_FALSE(channel.is_error) << channel.text;
  EXPECT_EQ(channel.structured.at("delay_seconds").as_double(), 300.0);
  EXPECT_EQ(router_channel(), 25);
  CallResult wrong =
      radio(R"({"radio":"thread","action":"set_channel","params":{"channel":25,"extended_address":"x"}})");
  EXPECT_NE(wrong.text.find("params.extended_address"), std::string::npos) << wrong.text;
  CallResult range = radio(R"({"radio":"thread","action":"set_channel","params":{"channel":9}})");
  EXPECT_NE(range.text.find("params.channel"), std::string::npos) << range.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
