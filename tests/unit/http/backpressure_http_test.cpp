// A client that does not read its standalone GET stream (or has none open)
// must not grow hamcp's memory: once the stream's unwritten backlog passes
// EventStream::kCongestedEvents, resources/updated wait in the session,
// coalesced per uri, and reach the client when it reads again.
#include <gtest/gtest.h>

#include <future>
#include <map>

#include "http_fixture.hpp"
#include "mcp/http/event_stream.hpp"

namespace hamcp::test {
namespace {

constexpr int kUris = 100;  // more than kCongestedEvents: one round congests the stream
constexpr int kRounds = 50;

std::string uri_of(int i) { return "test://item/" + std::to_string(i); }

void add_resource(mcp::Server& server) {
  mcp::Resource r;
  r.uri = "test://item/0";
  r.name = "item";
  r.reader = [](std::string uri, mcp::RequestContext&) -> mcp::asio::awaitable<json::array> {
    json::array out;
    out.emplace_back(mcp::text_contents(uri, "x"));
    co_return out;
  };
  server.registry().add_resource(std::move(r));
}

// Returns once everything the server's executor had queued (and what that queued) has run.
void settle(TestHttpServer& server) {
  for (int i = 0; i < 2; ++i) {
    std::promise<void> done;
    server.on_server([&done](mcp::Server&) { done.set_value(); });
    done.get_future().wait();
  }
}

TEST(BackPressureHttp, UpdatesForAClientThatDoesNotReadAreCoalescedNotQueued) {
  TempDir dir;
  TestHttpServer server(dir.path(), {}, add_resource);
  const std::string sid = open_session(server.port());
  for (int i = 0; i < kUris; ++i) {
    auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid),
                          R"({"jsonrpc":"2.0","id":)" + std::to_string(10 + i) +
                              R"(,"method":"resources/subscribe","params":{"uri":")" + uri_of(i) + R"("}})");
    ASSERT_EQ(r.status, 200u) << r.body;
  }
  // 5,000 changes while nobody reads the stream.
  for (int round = 0; round < kRounds; ++round) {
    server.on_server([](mcp::Server& s) {
      for (int i = 0; i < kUris; ++i) s.notify_resource_updated(uri_of(i));
    });
    settle(server);
  }
  // The client reads at last: what was held comes, once per uri, no more.
  SseStream get(server.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  ASSERT_EQ(get.status(), 200u);
  std::map<std::string, int> seen;
  int total = 0;
  while (auto event = get.next(std::chrono::milliseconds(3000))) {
    if (event->data.find("notifications/resources/updated") == std::string::npos) continue;
    ++total;
    const auto at = event->data.find("test://item/");
    ASSERT_NE(at, std::string::npos) << event->data;
    ++seen[event->data.substr(at, event->data.find('"', at) - at)];
  }
  // The first round's notifications went to the stream; every later one was coalesced in the session.
  EXPECT_LE(total, 2 * kUris) << "updates piled up for a client that did not read";
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kUris));   // none lost
  for (const auto& [uri, n] : seen) EXPECT_EQ(n, 2) << uri;  // the first change, then the held latest
}

TEST(BackPressureHttp, AStreamIsCongestedUntilItsBacklogIsWritten) {
  mcp::http::EventStream stream(0, 512, 8u << 20);
  for (std::size_t i = 0; i < mcp::http::EventStream::kCongestedEvents; ++i)
    stream.push(json::object{{"jsonrpc", "2.0"}, {"method", "notifications/resources/updated"}});
  EXPECT_FALSE(stream.congested());
  stream.push(json::object{{"jsonrpc", "2.0"}, {"method", "notifications/resources/updated"}});
  EXPECT_TRUE(stream.congested());
  stream.note_written(10);
  EXPECT_FALSE(stream.congested());
  stream.note_written(5);  // an older cursor (a resumption) changes nothing
  EXPECT_FALSE(stream.congested());
}

}  // namespace
}  // namespace hamcp::test
