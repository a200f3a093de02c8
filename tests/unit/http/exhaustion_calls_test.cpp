// Weakness 2 of issue 8: fan-out. Calls in flight are counted per batch item,
// per session and overall, on Streamable HTTP and on legacy /messages alike; a
// batch that can never fit is refused saying the limit and the fix. A
// well-behaved client keeps its answers within 100 ms p99 meanwhile.
#include <gtest/gtest.h>

#include <array>
#include <thread>

#include "http_fixture.hpp"
#include "latency_probe.hpp"

namespace hamcp::test {
namespace {

using namespace std::chrono_literals;

std::string batch_of(int n, const std::string& tool, const std::string& args, int first_id = 1000) {
  std::string body = "[";
  for (int i = 0; i < n; ++i) {
    if (i) body += ",";
    body += call_body(first_id + i, tool, args);
  }
  return body + "]";
}

// Opens a legacy SSE session; returns its /messages target ("" on failure).
std::string legacy_endpoint(SseStream& stream) {
  auto ev = stream.next(3000ms);
  return ev && ev->event == "endpoint" ? ev->data : std::string();
}

TEST(CallExhaustion, BatchItemsCountAgainstTheCaps) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.max_requests_per_session = 16;
    o.max_requests_global = 64;
  });
  const auto port = server.port();
  const std::string a = open_session(port), b = open_session(port), good = open_session(port);
  LatencyProbe probe(
      [&] { return http_request(port, "POST", "/mcp", post_headers(good), list_body(1), 2000ms).status == 200u; });

  // A batch that can never fit: refused at once, naming the limit and the fix.
  auto huge = http_request(port, "POST", "/mcp", post_headers(a), batch_of(2000, "wait", R"({"ms":1500})"));
  EXPECT_EQ(huge.status, 413u);
  EXPECT_NE(huge.body.find("2000 calls"), std::string::npos) << huge.body;
  EXPECT_NE(huge.body.find("limit of 16"), std::string::npos) << huge.body;
  EXPECT_NE(huge.body.find("--max-calls-per-session"), std::string::npos) << huge.body;

  // Two sessions fill their caps with one batch each; a further call is 429.
  std::vector<std::thread> attackers;
  std::atomic<int> batches_ok{0};
  for (const auto* sid : {&a, &b}) {
    attackers.emplace_back([&, sid] {
      auto r = http_request(port, "POST", "/mcp", post_headers(*sid), batch_of(16, "wait", R"({"ms":1500})"), 10000ms);
      if (r.status == 200u) ++batches_ok;
    });
  }
  std::size_t max_in_flight = 0;
  for (int i = 0; i < 40; ++i) {  // ~400 ms of sampling
    max_in_flight = std::max(max_in_flight, server.http().calls_in_flight());
    std::this_thread::sleep_for(10ms);
  }
  auto more = http_request(port, "POST", "/mcp", post_headers(a), call_body(5, "wait", R"({"ms":10})"));
  EXPECT_EQ(more.status, 429u) << more.body;
  EXPECT_EQ(more.header("retry-after"), "1");
  for (auto& t : attackers) t.join();
  probe.stop();

  EXPECT_GE(max_in_flight, 32u) << "every batch item is a call in flight";
  EXPECT_LE(max_in_flight, 34u) << "two batches of 16 + the probe's call";
  EXPECT_EQ(batches_ok.load(), 2);
  EXPECT_EQ(server.http().calls_in_flight(), 0u);
  EXPECT_EQ(probe.failures(), 0u);
  EXPECT_LT(probe.p99_ms(), 100.0);
}

TEST(CallExhaustion, ABatchAboveTheGlobalRoomIs503) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.max_requests_per_session = 16;
    o.max_requests_global = 4;
  });
  const std::string sid = open_session(server.port());
  auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid), batch_of(5, "echo", R"({"text":"x"})"));
  EXPECT_EQ(r.status, 503u) << r.body;
  EXPECT_EQ(r.header("retry-after"), "1");
  EXPECT_EQ(
      http_request(server.port(), "POST", "/mcp", post_headers(sid), batch_of(4, "echo", R"({"text":"x"})")).status,
      200u);
}

TEST(CallExhaustion, LegacyMessagesHaveTheSameCaps) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.max_requests_per_session = 16;
    o.max_requests_global = 64;
  });
  const auto port = server.port();
  SseStream stream(port, "GET", "/sse", {{"Accept", "text/event-stream"}});
  const std::string endpoint = legacy_endpoint(stream);
  ASSERT_FALSE(endpoint.empty());
  const HeaderList json{{"Content-Type", "application/json"}};
  EXPECT_EQ(http_request(port, "POST", endpoint, json, init_body("2024-11-05")).status, 202u);
  EXPECT_EQ(http_request(port, "POST", endpoint, json, kInitialized).status, 202u);

  auto huge = http_request(port, "POST", endpoint, json, batch_of(20000, "wait", R"({"ms":1500})"));
  EXPECT_EQ(huge.status, 413u) << huge.body;
  EXPECT_NE(huge.body.find("limit of 16"), std::string::npos) << huge.body;
  EXPECT_EQ(http_request(port, "POST", endpoint, json, batch_of(16, "wait", R"({"ms":1500})")).status, 202u);
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(server.http().calls_in_flight(), 16u);
  auto more = http_request(port, "POST", endpoint, json, call_body(7, "wait", R"({"ms":10})"));
  EXPECT_EQ(more.status, 429u) << more.body;
  // The calls are given back once answered.
  for (int i = 0; i < 60 && server.http().calls_in_flight() != 0; ++i) std::this_thread::sleep_for(100ms);
  EXPECT_EQ(server.http().calls_in_flight(), 0u);
  EXPECT_EQ(http_request(port, "POST", endpoint, json, call_body(8, "echo", R"({"text":"x"})")).status, 202u);
}

}  // namespace
}  // namespace hamcp::test

namespace hamcp::test {
namespace {

// Gap found by the lifecycle stress: a flood spread over many sessions filled
// the global cap and 15 % of a light session's probes were refused (503).
TEST(CallExhaustion, BusySessionsCannotTakeTheSlotsReservedForLightSessions) {
  mcp::http::CallBudget budget(64, 16);
  std::array<std::atomic<std::size_t>, 8> heavy{};
  std::size_t refused = 0;
  for (auto& session : heavy)
    if (budget.take(session, 16) != mcp::http::CallBudget::Verdict::admitted) ++refused;
  EXPECT_GT(refused, 0u) << "the flood reached the global cap";
  EXPECT_LE(budget.in_flight(), 64u - budget.reserved_for_light_sessions());
  std::atomic<std::size_t> light{0};
  EXPECT_EQ(budget.take(light, 1), mcp::http::CallBudget::Verdict::admitted) << "an idle session gets a call in";
  EXPECT_EQ(budget.take(light, 3), mcp::http::CallBudget::Verdict::admitted) << "up to kLightCalls in flight";
  budget.give_back(light, 4);
  for (auto& session : heavy)
    if (session.load() > 0) budget.give_back(session, session.load());
  EXPECT_EQ(budget.in_flight(), 0u);
}

TEST(CallExhaustion, ALightSessionIsServedWhileManySessionsFloodTheGlobalCap) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.max_requests_per_session = 16;
    o.max_requests_global = 64;
  });
  const auto port = server.port();
  std::vector<std::string> flooders;
  for (int s = 0; s < 5; ++s) flooders.push_back(open_session(port));
  const std::string light = open_session(port);
  std::vector<std::thread> attackers;
  for (const auto& sid : flooders)
    attackers.emplace_back([&, sid] {
      http_request(port, "POST", "/mcp", post_headers(sid), batch_of(16, "wait", R"({"ms":1500})"), 10000ms);
    });
  for (int i = 0; i < 100 && server.http().calls_in_flight() < 48; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_GE(server.http().calls_in_flight(), 48u) << "the flood is in flight";
  auto r = http_request(port, "POST", "/mcp", post_headers(light), call_body(7, "echo", R"({"text":"light"})"), 5000ms);
  EXPECT_EQ(r.status, 200u) << r.body;
  EXPECT_NE(r.body.find("light"), std::string::npos) << r.body;
  for (auto& t : attackers) t.join();
}

}  // namespace
}  // namespace hamcp::test
