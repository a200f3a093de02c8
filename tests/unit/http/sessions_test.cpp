// Sessions that never strand a client: ids survive restarts, are shared by
// processes using the same data dir, and only DELETE or idle expiry ends them.
#include <gtest/gtest.h>

#include <thread>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

json::object whoami(std::uint16_t port, const std::string& sid) {
  auto r = http_request(port, "POST", "/mcp", post_headers(sid), call_body(50, "whoami", "{}"));
  EXPECT_EQ(r.status, 200u) << r.body;
  auto body = parse_object(r.body);
  if (!body.contains("result")) return {};
  return body.at("result").at("structuredContent").as_object();
}

TEST(Sessions, IdSurvivesAServerRestartWithoutReinitialize) {
  TempDir dir;
  std::string sid;
  {
    TestHttpServer first(dir.path());
    sid = open_session(first.port(), R"({"sampling":{},"roots":{"listChanged":true}})");
    EXPECT_EQ(http_request(first.port(), "POST", "/mcp", post_headers(sid), list_body(2)).status, 200u);
  }
  TestHttpServer second(dir.path());  // new Server object, new port, same data dir
  auto r = http_request(second.port(), "POST", "/mcp", post_headers(sid), call_body(3, "echo", R"({"text":"again"})"));
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(parse_object(r.body).at("result").at("content").at(0).at("text"), "again");
  // The rebuilt session remembers what initialize negotiated.
  auto me = whoami(second.port(), sid);
  EXPECT_EQ(me.at("protocolVersion"), "2025-11-25");
  EXPECT_TRUE(me.at("capabilities").as_object().contains("sampling"));
  EXPECT_EQ(me.at("capabilities").at("roots").at("listChanged"), true);
  EXPECT_EQ(me.at("clientInfo").at("name"), "http-test");
  // And the GET stream works on the rebuilt session too.
  SseStream get(second.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  EXPECT_EQ(get.status(), 200u);
}

TEST(Sessions, TwoServersSharingADataDirAcceptEachOthersIds) {
  TempDir dir;
  TestHttpServer a(dir.path());
  TestHttpServer b(dir.path());
  const std::string from_a = open_session(a.port());
  const std::string from_b = open_session(b.port());
  EXPECT_EQ(http_request(b.port(), "POST", "/mcp", post_headers(from_a), list_body(2)).status, 200u);
  EXPECT_EQ(http_request(a.port(), "POST", "/mcp", post_headers(from_b), list_body(2)).status, 200u);
}

TEST(Sessions, RevocationIsHonouredByEveryInstanceAndAfterRestart) {
  TempDir dir;
  std::string sid;
  {
    TestHttpServer a(dir.path());
    TestHttpServer b(dir.path());
    sid = open_session(a.port());
    EXPECT_EQ(http_request(b.port(), "POST", "/mcp", post_headers(sid), list_body(2)).status, 200u);
    EXPECT_EQ(http_request(b.port(), "DELETE", "/mcp", {{"Mcp-Session-Id", sid}}).status, 200u);
    EXPECT_EQ(http_request(a.port(), "POST", "/mcp", post_headers(sid), list_body(3)).status, 404u);
    EXPECT_EQ(http_request(b.port(), "POST", "/mcp", post_headers(sid), list_body(3)).status, 404u);
  }
  TestHttpServer restarted(dir.path());
  EXPECT_EQ(http_request(restarted.port(), "POST", "/mcp", post_headers(sid), list_body(4)).status, 404u);
}

TEST(Sessions, EvictingInMemoryStateIsHarmless) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.sessions.max_in_memory = 2; });
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(open_session(server.port()));
  EXPECT_LE(server.http().sessions_in_memory(), 2u);
  for (const auto& sid : ids) {
    EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(2)).status, 200u);
  }
}

TEST(Sessions, IdleExpiryCountsFromLastUse) {
  TempDir dir;
  TestHttpServer server(dir.path(),
                        [](mcp::http::HttpServerOptions& o) { o.sessions.idle_expiry = std::chrono::seconds(2); });
  const std::string sid = open_session(server.port());
  // Used every second for 4 s (longer than the expiry): stays valid.
  for (int i = 0; i < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    ASSERT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(2)).status, 200u) << i;
  }
  // Idle for longer than the expiry: 404, and initialize with it starts afresh.
  std::this_thread::sleep_for(std::chrono::milliseconds(3200));
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(3)).status, 404u);
  auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid, {}), init_body());
  EXPECT_EQ(r.status, 200u);
  EXPECT_NE(r.header("mcp-session-id"), sid);
}

TEST(Sessions, ConcurrentFirstUseAfterRestartRebuildsOnce) {
  TempDir dir;
  std::string sid;
  {
    TestHttpServer first(dir.path());
    sid = open_session(first.port());
  }
  TestHttpServer second(dir.path());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      if (http_request(second.port(), "POST", "/mcp", post_headers(sid), list_body(10 + i)).status == 200u) ++ok;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(second.http().sessions_in_memory(), 1u);
}

TEST(Sessions, StatelessModeServesWithoutIds) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.stateless = true; });
  auto init = http_request(server.port(), "POST", "/mcp", post_headers({}, {}), init_body());
  ASSERT_EQ(init.status, 200u);
  EXPECT_FALSE(init.has_header("mcp-session-id"));
  auto r = http_request(server.port(), "POST", "/mcp", post_headers({}), call_body(2, "echo", R"({"text":"x"})"));
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(parse_object(r.body).at("result").at("content").at(0).at("text"), "x");
  EXPECT_EQ(http_request(server.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}}).status, 405u);
  EXPECT_EQ(http_request(server.port(), "DELETE", "/mcp", {}).status, 405u);
}

}  // namespace
}  // namespace hamcp::test
