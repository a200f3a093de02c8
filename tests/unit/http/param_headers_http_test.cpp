// SEP-2243 over Streamable HTTP: a 2026-07-28 tools/call whose Mcp-Param-*
// header disagrees with its arguments is refused with 400 and -32020 before the
// tool runs; matching, base64-encoded and absent-with-absent headers pass.
#include <gtest/gtest.h>

#include <atomic>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

std::atomic<int> g_region_calls{0};

void add_region_tool(mcp::Server& server) {
  server.registry().add_tool(fixture_tool(
      "route", "Echoes its region",
      json::parse(R"({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}})").as_object(),
      [](json::object args, mcp::RequestContext&) -> mcp::asio::awaitable<mcp::ToolResult> {
        ++g_region_calls;
        std::string region = "none";
        if (auto* r = args.if_contains("region"); r && r->is_string()) region = std::string(r->as_string());
        co_return mcp::ToolResult::text("region " + region);
      }));
}

HttpReply call_route(std::uint16_t port, const std::string& arguments, const HeaderList& extra) {
  HeaderList h{{"Content-Type", "application/json"},
               {"Accept", "application/json, text/event-stream"},
               {"MCP-Protocol-Version", "2026-07-28"},
               {"Mcp-Method", "tools/call"},
               {"Mcp-Name", "route"}};
  h.insert(h.end(), extra.begin(), extra.end());
  const std::string body = R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"route","arguments":)" +
                           arguments +
                           R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                           R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
  return http_request(port, "POST", "/mcp", h, body);
}

int error_code(const HttpReply& r) {
  auto v = json::parse(r.body);
  const auto* error = v.as_object().if_contains("error");
  return error ? static_cast<int>(error->as_object().at("code").as_int64()) : 0;
}

TEST(ParamHeadersHttp, MatchingHeaderCallsTheTool) {
  TempDir dir;
  TestHttpServer server(dir.path(), {}, add_region_tool);
  auto r = call_route(server.port(), R"({"region":"eu-west"})", {{"Mcp-Param-Region", "eu-west"}});
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_NE(r.body.find("region eu-west"), std::string::npos) << r.body;
  r = call_route(server.port(), R"({"region":"Hello"})", {{"mcp-param-region", "=?base64?SGVsbG8=?="}});
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_NE(r.body.find("region Hello"), std::string::npos) << r.body;
  r = call_route(server.port(), R"({})", {});
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_NE(r.body.find("region none"), std::string::npos) << r.body;
}

TEST(ParamHeadersHttp, MismatchMissingOrBrokenHeaderIsRefusedBeforeTheToolRuns) {
  TempDir dir;
  TestHttpServer server(dir.path(), {}, add_region_tool);
  const int before = g_region_calls.load();
  auto r = call_route(server.port(), R"({"region":"eu-west"})", {{"Mcp-Param-Region", "us-east"}});
  EXPECT_EQ(r.status, 400u) << r.body;
  EXPECT_EQ(error_code(r), -32020) << r.body;
  EXPECT_NE(r.body.find("Mcp-Param-Region"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("\"id\":9"), std::string::npos) << r.body;
  r = call_route(server.port(), R"({"region":"eu-west"})", {});
  EXPECT_EQ(r.status, 400u) << r.body;
  EXPECT_EQ(error_code(r), -32020) << r.body;
  r = call_route(server.port(), R"({"region":"Hello"})", {{"Mcp-Param-Region", "=?base64?SGVsbG8?="}});
  EXPECT_EQ(r.status, 400u) << r.body;
  EXPECT_EQ(error_code(r), -32020) << r.body;
  EXPECT_EQ(g_region_calls.load(), before);
  // The server keeps serving.
  r = call_route(server.port(), R"({"region":"eu-west"})", {{"Mcp-Param-Region", "eu-west"}});
  EXPECT_EQ(r.status, 200u) << r.body;
}

}  // namespace
}  // namespace hamcp::test
