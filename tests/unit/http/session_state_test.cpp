// A session rebuilt from its signed id (after a restart or an idle eviction)
// keeps what its client chose after initialize: the logging level and its
// resource subscriptions (session_state_store.hpp).
#include <gtest/gtest.h>

#include "http_fixture.hpp"
#include "mcp/http/session_state_store.hpp"

namespace hamcp::test {
namespace {

constexpr const char* kWatched = "test://watched";

void add_watched_resource(mcp::Server& server) {
  mcp::Resource r;
  r.uri = kWatched;
  r.name = "watched";
  r.reader = [](std::string uri, mcp::RequestContext&) -> mcp::asio::awaitable<json::array> {
    json::array out;
    out.emplace_back(mcp::text_contents(uri, "x"));
    co_return out;
  };
  server.registry().add_resource(std::move(r));
}

std::string rpc(int id, const std::string& method, const std::string& params) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method + R"(","params":)" + params + "}";
}

void expect_ok(std::uint16_t port, const std::string& sid, const std::string& body) {
  auto r = http_request(port, "POST", "/mcp", post_headers(sid), body);
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_TRUE(parse_object(r.body).contains("result")) << r.body;
}

// The log notifications a "wait" call with two warning notes sends on its own stream.
int warnings_seen(std::uint16_t port, const std::string& sid) {
  SseStream post(port, "POST", "/mcp", post_headers(sid), call_body(7, "wait", R"({"ms":1,"notes":2})"));
  EXPECT_EQ(post.status(), 200u);
  const std::string body = post.body();
  EXPECT_NE(body.find("done"), std::string::npos) << body;
  int notes = 0;
  for (std::size_t at = body.find("notifications/message"); at != std::string::npos;
       at = body.find("notifications/message", at + 1))
    ++notes;
  return notes;
}

// Waits on the GET stream for a resources/updated of `uri`, poking the server until it comes.
bool update_arrives(TestHttpServer& server, SseStream& get, const std::string& uri) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    server.on_server([uri](mcp::Server& s) { s.notify_resource_updated(uri); });
    auto event = get.next(std::chrono::milliseconds(500));
    if (event && event->data.find("notifications/resources/updated") != std::string::npos)
      return event->data.find(uri) != std::string::npos;
  }
  return false;
}

TEST(SessionState, LogLevelAndSubscriptionsSurviveARestart) {
  TempDir dir;
  std::string sid;
  {
    TestHttpServer first(dir.path(), {}, add_watched_resource);
    sid = open_session(first.port());
    expect_ok(first.port(), sid, rpc(2, "logging/setLevel", R"({"level":"error"})"));
    expect_ok(first.port(), sid, rpc(3, "resources/subscribe", R"({"uri":"test://watched"})"));
    EXPECT_EQ(warnings_seen(first.port(), sid), 0);  // error level: warnings filtered before the restart
  }
  TestHttpServer second(dir.path(), {}, add_watched_resource);
  // Still filtered after the rebuild (the default level, info, would let both warnings through).
  EXPECT_EQ(warnings_seen(second.port(), sid), 0);
  SseStream get(second.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  ASSERT_EQ(get.status(), 200u);
  EXPECT_TRUE(update_arrives(second, get, kWatched));
}

TEST(SessionState, DebugLevelSurvivesAnIdleEviction) {
  TempDir dir;
  TestHttpServer server(
      dir.path(), [](mcp::http::HttpServerOptions& o) { o.sessions.max_in_memory = 1; }, add_watched_resource);
  const std::string sid = open_session(server.port());
  expect_ok(server.port(), sid, rpc(2, "resources/subscribe", R"({"uri":"test://watched"})"));
  expect_ok(server.port(), sid, rpc(3, "logging/setLevel", R"({"level":"warning"})"));
  // A second session pushes the first one's in-memory state out (cap 1).
  const std::string other = open_session(server.port());
  EXPECT_EQ(server.http().sessions_in_memory(), 1u);
  EXPECT_EQ(warnings_seen(server.port(), sid), 2);  // rebuilt: warning level, both notes pass
  SseStream get(server.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  ASSERT_EQ(get.status(), 200u);
  EXPECT_TRUE(update_arrives(server, get, kWatched));
}

TEST(SessionState, UnsubscribedUrisStayUnsubscribedAfterARestart) {
  TempDir dir;
  std::string sid;
  {
    TestHttpServer first(dir.path(), {}, add_watched_resource);
    sid = open_session(first.port());
    expect_ok(first.port(), sid, rpc(2, "resources/subscribe", R"({"uri":"test://watched"})"));
    expect_ok(first.port(), sid, rpc(3, "resources/unsubscribe", R"({"uri":"test://watched"})"));
  }
  TestHttpServer second(dir.path(), {}, add_watched_resource);
  SseStream get(second.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  ASSERT_EQ(get.status(), 200u);
  second.on_server([](mcp::Server& s) { s.notify_resource_updated(kWatched); });
  auto event = get.next(std::chrono::milliseconds(800));
  EXPECT_FALSE(event && event->data.find("resources/updated") != std::string::npos) << event->data;
}

TEST(SessionState, DeleteRemovesTheRecord) {
  TempDir dir;
  TestHttpServer server(dir.path(), {}, add_watched_resource);
  const std::string sid = open_session(server.port());
  expect_ok(server.port(), sid, rpc(2, "logging/setLevel", R"({"level":"debug"})"));
  const auto records = dir.path() / "session-state";
  auto count = [&] {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(records)) ++n;
    return n;
  };
  EXPECT_EQ(count(), 1u);
  EXPECT_EQ(http_request(server.port(), "DELETE", "/mcp", {{"Mcp-Session-Id", sid}}).status, 200u);
  EXPECT_EQ(count(), 0u);
}

TEST(SessionStateStore, BoundedInCountAndSizeAndRefusesForeignKeys) {
  TempDir dir;
  mcp::http::SessionStateStore::Limits limits;
  limits.max_records = 2;
  limits.max_record_bytes = 64;
  mcp::http::SessionStateStore store(dir.path() / "s", limits);
  json::object small{{"logLevel", "debug"}};
  EXPECT_TRUE(store.save("aa", small));
  EXPECT_TRUE(store.save("bb", small));
  EXPECT_FALSE(store.save("cc", small));  // a third record: over the count
  EXPECT_TRUE(store.save("aa", small));   // replacing one is fine
  json::object big{{"logLevel", std::string(100, 'x')}};
  EXPECT_FALSE(store.save("bb", big));
  EXPECT_FALSE(store.save("../x", small));
  EXPECT_EQ(store.size(), 2u);
  ASSERT_TRUE(store.load("aa"));
  EXPECT_EQ(store.load("aa")->at("logLevel"), "debug");
  store.remove("aa");
  EXPECT_FALSE(store.load("aa"));
  EXPECT_TRUE(store.save("cc", small));
}

TEST(SessionStateStore, RecordsOlderThanTheExpiryAreRemovedAtStart) {
  TempDir dir;
  const auto sub = dir.path() / "s";
  {
    mcp::http::SessionStateStore store(sub, {});
    ASSERT_TRUE(store.save("aa", json::object{{"logLevel", "debug"}}));
    ASSERT_TRUE(store.save("bb", json::object{{"logLevel", "debug"}}));
  }
  std::filesystem::last_write_time(sub / "aa.json",
                                   std::filesystem::file_time_type::clock::now() - std::chrono::hours(48));
  mcp::http::SessionStateStore::Limits limits;
  limits.max_age = std::chrono::hours(24);
  mcp::http::SessionStateStore reopened(sub, limits);
  EXPECT_FALSE(reopened.load("aa"));
  EXPECT_TRUE(reopened.load("bb"));
  EXPECT_EQ(reopened.size(), 1u);
}

}  // namespace
}  // namespace hamcp::test
