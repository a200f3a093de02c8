// Limits and protections: body size, timeouts, concurrency caps, bearer
// tokens. The server answers with a status code and keeps serving.
#include <gtest/gtest.h>

#include <thread>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

using Clock = std::chrono::steady_clock;

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
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.listener.header_timeout = std::chrono::milliseconds(300);
  });
  HttpConnection c(server.port());
  const auto start = Clock::now();
  c.raw_exchange("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", std::chrono::milliseconds(3000));
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(2500));  // closed by the server, not our timeout
}

TEST(Limits, TooManyRequestsOnOneSessionIs429WithRetryAfter) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.max_requests_per_session = 2; });
  const std::string sid = open_session(server.port());
  std::vector<std::thread> slow;
  std::atomic<int> ok{0};
  for (int i = 0; i < 2; ++i) {
    slow.emplace_back([&, i] {
      auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid), call_body(10 + i, "wait", R"({"ms":1500})"));
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
  std::thread slow([&] {
    http_request(server.port(), "POST", "/mcp", post_headers(a), call_body(10, "wait", R"({"ms":1200})"));
  });
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
      auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid), call_body(100 + i, "wait", R"({"ms":500})"));
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
      if (http_request(server.port(), "POST", "/mcp", post_headers(sid, "2025-03-26"), list_body(30 + i)).status == 200u) ++ok;
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
        if (http_request(server.port(), "POST", "/mcp", post_headers(sid), call_body(2, "echo", R"({"text":"x"})")).status == 200u) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 20);
  EXPECT_EQ(http_request(server.port(), "GET", "/healthz", {}).status, 200u);
}

}  // namespace
}  // namespace hamcp::test
