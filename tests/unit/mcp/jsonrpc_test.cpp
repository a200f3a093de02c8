// JSON-RPC 2.0 validation, lifecycle, version negotiation and batches.
#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

void add_echo(Harness& h) {
  h.server.registry().add_tool(simple_tool(
      "echo",
      [](json::object args, RequestContext&) -> asio::awaitable<ToolResult> {
        co_return ToolResult::text(args.at("text").as_string());
      },
      R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})"));
}

TEST(JsonRpc, ParseErrorHelperAnswersWithNullId) {
  MemoryChannel channel;
  Session::reply_parse_error(channel, "unexpected character");
  ASSERT_EQ(channel.sent.size(), 1u);
  const auto& r = channel.sent[0].as_object();
  EXPECT_TRUE(r.at("id").is_null());
  EXPECT_EQ(error_code_of(r), error_code::parse_error);
  EXPECT_EQ(channel.closed, 1);
}

TEST(JsonRpc, InvalidRequestsGetMinus32600) {
  Harness h;
  h.initialize();
  // wrong jsonrpc version
  auto r = h.request(R"({"jsonrpc":"1.0","id":1,"method":"ping"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  EXPECT_EQ(r.at("id").as_int64(), 1);
  // missing jsonrpc
  r = h.request(R"({"id":2,"method":"ping"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  // null id
  r = h.request(R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  EXPECT_TRUE(r.at("id").is_null());
  // id of a wrong type
  r = h.request(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  r = h.request(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  // method of a wrong type
  r = h.request(R"({"jsonrpc":"2.0","id":3,"method":42})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  EXPECT_EQ(r.at("id").as_int64(), 3);
  // not an object at all
  r = h.request(R"("hello")");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  // neither request nor response
  r = h.request(R"({"jsonrpc":"2.0","id":4})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
}

TEST(JsonRpc, UnknownMethodIsMinus32601AndParamsMustBeAnObject) {
  Harness h;
  h.initialize();
  auto r = h.request(R"({"jsonrpc":"2.0","id":"x","method":"no/such"})");
  EXPECT_EQ(error_code_of(r), error_code::method_not_found);
  EXPECT_EQ(r.at("id").as_string(), "x");
  r = h.request(R"({"jsonrpc":"2.0","id":5,"method":"ping","params":[1,2]})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  // capabilities not registered: their methods do not exist
  r = h.request(R"({"jsonrpc":"2.0","id":6,"method":"tools/list"})");
  EXPECT_EQ(error_code_of(r), error_code::method_not_found);
  r = h.request(R"({"jsonrpc":"2.0","id":7,"method":"prompts/list"})");
  EXPECT_EQ(error_code_of(r), error_code::method_not_found);
}

TEST(JsonRpc, NotificationsAreNeverAnswered) {
  Harness h;
  h.initialize();
  auto ch = h.send(R"({"jsonrpc":"2.0","method":"notifications/whatever","params":{}})");
  EXPECT_TRUE(ch->sent.empty());
  EXPECT_EQ(ch->closed, 1);
  ch = h.send(R"({"jsonrpc":"2.0","method":"no/such/method"})");
  EXPECT_TRUE(ch->sent.empty());
}

TEST(Lifecycle, RequestsBeforeInitializeAreRefusedButPingWorks) {
  Harness h;
  add_echo(h);
  auto r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
  EXPECT_NE(std::string(r.at("error").as_object().at("message").as_string()).find("initialize"), std::string::npos);
  r = h.request(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
  EXPECT_TRUE(r.at("result").as_object().empty());
  EXPECT_FALSE(h.session->initialized());
}

TEST(Lifecycle, InitializeResultDeclaresOnlyRegisteredCapabilities) {
  Harness h;
  auto r = h.initialize();
  const auto& result = r.at("result").as_object();
  EXPECT_EQ(result.at("protocolVersion").as_string(), "2025-11-25");
  EXPECT_EQ(result.at("serverInfo").as_object().at("name").as_string(), "hamcp");
  EXPECT_EQ(result.at("instructions").as_string(), "test instructions");
  const auto& caps = result.at("capabilities").as_object();
  EXPECT_TRUE(caps.contains("logging"));
  EXPECT_FALSE(caps.contains("tools"));
  EXPECT_FALSE(caps.contains("resources"));
  EXPECT_FALSE(caps.contains("prompts"));
  EXPECT_FALSE(caps.contains("completions"));
  EXPECT_EQ(h.session->info().client_info.at("name").as_string(), "test-client");

  Harness h2;
  add_echo(h2);
  auto caps2 = h2.initialize().at("result").as_object().at("capabilities").as_object();
  EXPECT_TRUE(caps2.at("tools").as_object().at("listChanged").as_bool());
  EXPECT_FALSE(caps2.contains("resources"));
}

TEST(Lifecycle, SecondInitializeIsRefused) {
  Harness h;
  h.initialize();
  auto r = h.request(
      R"({"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
}

TEST(Lifecycle, InitializeWithoutProtocolVersionIsInvalidParams) {
  Harness h;
  auto r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  EXPECT_FALSE(h.session->initialized());
}

class Negotiation : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(Negotiation, AnswersSupportedVersionOrLatest) {
  Harness h;
  auto [requested, expected] = GetParam();
  auto r = h.initialize(requested);
  EXPECT_EQ(r.at("result").as_object().at("protocolVersion").as_string(), expected);
  EXPECT_EQ(h.session->info().protocol_version, expected);
}

INSTANTIATE_TEST_SUITE_P(Versions, Negotiation,
                         ::testing::Values(std::pair{"2025-11-25", "2025-11-25"}, std::pair{"2025-06-18", "2025-06-18"},
                                           std::pair{"2025-03-26", "2025-03-26"}, std::pair{"2024-11-05", "2024-11-05"},
                                           std::pair{"2099-01-01", "2025-11-25"}, std::pair{"garbage", "2025-11-25"},
                                           std::pair{"2024-10-07", "2025-11-25"}));

TEST(Batch, ArrayInArrayOut) {
  Harness h;
  add_echo(h);
  h.initialize();
  auto ch = h.send(R"([
    {"jsonrpc":"2.0","id":1,"method":"ping"},
    {"jsonrpc":"2.0","method":"notifications/initialized"},
    {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}},
    {"jsonrpc":"2.0","id":3,"method":"nope"},
    {"jsonrpc":"1.0","id":4,"method":"ping"}
  ])");
  h.run_until([&] { return ch->closed == 1; });
  ASSERT_EQ(ch->sent.size(), 1u);
  ASSERT_TRUE(ch->sent[0].is_array());
  const auto& arr = ch->sent[0].as_array();
  ASSERT_EQ(arr.size(), 4u);  // the notification gets no entry
  std::map<std::int64_t, json::object> by_id;
  for (const auto& r : arr) by_id[r.as_object().at("id").as_int64()] = r.as_object();
  EXPECT_TRUE(by_id[1].contains("result"));
  EXPECT_EQ(text_of(by_id[2]), "hi");
  EXPECT_EQ(error_code_of(by_id[3]), error_code::method_not_found);
  EXPECT_EQ(error_code_of(by_id[4]), error_code::invalid_request);
  EXPECT_EQ(ch->closed, 1);
}

TEST(Batch, EmptyArrayIsInvalidRequest) {
  Harness h;
  h.initialize();
  auto ch = h.send("[]");
  ASSERT_EQ(ch->sent.size(), 1u);
  EXPECT_EQ(error_code_of(ch->sent[0].as_object()), error_code::invalid_request);
  EXPECT_TRUE(ch->sent[0].as_object().at("id").is_null());
}

TEST(Batch, InitializeInsideABatchIsRefusedAndTheOthersAreAnswered) {
  Harness h;
  auto ch = h.send(R"([
    {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}},
    {"jsonrpc":"2.0","id":2,"method":"ping"}
  ])");
  h.run_until([&] { return ch->closed == 1; });
  ASSERT_EQ(ch->sent.size(), 1u);
  ASSERT_TRUE(ch->sent[0].is_array());
  std::map<std::int64_t, json::object> by_id;
  for (const auto& r : ch->sent[0].as_array()) by_id[r.as_object().at("id").as_int64()] = r.as_object();
  ASSERT_EQ(by_id.size(), 2u);
  EXPECT_EQ(error_code_of(by_id[1]), error_code::invalid_request);
  EXPECT_NE(std::string(by_id[1].at("error").at("message").as_string()).find("batch"), std::string::npos);
  EXPECT_TRUE(by_id[2].contains("result"));
  EXPECT_FALSE(h.session->initialized());  // the batched initialize did nothing
}

TEST(Batch, OnlyNotificationsProduceNoOutput) {
  Harness h;
  h.initialize();
  auto ch = h.send(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])");
  EXPECT_TRUE(ch->sent.empty());
  EXPECT_EQ(ch->closed, 1);
}

TEST(Ping, AnswersEmptyResultWithSameId) {
  Harness h;
  h.initialize();
  auto r = h.request(R"({"jsonrpc":"2.0","id":"abc","method":"ping"})");
  EXPECT_EQ(r.at("id").as_string(), "abc");
  EXPECT_TRUE(r.at("result").as_object().empty());
  EXPECT_EQ(r.at("jsonrpc").as_string(), "2.0");
}

TEST(Session, RestoredSessionIsInitializedAndRoundTripsInfo) {
  Harness h;
  SessionInfo info;
  info.protocol_version = "2025-06-18";
  info.client_capabilities = obj(R"({"elicitation":{}})");
  info.client_info = obj(R"({"name":"c","version":"2"})");
  SessionInfo back = SessionInfo::from_json(info.to_json());
  EXPECT_EQ(back.protocol_version, "2025-06-18");
  EXPECT_TRUE(back.client_supports("elicitation"));
  EXPECT_EQ(SessionInfo::from_json(obj(R"({"protocolVersion":"1999"})")).protocol_version, "2025-11-25");

  auto restored = h.server.restore_session("sid", back);
  EXPECT_TRUE(restored->initialized());
  auto ch = std::make_shared<MemoryChannel>();
  restored->deliver(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"), ch);
  ASSERT_EQ(ch->responses().size(), 1u);
  EXPECT_EQ(restored->id(), "sid");
  EXPECT_EQ(h.server.session_count(), 2u);
}

TEST(Session, ShutdownSessionRefusesRequests) {
  Harness h;
  h.initialize();
  h.session->shutdown();
  auto r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_request);
}

}  // namespace
}  // namespace hamcp::mcp::testing
