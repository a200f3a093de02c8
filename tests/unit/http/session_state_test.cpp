// A session rebuilt from its signed id (after a restart or an idle eviction)
// keeps what its client chose after initialize: the logging level and its
// resource subscriptions (session_state_store.hpp).
#include <gtest/gtest.h>

#include <fstream>

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

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

json::array subscriptions_of(const json::object& state) { return state.at("subscriptions").as_array(); }

TEST(SessionStateStore, AChangeIsOneAppendedLineAndALoadReplaysThem) {
  TempDir dir;
  const auto sub = dir.path() / "s";
  {
    mcp::http::SessionStateStore store(sub, {});
    EXPECT_FALSE(store.append("aa", json::object{{"subscribe", "x://1"}}));  // nothing saved yet: save whole
    ASSERT_TRUE(store.save("aa", json::object{{"logLevel", "info"}, {"subscriptions", json::array{"x://1"}}}));
    EXPECT_TRUE(store.append("aa", json::object{{"subscribe", "x://2"}}));
    EXPECT_TRUE(store.append("aa", json::object{{"unsubscribe", "x://1"}}));
    EXPECT_TRUE(store.append("aa", json::object{{"logLevel", "debug"}}));
    EXPECT_EQ(lines_of(sub / "aa.json").size(), 4u);  // appended, not rewritten
    auto state = store.load("aa");
    ASSERT_TRUE(state);
    EXPECT_EQ(state->at("logLevel"), "debug");
    EXPECT_EQ(subscriptions_of(*state), (json::array{"x://2"}));
  }
  // A new process (after a SIGKILL: nothing was flushed on the way out) reads the same.
  mcp::http::SessionStateStore reopened(sub, {});
  auto state = reopened.load("aa");
  ASSERT_TRUE(state);
  EXPECT_EQ(state->at("logLevel"), "debug");
  EXPECT_EQ(subscriptions_of(*state), (json::array{"x://2"}));
  // It did not write this record: its first change rewrites it whole.
  EXPECT_FALSE(reopened.append("aa", json::object{{"subscribe", "x://3"}}));
}

TEST(SessionStateStore, AfterMaxAppendedLinesTheNextChangeAsksForACompaction) {
  TempDir dir;
  mcp::http::SessionStateStore store(dir.path() / "s", {});
  ASSERT_TRUE(store.save("aa", json::object{{"logLevel", "info"}, {"subscriptions", json::array{}}}));
  for (std::size_t i = 0; i < mcp::http::SessionStateStore::kMaxAppended; ++i)
    ASSERT_TRUE(store.append("aa", json::object{{"subscribe", "x://" + std::to_string(i)}})) << i;
  EXPECT_FALSE(store.append("aa", json::object{{"subscribe", "x://last"}}));
  auto state = store.load("aa");
  ASSERT_TRUE(state);
  EXPECT_EQ(subscriptions_of(*state).size(), mcp::http::SessionStateStore::kMaxAppended);
  ASSERT_TRUE(store.save("aa", *state));  // the compaction: one line again
  EXPECT_EQ(lines_of(dir.path() / "s" / "aa.json").size(), 1u);
  EXPECT_TRUE(store.append("aa", json::object{{"subscribe", "x://last"}}));
}

TEST(SessionStateStore, AnAppendPastTheSizeLimitAsksForTheWholeState) {
  TempDir dir;
  mcp::http::SessionStateStore::Limits limits;
  limits.max_record_bytes = 80;
  mcp::http::SessionStateStore store(dir.path() / "s", limits);
  ASSERT_TRUE(store.save("aa", json::object{{"logLevel", "info"}}));
  EXPECT_FALSE(store.append("aa", json::object{{"subscribe", std::string(80, 'u')}}));
}

TEST(SessionStateStore, ATornLastLineIsIgnored) {
  TempDir dir;
  mcp::http::SessionStateStore store(dir.path() / "s", {});
  ASSERT_TRUE(store.save("aa", json::object{{"logLevel", "info"}, {"subscriptions", json::array{"x://1"}}}));
  ASSERT_TRUE(store.append("aa", json::object{{"subscribe", "x://2"}}));
  {
    std::ofstream out(dir.path() / "s" / "aa.json", std::ios::app);
    out << R"({"subscribe":"x://)";  // a write cut short
  }
  auto state = store.load("aa");
  ASSERT_TRUE(state);
  EXPECT_EQ(subscriptions_of(*state), (json::array{"x://1", "x://2"}));
}

TEST(SessionStateStore, ARecordInTheOldOneObjectFormStillLoads) {
  TempDir dir;
  mcp::http::SessionStateStore store(dir.path() / "s", {});
  {
    std::ofstream out(dir.path() / "s" / "aa.json");
    out << R"({"logLevel":"warning","subscriptions":["x://1"]})";  // no newline
  }
  auto state = store.load("aa");
  ASSERT_TRUE(state);
  EXPECT_EQ(state->at("logLevel"), "warning");
  EXPECT_EQ(subscriptions_of(*state), (json::array{"x://1"}));
}

}  // namespace
}  // namespace hamcp::test
