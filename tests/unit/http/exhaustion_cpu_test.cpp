// Issue 8, the CPU side of weakness 4: one session floods heavy tool calls
// (batches of 64, each call a few milliseconds of synchronous work, as a full
// ha_get_overview is) while a well-behaved session on another connection asks
// tools/list and makes a light tool call. Tool work takes fair turns
// (mcp/call_scheduler.hpp), so the well-behaved session waits for about one
// call's work per busy session, not for every queued batch.
// Margins are wide on purpose (CI may run loaded): the unfair server queued
// 3 x 64 x 2 ms = 384 ms of work in front of each probe.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "http_fixture.hpp"
#include "latency_probe.hpp"

namespace hamcp::test {
namespace {

using namespace std::chrono_literals;

// A handler that keeps the server's thread busy for `ms` (at most 20) without
// suspending: the shape of a heavy tool that reads an in-memory snapshot.
void add_burn_tool(TestHttpServer& server) {
  std::promise<void> added;
  server.on_server([&added](mcp::Server& s) {
    json::object schema = json::parse(R"({"type":"object","properties":{"ms":{"type":"integer"}}})").as_object();
    s.registry().add_tool(
        fixture_tool("burn", "Busy for ms milliseconds", schema,
                     [](json::object args, mcp::RequestContext&) -> mcp::asio::awaitable<mcp::ToolResult> {
                       std::int64_t ms = 1;
                       if (auto* v = args.if_contains("ms"); v && v->is_int64())
                         ms = std::clamp<std::int64_t>(v->as_int64(), 0, 20);
                       const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
                       std::uint64_t spins = 0;
                       while (std::chrono::steady_clock::now() < until && spins < 1'000'000'000) ++spins;
                       co_return mcp::ToolResult::text(std::to_string(spins));
                     }));
    added.set_value();
  });
  added.get_future().wait();
}

std::string burn_batch(int n, int ms) {
  std::string body = "[";
  for (int i = 0; i < n; ++i) {
    if (i) body += ",";
    body += call_body(100 + i, "burn", R"({"ms":)" + std::to_string(ms) + "}");
  }
  return body + "]";
}

TEST(CpuExhaustion, HeavyBatchesOfOtherSessionsDoNotDelayAWellBehavedSession) {
  TempDir dir;
  TestHttpServer server(dir.path());
  add_burn_tool(server);
  const auto port = server.port();
  const std::string good = open_session(port);

  std::atomic<bool> stop{false};
  std::atomic<int> batches{0};
  std::vector<std::thread> attackers;
  for (int s = 0; s < 3; ++s) {
    attackers.emplace_back([&, sid = open_session(port)] {
      const std::string body = burn_batch(64, 2);
      const auto deadline = std::chrono::steady_clock::now() + 20s;
      for (int i = 0; i < 50 && !stop && std::chrono::steady_clock::now() < deadline; ++i)
        if (http_request(port, "POST", "/mcp", post_headers(sid), body, 30000ms).status == 200u) ++batches;
    });
  }
  std::this_thread::sleep_for(200ms);  // the flood is under way
  int n = 0;
  LatencyProbe listing(
      [&] { return http_request(port, "POST", "/mcp", post_headers(good), list_body(++n), 5000ms).status == 200u; });
  std::this_thread::sleep_for(1500ms);
  listing.stop();
  LatencyProbe calling([&] {
    auto r = http_request(port, "POST", "/mcp", post_headers(good), call_body(++n, "echo", R"({"text":"hi"})"), 5000ms);
    return r.status == 200u && r.body.find("hi") != std::string::npos;
  });
  std::this_thread::sleep_for(1500ms);
  calling.stop();
  stop = true;
  for (auto& t : attackers) t.join();

  std::printf("flood: %d batches; tools/list p99 %.1f ms (%zu); echo p99 %.1f ms (%zu)\n", batches.load(),
              listing.p99_ms(), listing.samples(), calling.p99_ms(), calling.samples());
  EXPECT_GE(batches.load(), 3) << "the flood ran";
  EXPECT_GE(listing.samples(), 10u);
  EXPECT_EQ(listing.failures(), 0u);
  EXPECT_LT(listing.p99_ms(), 100.0) << "tools/list waited behind other sessions' tool work";
  EXPECT_GE(calling.samples(), 10u);
  EXPECT_EQ(calling.failures(), 0u);
  EXPECT_LT(calling.p99_ms(), 100.0) << "a light call waited behind other sessions' queued calls";
}

}  // namespace
}  // namespace hamcp::test
