// MCP 2026-07-28 beside the 2025 handshake era, one rule per test: era chosen
// per request, server/discover before any initialize, the _meta checks,
// resultType/serverInfo/caching hints, removed methods, per-request log level,
// subscriptions/listen, multi round-trip (InputRequired), and the HTTP header
// checks.
#include "mcp/modern_era.hpp"

#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

constexpr std::string_view kMeta =
    R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

std::string modern(std::string_view id, std::string_view method, std::string_view params = "",
                   std::string_view meta = kMeta) {
  std::string p = "{";
  p += params;
  if (!params.empty() && !meta.empty()) p += ",";
  p += meta;
  p += "}";
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":")" + std::string(method) + R"(","params":)" + p +
         "}";
}

Harness& with_echo(Harness& h) {
  h.server.registry().add_tool(
      simple_tool("echo", [](json::object args, RequestContext& ctx) -> asio::awaitable<ToolResult> {
        ctx.log(LogLevel::info, "echo called");
        co_return ToolResult::text("echo");
      }));
  return h;
}

const json::object& result_of(const json::object& response) { return response.at("result").as_object(); }

TEST(ModernEra, DiscoverAnswersBeforeAnyInitialize) {
  Harness h;
  with_echo(h);
  auto r = h.request(modern("1", "server/discover"));
  ASSERT_TRUE(r.contains("result")) << json::serialize(r);
  const auto& result = result_of(r);
  EXPECT_EQ(result.at("resultType").as_string(), "complete");
  const auto& versions = result.at("supportedVersions").as_array();
  ASSERT_GE(versions.size(), 2u);
  EXPECT_EQ(versions[0].as_string(), "2026-07-28");
  EXPECT_NE(std::find(versions.begin(), versions.end(), json::value("2025-11-25")), versions.end());
  EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
  EXPECT_EQ(result.at("_meta").as_object().at("io.modelcontextprotocol/serverInfo").as_object().at("name").as_string(),
            "hamcp");
  EXPECT_EQ(result.at("instructions").as_string(), "test instructions");
  EXPECT_TRUE(result.contains("ttlMs"));
  EXPECT_TRUE(result.contains("cacheScope"));
  // The 2025 session was not touched: it still wants initialize.
  EXPECT_FALSE(h.session->initialized());
}

TEST(ModernEra, MissingMetaFieldsAreInvalidParams) {
  Harness h;
  auto r = h.request(modern("1", "server/discover", "", ""));
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  EXPECT_EQ(r.at("id").as_int64(), 1);
  r = h.request(
      modern("2", "server/discover", "", R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"})"));
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  // clientInfo is optional
  r = h.request(modern("3", "server/discover"));
  EXPECT_TRUE(r.contains("result"));
}

TEST(ModernEra, UnsupportedVersionListsTheSupportedOnes) {
  Harness h;
  auto r = h.request(modern("7", "tools/list", "",
                            R"("_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01",)"
                            R"("io.modelcontextprotocol/clientCapabilities":{}})"));
  EXPECT_EQ(error_code_of(r), error_code::unsupported_protocol_version);
  const auto& data = r.at("error").as_object().at("data").as_object();
  EXPECT_EQ(data.at("requested").as_string(), "1900-01-01");
  EXPECT_EQ(data.at("supported").as_array().at(0).as_string(), "2026-07-28");
  EXPECT_EQ(r.at("id").as_int64(), 7);
}

TEST(ModernEra, RemovedMethodsAreMethodNotFound) {
  Harness h;
  for (std::string_view method : {"initialize", "ping", "logging/setLevel", "resources/subscribe"}) {
    auto r = h.request(modern("1", method));
    EXPECT_EQ(error_code_of(r), error_code::method_not_found) << method;
  }
}

TEST(ModernEra, ResultsCarryResultTypeAndCachingHints) {
  Harness h;
  with_echo(h);
  auto list = h.request(modern("1", "tools/list"));
  const auto& result = result_of(list);
  EXPECT_EQ(result.at("resultType").as_string(), "complete");
  EXPECT_GE(result.at("ttlMs").as_int64(), 0);
  EXPECT_EQ(result.at("cacheScope").as_string(), "private");
  EXPECT_EQ(result.at("tools").as_array().size(), 1u);
  // tools/call is not cacheable: resultType and serverInfo, no hints.
  auto call = h.request(modern("2", "tools/call", R"("name":"echo","arguments":{})"));
  EXPECT_EQ(result_of(call).at("resultType").as_string(), "complete");
  EXPECT_FALSE(result_of(call).contains("ttlMs"));
  EXPECT_EQ(text_of(call), "echo");
}

TEST(ModernEra, LogsOnlyWhenTheRequestAsksForThem) {
  Harness h;
  with_echo(h);
  auto quiet = h.send(modern("1", "tools/call", R"("name":"echo","arguments":{})"));
  EXPECT_TRUE(quiet->with_method("notifications/message").empty());
  auto chatty = h.send(modern("2", "tools/call", R"("name":"echo","arguments":{})",
                              R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                              R"("io.modelcontextprotocol/clientCapabilities":{},)"
                              R"("io.modelcontextprotocol/logLevel":"debug"})"));
  EXPECT_EQ(chatty->with_method("notifications/message").size(), 1u);
}

TEST(ModernEra, BothErasServeOneProcess) {
  Harness h;
  with_echo(h);
  h.initialize();
  auto legacy = h.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  EXPECT_FALSE(result_of(legacy).contains("resultType"));
  auto now = h.request(modern("2", "tools/list"));
  EXPECT_EQ(result_of(now).at("resultType").as_string(), "complete");
  EXPECT_EQ(error_code_of(h.request(R"({"jsonrpc":"2.0","id":3,"method":"ping"})")), 0);
}

TEST(ModernEra, ListenAcknowledgesFiltersAndTags) {
  Harness h;
  with_echo(h);
  auto stream = std::make_shared<MemoryChannel>();
  h.session->deliver(json::parse(modern("9", "subscriptions/listen",
                                        R"("notifications":{"toolsListChanged":true,"promptsListChanged":true})")),
                     stream);
  h.poll();
  ASSERT_EQ(stream->sent.size(), 1u);
  const auto& ack = stream->sent[0].as_object();
  EXPECT_EQ(ack.at("method").as_string(), "notifications/subscriptions/acknowledged");
  const auto& granted = ack.at("params").as_object().at("notifications").as_object();
  EXPECT_TRUE(granted.contains("toolsListChanged"));
  EXPECT_FALSE(granted.contains("promptsListChanged"));  // no prompts registered: not honored
  EXPECT_EQ(stream->closed, 0);                          // the stream stays open

  h.server.notify_resources_changed();  // not asked for
  h.server.notify_tools_changed();
  h.poll();
  ASSERT_EQ(stream->sent.size(), 2u);
  const auto& changed = stream->sent[1].as_object();
  EXPECT_EQ(changed.at("method").as_string(), "notifications/tools/list_changed");
  EXPECT_EQ(changed.at("params").as_object().at("_meta").as_object().at("io.modelcontextprotocol/subscriptionId"),
            json::value(9));

  // Cancelling the listen request ends the subscription.
  h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}})");
  h.server.notify_tools_changed();
  h.poll();
  EXPECT_EQ(stream->sent.size(), 2u);
}

TEST(ModernEra, ListenDeliversResourceUpdatesForListedUris) {
  Harness h;
  h.server.registry().add_resource(
      Resource{"test://a", "A", "", "", "text/plain", std::nullopt,
               [](std::string, RequestContext&) -> asio::awaitable<json::array> { co_return json::array{}; }});
  auto stream = std::make_shared<MemoryChannel>();
  h.session->deliver(
      json::parse(modern("\"l\"", "subscriptions/listen", R"("notifications":{"resourceSubscriptions":["test://a"]})")),
      stream);
  h.poll();
  h.server.notify_resource_updated("test://b");
  h.server.notify_resource_updated("test://a");
  h.poll();
  ASSERT_EQ(stream->sent.size(), 2u);
  EXPECT_EQ(stream->sent[1].as_object().at("params").as_object().at("uri").as_string(), "test://a");
}

TEST(ModernEra, ClientRequestsBecomeRoundTrips) {
  Harness h;
  h.server.registry().add_tool(simple_tool("ask", [](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
    json::object params;
    params.emplace("message", "sure?");
    auto asking = ctx.request("elicitation/create", std::move(params));  // named (GCC 12)
    json::value answer = co_await std::move(asking);
    co_return ToolResult::text(std::string(answer.as_object().at("action").as_string()));
  }));
  // Without the capability: -32021 naming it.
  auto refused = h.request(modern("1", "tools/call", R"("name":"ask","arguments":{})"));
  EXPECT_EQ(error_code_of(refused), error_code::missing_client_capability);
  EXPECT_TRUE(refused.at("error")
                  .as_object()
                  .at("data")
                  .as_object()
                  .at("requiredCapabilities")
                  .as_object()
                  .contains("elicitation"));
  constexpr std::string_view kElicitMeta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                                           R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}})";
  auto first = h.request(modern("2", "tools/call", R"("name":"ask","arguments":{})", kElicitMeta));
  const auto& interim = result_of(first);
  EXPECT_EQ(interim.at("resultType").as_string(), "input_required");
  const auto& requests = interim.at("inputRequests").as_object();
  ASSERT_EQ(requests.size(), 1u);
  const std::string key(requests.begin()->key());
  EXPECT_EQ(requests.begin()->value().as_object().at("method").as_string(), "elicitation/create");
  auto second = h.request(
      modern("3", "tools/call",
             R"("name":"ask","arguments":{},"inputResponses":{")" + key + R"(":{"action":"accept"}})", kElicitMeta));
  EXPECT_EQ(result_of(second).at("resultType").as_string(), "complete");
  EXPECT_EQ(text_of(second), "accept");
}

TEST(ModernEra, ResourceNotFoundIsInvalidParams) {
  Harness h;
  h.server.registry().add_resource(
      Resource{"test://a", "A", "", "", "text/plain", std::nullopt,
               [](std::string, RequestContext&) -> asio::awaitable<json::array> { co_return json::array{}; }});
  auto r = h.request(modern("1", "resources/read", R"("uri":"test://missing")"));
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
}

TEST(ModernEra, HeadersMustMatchTheBody) {
  auto message = obj(modern("1", "tools/call", R"("name":"echo","arguments":{})"));
  std::map<std::string, std::string> headers = {
      {"mcp-protocol-version", "2026-07-28"}, {"mcp-method", "tools/call"}, {"mcp-name", "echo"}};
  auto lookup = [&headers](std::string_view name) -> std::optional<std::string> {
    auto it = headers.find(std::string(name));
    if (it == headers.end()) return std::nullopt;
    return it->second;
  };
  EXPECT_FALSE(modern::header_mismatch(lookup, message));
  headers["mcp-name"] = "=?base64?ZWNobw==?=";  // "echo"
  EXPECT_FALSE(modern::header_mismatch(lookup, message));
  headers["mcp-name"] = "other";
  EXPECT_TRUE(modern::header_mismatch(lookup, message));
  headers.erase("mcp-name");
  EXPECT_TRUE(modern::header_mismatch(lookup, message));
  headers["mcp-name"] = "echo";
  headers["mcp-method"] = "tools/list";
  EXPECT_TRUE(modern::header_mismatch(lookup, message));
  headers["mcp-method"] = "tools/call";
  headers["mcp-protocol-version"] = "2025-11-25";
  EXPECT_TRUE(modern::header_mismatch(lookup, message));
}

TEST(ModernEra, HttpStatusFollowsTheError) {
  EXPECT_EQ(modern::http_status_for(0), 200);
  EXPECT_EQ(modern::http_status_for(error_code::method_not_found), 404);
  EXPECT_EQ(modern::http_status_for(error_code::unsupported_protocol_version), 400);
  EXPECT_EQ(modern::http_status_for(error_code::header_mismatch), 400);
  EXPECT_EQ(modern::http_status_for(error_code::missing_client_capability), 400);
  EXPECT_EQ(modern::http_status_for(error_code::internal_error), 200);
}

}  // namespace
}  // namespace hamcp::mcp::testing
