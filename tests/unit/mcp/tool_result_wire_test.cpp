// A tools/call result on its way to the wire (issue 9, hot path): a
// structured result is serialised once. Its content text is the compact JSON
// of structuredContent, so the response is written as text with that text
// spliced in as structuredContent, instead of serialising the object again.
#include <gtest/gtest.h>

#include <regex>

#include "json/json_text.hpp"
#include "mcp/tool.hpp"
#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

// Records how each message reached the channel.
struct RecordingChannel : MemoryChannel {
  std::vector<std::string> texts;  // messages handed over already written
  std::vector<json::value> shapes;
  void send_text(std::string text, const json::value& shape) override {
    texts.push_back(text);
    shapes.push_back(shape);
    MemoryChannel::send_text(std::move(text), shape);  // parses back into `sent`
  }
};

json::object sample_structured() {
  return obj(R"({"entity_id":"light.kitchen","state":"on","attributes":{"brightness":0.5,"name":"Say \"hi\"\n"},
                 "list":[1,2.0,-3,true,null]})");
}

class ToolResultWire : public ::testing::Test {
 protected:
  void SetUp() override {
    Tool tool = simple_tool("structured", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
      co_return ToolResult::structured(sample_structured());
    });
    tool.output_schema = obj(R"({"type":"object","required":["state"]})");
    h.server.registry().add_tool(std::move(tool));
    h.initialize();
  }
  std::shared_ptr<RecordingChannel> call(std::string_view id_json) {
    auto channel = std::make_shared<RecordingChannel>();
    const std::string text = R"({"jsonrpc":"2.0","id":)" + std::string(id_json) +
                             R"(,"method":"tools/call","params":{"name":"structured","arguments":{}}})";
    h.session->deliver(json::parse(text), channel);
    h.run_until([&] { return channel->closed > 0; });
    return channel;
  }
  Harness h;
};

TEST_F(ToolResultWire, StructuredResultIsWrittenOnceWithItsTextAsStructuredContent) {
  auto channel = call(R"("call-1")");
  ASSERT_EQ(channel->texts.size(), 1u) << "the response reaches the transport already written, not as a JSON tree";
  const std::string& wire = channel->texts.front();
  const json::object response = json::parse(wire).as_object();
  EXPECT_EQ(response.at("id"), json::value("call-1"));
  EXPECT_EQ(channel->shapes.front().as_object().at("id"), json::value("call-1"));
  const json::object& result = response.at("result").as_object();
  const std::string text(result.at("content").as_array().at(0).as_object().at("text").as_string());
  EXPECT_EQ(text, json_text(sample_structured()));
  // structuredContent is that very text, byte for byte.
  EXPECT_NE(wire.find(R"("structuredContent":)" + text + "}"), std::string::npos) << wire;
  EXPECT_EQ(result.at("structuredContent"), json::value(sample_structured()));
  EXPECT_FALSE(result.contains("isError"));
}

TEST_F(ToolResultWire, BatchOfStructuredResultsIsTheSameTextInAnArray) {
  auto channel = std::make_shared<RecordingChannel>();
  const std::string call = R"({"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"structured"}})";
  std::string batch = "[" + std::regex_replace(call, std::regex("ID"), "7") + "," +
                      std::regex_replace(call, std::regex("ID"), "8") + "]";
  h.session->deliver(json::parse(batch), channel);
  h.run_until([&] { return channel->closed > 0; });
  ASSERT_EQ(channel->texts.size(), 1u);
  const json::array responses = json::parse(channel->texts.front()).as_array();
  ASSERT_EQ(responses.size(), 2u);
  for (const auto& r : responses)
    EXPECT_EQ(r.as_object().at("result").as_object().at("structuredContent"), json::value(sample_structured()));
  EXPECT_EQ(channel->shapes.front().as_array().size(), 2u);
}

// write_json is to_json() serialised, for every kind of result.
TEST(ToolResultWriteJson, MatchesTheJsonObjectForEveryShape) {
  std::vector<ToolResult> results;
  results.push_back(ToolResult::text("plain \"text\"\n"));
  results.push_back(ToolResult::structured(sample_structured()));
  results.push_back(ToolResult::error("bad", obj(R"({"error":{"code":"x"}})")));
  results.push_back(ToolResult::error("bad"));
  ToolResult out_of_step = ToolResult::structured(sample_structured());
  out_of_step.text_is_structured = false;  // the object is then written on its own
  out_of_step.structured_content->emplace("extra", 1);
  results.push_back(std::move(out_of_step));
  ToolResult two_blocks = ToolResult::structured(sample_structured());
  two_blocks.content.emplace_back(content::text("second"));
  results.push_back(std::move(two_blocks));
  for (auto& r : results) {
    std::string written;
    r.write_json(written);
    ToolResult copy = r;
    EXPECT_EQ(json::parse(written), json::value(std::move(copy).to_json())) << written;
    if (!r.structured_content) {
      EXPECT_EQ(written.find("structuredContent"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace hamcp::mcp::testing
