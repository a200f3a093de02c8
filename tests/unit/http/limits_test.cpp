// Limits and protections: body size, timeouts, concurrency caps, bearer
// tokens. The server answers with a status code and keeps serving.
#include <gtest/gtest.h>

#include <thread>

#include "http_fixture.hpp"
#include "net/beast_server.hpp"
#include "raw_socket.hpp"

namespace hamcp::test {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

TEST(Limits, OversizedBodyIs413) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.listener.max_body_bytes = 4096; });
  const std::string sid = open_session(server.port());
  const std::string big = call_body(2, "echo", R"({"text":")" + std::string(8000, 'x') + R"("})");
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), big).status, 413u);
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(3)).status, 200u);
}

TEST(Limits, DefaultBodyLimitIs4MiB) {
  TempDir dir;
  TestHttpServer server(dir.path());
  const std::string sid = open_session(server.port());
  const std::string big = call_body(2, "echo", R"({"text":")" + std::string(5u << 20, 'x') + R"("})");
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), big).status, 413u);
}

TEST(Limits, HugeHeadersAre431) {
  TempDir dir;
  TestHttpServer server(dir.path());
  HeaderList h = post_headers();
  for (int i = 0; i < 4; ++i) h.emplace_back("X-Big-" + std::to_string(i), std::string(30000, 'h'));
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", h, list_body(1)).status, 431u);
}

TEST(Limits, SlowHeaderIsCutOffByTheHeaderTimeout) {
  TempDir dir;
  TestHttpServer server(
      dir.path(), [](mcp::http::HttpServerOptions& o) { o.listener.header_timeout = std::chrono::milliseconds(300); });
  HttpConnection c(server.port());
  const auto start = Clock::now();
  c.raw_exchange("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", std::chrono::milliseconds(3000));
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(2500));  // closed by the server, not our timeout
}

// The wait for a kept-alive connection's next request is left to the server's
// idle sweep (no timer per request): the connection still closes once
// idle_timeout has passed, within about a sweep period, and not before.
TEST(Limits, AnIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout) {
  TempDir dir;
  TestHttpServer server(
      dir.path(), [](mcp::http::HttpServerOptions& o) { o.listener.idle_timeout = std::chrono::milliseconds(2500); });
  RawSocket c(server.port());
  ASSERT_TRUE(c.send(healthz_request()));
  ASSERT_EQ(raw_status(c.read_until("\r\n\r\n", std::chrono::milliseconds(5000))), 200u);
  const auto idle_since = Clock::now();
  EXPECT_FALSE(c.closed_by_peer(std::chrono::milliseconds(2000))) << "closed before idle_timeout";
  EXPECT_TRUE(c.closed_by_peer(std::chrono::milliseconds(10000))) << "never closed";
  const auto idle = Clock::now() - idle_since;
  EXPECT_GE(idle, std::chrono::milliseconds(2400));
  EXPECT_LT(idle, std::chrono::milliseconds(2500) + 3 * net::kIdleSweepPeriod) << "well after the timeout";
}

TEST(Limits, TooManyRequestsOnOneSessionIs429WithRetryAfter) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.max_requests_per_session = 2; });
  const std::string sid = open_session(server.port());
  std::vector<std::thread> slow;
  std::atomic<int> ok{0};
  for (int i = 0; i < 2; ++i) {
    slow.emplace_back([&, i] {
      auto r =
          http_request(server.port(), "POST", "/mcp", post_headers(sid), call_body(10 + i, "wait", R"({"ms":1500})"));
      if (r.status == 200u) ++ok;
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(20));
  EXPECT_EQ(r.status, 429u);
  EXPECT_EQ(r.header("retry-after"), "1");
  // Another session is not affected.
  const std::string other = open_session(server.port());
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(other), list_body(21)).status, 200u);
  for (auto& t : slow) t.join();
  EXPECT_EQ(ok.load(), 2);
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(22)).status, 200u);
}

TEST(Limits, TooManyRequestsOverallIs503WithRetryAfter) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.max_requests_global = 1; });
  const std::string a = open_session(server.port());
  const std::string b = open_session(server.port());
  std::thread slow(
      [&] { http_request(server.port(), "POST", "/mcp", post_headers(a), call_body(10, "wait", R"({"ms":1200})")); });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  auto r = http_request(server.port(), "POST", "/mcp", post_headers(b), list_body(11));
  EXPECT_EQ(r.status, 503u);
  EXPECT_EQ(r.header("retry-after"), "1");
  slow.join();
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(b), list_body(12)).status, 200u);
}

TEST(Limits, ParallelPostsDoNotSerialize) {
  TempDir dir;
  TestHttpServer server(dir.path());
  const std::string sid = open_session(server.port());
  constexpr int kRequests = 8;
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  const auto start = Clock::now();
  for (int i = 0; i < kRequests; ++i) {
    threads.emplace_back([&, i] {
      auto r =
          http_request(server.port(), "POST", "/mcp", post_headers(sid), call_body(100 + i, "wait", R"({"ms":500})"));
      if (r.status == 200u) ++ok;
    });
  }
  for (auto& t : threads) t.join();
  const auto elapsed = Clock::now() - start;
  EXPECT_EQ(ok.load(), kRequests);
  // Serialized they would take 8 x 500 ms.
  EXPECT_LT(elapsed, std::chrono::milliseconds(2500));
}

TEST(Limits, ThreeConcurrentPostsWithAnOlderVersionHeaderAllSucceed) {
  // The conformance suite's server-sse-multiple-streams scenario.
  TempDir dir;
  TestHttpServer server(dir.path());
  const std::string sid = open_session(server.port());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&, i] {
      if (http_request(server.port(), "POST", "/mcp", post_headers(sid, "2025-03-26"), list_body(30 + i)).status ==
          200u)
        ++ok;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 3);
}

TEST(Limits, BearerTokenIsRequiredWhenConfigured) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.auth_token = "t0ken-value"; });
  auto none = http_request(server.port(), "POST", "/mcp", post_headers({}, {}), init_body());
  EXPECT_EQ(none.status, 401u);
  EXPECT_EQ(none.header("www-authenticate").rfind("Bearer", 0), 0u);
  EXPECT_EQ(none.body.find("t0ken-value"), std::string::npos);
  HeaderList wrong = post_headers({}, {});
  wrong.emplace_back("Authorization", "Bearer t0ken-valuf");
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", wrong, init_body()).status, 401u);
  HeaderList right = post_headers({}, {});
  right.emplace_back("Authorization", "Bearer t0ken-value");
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", right, init_body()).status, 200u);
  EXPECT_EQ(http_request(server.port(), "GET", "/sse", {}).status, 401u);
  EXPECT_EQ(http_request(server.port(), "GET", "/healthz", {}).status, 200u);  // no token needed
}

TEST(Limits, ManySessionsAndRequestsKeepTheServerServing) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.sessions.max_in_memory = 5; });
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5; ++i) {
        const std::string sid = open_session(server.port());
        if (http_request(server.port(), "POST", "/mcp", post_headers(sid), call_body(2, "echo", R"({"text":"x"})"))
                .status == 200u)
          ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 20);
  EXPECT_EQ(http_request(server.port(), "GET", "/healthz", {}).status, 200u);
}

// Live sessions are capped (--max-sessions): idle ones make room, but when
// every live session is busy a new one is refused instead of growing past it.
TEST(Limits, NewSessionsAre503WhenEveryLiveSessionIsBusy) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.sessions.max_in_memory = 3; });
  const auto port = server.port();
  std::vector<std::thread> busy;
  for (int i = 0; i < 3; ++i) {
    busy.emplace_back([port, sid = open_session(port)] {
      http_request(port, "POST", "/mcp", post_headers(sid), call_body(9, "wait", R"({"ms":1500})"), 5000ms);
    });
  }
  for (int i = 0; i < 100 && server.http().calls_in_flight() < 3; ++i) std::this_thread::sleep_for(10ms);
  auto refused = http_request(port, "POST", "/mcp", post_headers({}, {}), init_body());
  EXPECT_EQ(refused.status, 503u) << refused.body;
  EXPECT_EQ(refused.header("retry-after"), "5");
  EXPECT_NE(refused.body.find("--max-sessions"), std::string::npos) << refused.body;
  EXPECT_LE(server.http().sessions_in_memory(), 3u);
  SseStream legacy(port, "GET", "/sse", {{"Accept", "text/event-stream"}});
  EXPECT_EQ(legacy.status(), 503u) << "legacy SSE sessions count too";
  for (auto& t : busy) t.join();
  // Idle again: a new session evicts the least recently used one.
  EXPECT_FALSE(open_session(port).empty());
  EXPECT_LE(server.http().sessions_in_memory(), 3u);
}

// Request bodies are charged to one budget across connections
// (--max-request-mb): slow uploads on other connections cannot make the
// server hold an unbounded amount of body bytes.
TEST(Limits, RequestBodiesInProgressShareOneBudget) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.listener.max_body_bytes = 1u << 20;
    o.listener.max_body_bytes_total = 1u << 20;
  });
  const auto port = server.port();
  const std::string sid = open_session(port);
  RawSocket slow(port);
  ASSERT_TRUE(slow.ok());
  ASSERT_TRUE(
      slow.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Content-Length: 900000\r\n\r\n[" +
                std::string(1000, ' ')));
  std::this_thread::sleep_for(200ms);  // its header is read and its body charged
  const std::string medium = call_body(2, "echo", R"({"text":")" + std::string(200000, 'm') + R"("})");
  auto refused = http_request(port, "POST", "/mcp", post_headers(sid), medium);
  EXPECT_EQ(refused.status, 503u) << refused.body.substr(0, 200);
  EXPECT_EQ(refused.header("retry-after"), "1");
  EXPECT_NE(refused.body.find("--max-request-mb"), std::string::npos) << refused.body.substr(0, 200);
  EXPECT_EQ(http_request(port, "POST", "/mcp", post_headers(sid), list_body(3)).status, 200u) << "small ones fit";
  slow.close();
  std::this_thread::sleep_for(200ms);  // the slow body's charge is given back
  EXPECT_EQ(http_request(port, "POST", "/mcp", post_headers(sid), medium).status, 200u);
}

}  // namespace
}  // namespace hamcp::test
