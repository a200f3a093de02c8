// Weakness 4 of issue 8: retained responses. Finished streams kept for
// resumption and buffered events are charged to a per-session and a global
// budget: the oldest finished streams are evicted, the accounted bytes never
// exceed the budget (while the sessions live), an answer above the per-message
// limit becomes a clear error, and a well-behaved client keeps its answers.
#include <gtest/gtest.h>

#include <thread>

#include "http_fixture.hpp"
#include "latency_probe.hpp"
#include "mcp/http/buffer_budget.hpp"

namespace hamcp::test {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kSessionBudget = 1u << 20;  // 1 MiB
constexpr std::size_t kGlobalBudget = 3u << 20;   // 3 MiB
constexpr std::size_t kPerMessage = 512u << 10;   // 512 KiB

void small_budgets(mcp::http::HttpServerOptions& o) {
  o.max_session_buffered_bytes = kSessionBudget;
  o.max_buffered_bytes = kGlobalBudget;
  o.replay.bytes_per_stream = kPerMessage;
}

TEST(MemoryExhaustion, RetainedResponsesStayWithinTheBudgetWhileSessionsLive) {
  TempDir dir;
  TestHttpServer server(dir.path(), small_budgets);
  const auto port = server.port();
  const std::string good = open_session(port);
  LatencyProbe probe(
      [&] { return http_request(port, "POST", "/mcp", post_headers(good), list_body(1), 2000ms).status == 200u; });

  // 8 sessions x 16 answers of 200 KB: 25 MB if every finished stream were kept.
  const std::string big = call_body(2, "echo", R"({"text":")" + std::string(200000, 'x') + R"("})");
  std::vector<std::string> sessions;
  for (int s = 0; s < 8; ++s) sessions.push_back(open_session(port));
  std::atomic<int> answered{0};
  std::atomic<std::size_t> max_buffered{0};
  std::vector<std::thread> attackers;
  for (const auto& sid : sessions) {
    attackers.emplace_back([&, sid] {
      for (int i = 0; i < 16; ++i) {
        auto r = http_request(port, "POST", "/mcp", post_headers(sid), big, 5000ms);
        if (r.status == 200u && r.body.size() > 200000) ++answered;
        std::size_t seen = server.http().buffered_bytes(), prev = max_buffered.load();
        while (seen > prev && !max_buffered.compare_exchange_weak(prev, seen)) {
        }
      }
    });
  }
  for (auto& t : attackers) t.join();
  probe.stop();

  EXPECT_EQ(answered.load(), 8 * 16) << "every answer was delivered";
  EXPECT_LE(max_buffered.load(), kGlobalBudget);
  EXPECT_LE(server.http().buffered_bytes(), kGlobalBudget) << "memory is freed while the sessions live";
  EXPECT_GE(server.http().sessions_in_memory(), 9u);
  EXPECT_EQ(probe.failures(), 0u);
  EXPECT_LT(probe.p99_ms(), 100.0);
}

TEST(MemoryExhaustion, AnAnswerAboveTheMessageLimitBecomesAClearError) {
  TempDir dir;
  TestHttpServer server(dir.path(), small_budgets);
  const std::string sid = open_session(server.port());
  const std::string huge = call_body(3, "echo", R"({"text":")" + std::string(600000, 'y') + R"("})");
  auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid), huge);
  ASSERT_EQ(r.status, 200u);
  auto answer = parse_object(r.body);
  EXPECT_EQ(answer.at("id"), 3);
  ASSERT_TRUE(answer.contains("error")) << r.body.substr(0, 200);
  const std::string message(answer.at("error").at("message").as_string());
  EXPECT_NE(message.find("Response too large"), std::string::npos) << message;
  EXPECT_NE(message.find(std::to_string(kPerMessage)), std::string::npos) << message;
  EXPECT_LT(server.http().buffered_bytes(), 4096u) << "the large answer is not kept";
  // The session keeps serving.
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(4)).status, 200u);
}

TEST(MemoryExhaustion, AccountEvictsOldestFinishedStreamsFirst) {
  const json::value payload = json::parse(R"({"jsonrpc":"2.0","id":1,"result":")" + std::string(180, 'z') + R"("})");
  const std::size_t size = mcp::to_wire(payload).size();
  auto global = std::make_shared<mcp::http::BufferAccount>(10 * size);
  auto account = std::make_shared<mcp::http::BufferAccount>(3 * size + size / 2, global);
  auto stream = [&](std::uint64_t n) { return std::make_shared<mcp::http::EventStream>(n, 100, 10 * size, account); };
  auto old_stream = stream(1), new_stream = stream(2), live_stream = stream(3);
  old_stream->push(payload);
  old_stream->finish();
  new_stream->push(payload);
  new_stream->finish();
  live_stream->push(payload);
  EXPECT_EQ(account->used(), 3 * size);
  live_stream->push(payload);  // no room: the oldest finished stream goes first
  EXPECT_TRUE(old_stream->evicted());
  EXPECT_FALSE(new_stream->evicted());
  EXPECT_EQ(account->used(), 3 * size);
  EXPECT_EQ(global->used(), account->used());
  live_stream->push(payload);  // evicts the other finished stream
  EXPECT_TRUE(new_stream->evicted());
  live_stream->push(payload);  // nothing evictable is left: refused, an error instead
  EXPECT_LE(account->used(), 3 * size + 300);
  auto batch = live_stream->read_after(0);
  ASSERT_EQ(batch.events.size(), 4u);
  EXPECT_NE(batch.events.back().data.find("Server busy"), std::string::npos) << batch.events.back().data;
  EXPECT_NE(batch.events.back().data.find("\"id\":1"), std::string::npos) << "the error answers the same id";
  live_stream.reset();
  EXPECT_EQ(global->used(), 0u) << "a dropped stream gives its bytes back";
}

}  // namespace
}  // namespace hamcp::test
