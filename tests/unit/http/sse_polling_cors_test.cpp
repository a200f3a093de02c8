// SSE polling (2025-11-25: a resumable POST stream ends with `retry:` and is
// resumed with Last-Event-ID), 2026-07-28 streams without event ids, and CORS
// for browser clients on allowed origins.
#include <gtest/gtest.h>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

// Asks the transport to end this call's connection, then answers a moment later.
void add_releasing_tool(mcp::Server& server) {
  server.registry().add_tool(
      fixture_tool("release", "Releases its connection mid-call", json::parse(R"({"type":"object"})").as_object(),
                   [](json::object, mcp::RequestContext& ctx) -> mcp::asio::awaitable<mcp::ToolResult> {
                     const bool released = ctx.release_connection();
                     co_await sleep_for(std::chrono::milliseconds(300));
                     co_return mcp::ToolResult::text(released ? "released" : "kept");
                   }));
}

// The `id:` values of a raw SSE body, in order.
std::vector<std::string> ids_in(const std::string& body) {
  std::vector<std::string> ids;
  std::size_t at = 0;
  while ((at = body.find("id: ", at)) != std::string::npos) {
    if (at != 0 && body[at - 1] != '\n') {
      at += 4;
      continue;
    }
    const auto end = body.find('\n', at);
    ids.push_back(body.substr(at + 4, end - at - 4));
    at = end;
  }
  return ids;
}

std::string resume(std::uint16_t port, const std::string& sid, const std::string& last_id) {
  SseStream get(port, "GET", "/mcp",
                {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", last_id}});
  EXPECT_EQ(get.status(), 200u);
  return get.body();
}

TEST(SsePolling, AToolsReleaseEndsThePostStreamWithRetryAndTheAnswerComesOnResumption) {
  TempDir dir;
  TestHttpServer server(dir.path(), {}, add_releasing_tool);
  const std::string sid = open_session(server.port());
  SseStream post(server.port(), "POST", "/mcp", post_headers(sid), call_body(5, "release", "{}"));
  ASSERT_EQ(post.status(), 200u);
  const std::string first = post.body();
  EXPECT_NE(first.find("retry: 1000"), std::string::npos) << first;
  EXPECT_EQ(first.find("released"), std::string::npos) << "answered before the release: " << first;
  const auto ids = ids_in(first);
  ASSERT_FALSE(ids.empty()) << first;  // the priming event: what the client resumes from
  const std::string rest = resume(server.port(), sid, ids.back());
  EXPECT_NE(rest.find("released"), std::string::npos) << rest;
}

TEST(SsePolling, ALongStreamIsEndedAfterThePollTimeAndResumesWithoutLossOrRepeats) {
  TempDir dir;
  TestHttpServer server(dir.path(),
                        [](mcp::http::HttpServerOptions& o) { o.sse_poll_after = std::chrono::milliseconds(250); });
  const std::string sid = open_session(server.port());
  SseStream post(server.port(), "POST", "/mcp", post_headers(sid), call_body(6, "wait", R"({"ms":150,"notes":6})"));
  ASSERT_EQ(post.status(), 200u);
  std::string seen = post.body();
  EXPECT_NE(seen.find("retry: "), std::string::npos) << seen;
  EXPECT_EQ(seen.find("\"result\""), std::string::npos) << "not released before the end: " << seen;
  // Poll until the answer: each connection ends after 250 ms with `retry`.
  for (int polls = 0; polls < 20 && seen.find("\"result\"") == std::string::npos; ++polls) {
    const auto ids = ids_in(seen);
    ASSERT_FALSE(ids.empty());
    seen += resume(server.port(), sid, ids.back());
  }
  EXPECT_NE(seen.find("done"), std::string::npos) << seen;
  for (int i = 0; i < 6; ++i) {  // every note exactly once across the connections
    const std::string note = "\"note " + std::to_string(i) + "\"";
    const auto first = seen.find(note);
    EXPECT_NE(first, std::string::npos) << note;
    EXPECT_EQ(seen.find(note, first + 1), std::string::npos) << note << " repeated";
  }
}

TEST(SsePolling, OlderProtocolVersionsKeepTheirStreamOpen) {
  TempDir dir;
  TestHttpServer server(dir.path(), {}, add_releasing_tool);
  auto r = http_request(server.port(), "POST", "/mcp", post_headers({}, {}), init_body("2025-06-18"));
  ASSERT_EQ(r.status, 200u);
  const std::string sid = r.header("mcp-session-id");
  ASSERT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid, "2025-06-18"), kInitialized).status, 202u);
  SseStream post(server.port(), "POST", "/mcp", post_headers(sid, "2025-06-18"), call_body(7, "release", "{}"));
  const std::string body = post.body();
  EXPECT_NE(body.find("kept"), std::string::npos) << body;  // no ids to resume from: nothing released
  EXPECT_EQ(body.find("retry:"), std::string::npos) << body;
}

TEST(ModernSse, StreamsOf2026RequestsCarryNoEventIds) {
  TempDir dir;
  TestHttpServer server(dir.path());
  HeaderList h{{"Content-Type", "application/json"},
               {"Accept", "application/json, text/event-stream"},
               {"MCP-Protocol-Version", "2026-07-28"},
               {"Mcp-Method", "tools/call"},
               {"Mcp-Name", "wait"}};
  const std::string body =
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wait","arguments":{"ms":20,"notes":2},)"
      R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},)"
      R"("io.modelcontextprotocol/logLevel":"debug"}}})";
  SseStream post(server.port(), "POST", "/mcp", h, body);
  ASSERT_EQ(post.status(), 200u);
  const std::string text = post.body();
  EXPECT_NE(text.find("notifications/message"), std::string::npos) << text;  // it did stream
  EXPECT_NE(text.find("done"), std::string::npos) << text;
  EXPECT_TRUE(ids_in(text).empty()) << text;
}

// ---- CORS ---------------------------------------------------------------------------------

HeaderList preflight(const std::string& origin) {
  return {{"Origin", origin},
          {"Access-Control-Request-Method", "POST"},
          {"Access-Control-Request-Headers", "content-type, mcp-session-id, mcp-param-region"}};
}

TEST(Cors, PreflightFromAnAllowedOriginIsAnsweredWithItsOriginNeverAStar) {
  TempDir dir;
  TestHttpServer server(dir.path(),
                        [](mcp::http::HttpServerOptions& o) { o.allowed_origins = {"https://app.example"}; });
  auto r = http_request(server.port(), "OPTIONS", "/mcp", preflight("https://app.example"));
  EXPECT_EQ(r.status, 204u);
  EXPECT_EQ(r.header("access-control-allow-origin"), "https://app.example");
  const std::string allowed = r.header("access-control-allow-headers");
  for (const char* h : {"Mcp-Session-Id", "MCP-Protocol-Version", "Last-Event-ID", "Authorization", "Content-Type",
                        "Mcp-Method", "Mcp-Name", "mcp-param-region"})
    EXPECT_NE(allowed.find(h), std::string::npos) << h << " in " << allowed;
  EXPECT_NE(r.header("access-control-allow-methods").find("DELETE"), std::string::npos);
  EXPECT_TRUE(r.header("access-control-allow-credentials").empty());
  // Loopback pages (an inspector on localhost) are allowed without configuration.
  auto local = http_request(server.port(), "OPTIONS", "/mcp", preflight("http://localhost:6274"));
  EXPECT_EQ(local.status, 204u);
  EXPECT_EQ(local.header("access-control-allow-origin"), "http://localhost:6274");
}

TEST(Cors, AnUnlistedOriginStaysRefused) {
  TempDir dir;
  TestHttpServer server(dir.path());
  auto r = http_request(server.port(), "OPTIONS", "/mcp", preflight("https://evil.example"));
  EXPECT_EQ(r.status, 403u);
  EXPECT_TRUE(r.header("access-control-allow-origin").empty());
  HeaderList post = post_headers({}, {});
  post.emplace_back("Origin", "https://evil.example");
  auto p = http_request(server.port(), "POST", "/mcp", post, init_body());
  EXPECT_EQ(p.status, 403u);
  EXPECT_TRUE(p.header("access-control-allow-origin").empty());
}

TEST(Cors, AnswersExposeTheSessionIdAndTheAuthChallenge) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.allowed_origins = {"*"};
    o.auth_token = "secret-token";
  });
  HeaderList h = post_headers({}, {});
  h.emplace_back("Origin", "https://app.example");
  auto refused = http_request(server.port(), "POST", "/mcp", h, init_body());
  EXPECT_EQ(refused.status, 401u);
  EXPECT_EQ(refused.header("access-control-allow-origin"), "https://app.example");  // echoed even with '*'
  EXPECT_NE(refused.header("access-control-expose-headers").find("WWW-Authenticate"), std::string::npos);
  h.emplace_back("Authorization", "Bearer secret-token");
  auto ok = http_request(server.port(), "POST", "/mcp", h, init_body());
  ASSERT_EQ(ok.status, 200u) << ok.body;
  EXPECT_EQ(ok.header("access-control-allow-origin"), "https://app.example");
  EXPECT_NE(ok.header("access-control-expose-headers").find("Mcp-Session-Id"), std::string::npos);
  EXPECT_FALSE(ok.header("mcp-session-id").empty());
}

}  // namespace
}  // namespace hamcp::test
