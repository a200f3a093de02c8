// salvage_deep_frame: a frame with a message nesting past the depth limit is
// split so only that message is rejected (ws_client.cpp); the rest is kept.
#include "ha/detail/deep_frame.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>

#include "ha/detail/ha_json.hpp"

using namespace hamcp::ha::detail;
namespace json = boost::json;

namespace {

std::string nested_array(std::size_t depth) { return std::string(depth, '[') + "\"x\"" + std::string(depth, ']'); }

std::string deep_result(int id) {
  return R"({"id":)" + std::to_string(id) + R"(,"type":"result","success":true,"result":)" + nested_array(400) + "}";
}

}  // namespace

TEST(DeepFrame, AMessageTooDeepIsReducedToItsTopLevelScalars) {
  const std::string text = deep_result(7);
  boost::system::error_code ec;
  (void)parse_ha_json(text, ec);
  ASSERT_EQ(ec, json::error::too_deep) << "the frame must be beyond the limit for this test to mean anything";
  auto frame = salvage_deep_frame(text);
  ASSERT_TRUE(frame);
  EXPECT_TRUE(frame->whole.empty());
  ASSERT_EQ(frame->too_deep.size(), 1u);
  EXPECT_EQ(json::serialize(frame->too_deep[0]), R"({"id":7,"type":"result","success":true,"result":null})");
}

TEST(DeepFrame, ACoalescedArrayKeepsItsOtherMessagesWholeAndInOrder) {
  const std::string text = R"([{"id":1,"type":"result","success":true,"result":{"a":[1,"],}"]}},)" + deep_result(2) +
                           R"(, {"id":3,"type":"event","event":{"s":"\"[{"}} ])";
  auto frame = salvage_deep_frame(text);
  ASSERT_TRUE(frame);
  ASSERT_EQ(frame->whole.size(), 2u);
  EXPECT_EQ(json::serialize(frame->whole[0]), R"({"id":1,"type":"result","success":true,"result":{"a":[1,"],}"]}})");
  EXPECT_EQ(json::serialize(frame->whole[1]), R"({"id":3,"type":"event","event":{"s":"\"[{"}})");
  ASSERT_EQ(frame->too_deep.size(), 1u);
  EXPECT_EQ(frame->too_deep[0].at("id").as_int64(), 2);
}

TEST(DeepFrame, MalformedTextIsNotSalvaged) {
  EXPECT_FALSE(salvage_deep_frame(std::string(1000, '[')));                  // never closes
  EXPECT_FALSE(salvage_deep_frame("[" + deep_result(1) + "] trailing"));     // text after the array
  EXPECT_FALSE(salvage_deep_frame("[" + deep_result(1) + ", {\"id\": }]"));  // a broken sibling
  EXPECT_FALSE(salvage_deep_frame(nested_array(400)));                       // no object at the top
  EXPECT_FALSE(salvage_deep_frame("   "));
}
