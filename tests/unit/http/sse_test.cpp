// SSE behaviour of Streamable HTTP (POST streams, the GET stream, resumption)
// and the legacy HTTP+SSE transport.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

std::string method_of(const SseEvent& ev) {
  boost::system::error_code ec;
  auto v = json::parse(ev.data, ec);
  if (ec || !v.is_object()) return {};
  auto* m = v.as_object().if_contains("method");
  return m && m->is_string() ? std::string(m->as_string()) : std::string();
}

bool is_response_to(const SseEvent& ev, int id) {
  boost::system::error_code ec;
  auto v = json::parse(ev.data, ec);
  return !ec && v.is_object() && v.as_object().contains("result") && v.as_object().at("id") == id;
}

class Sse : public ::testing::Test {
 protected:
  TempDir dir;
  TestHttpServer server{dir.path(),
                        [](mcp::http::HttpServerOptions& o) { o.sse_keepalive = std::chrono::milliseconds(200); }};
  std::uint16_t port() { return server.port(); }
};

TEST_F(Sse, NotificationsBeforeTheResponseSwitchToSse) {
  const std::string sid = open_session(port());
  SseStream s(port(), "POST", "/mcp", post_headers(sid), call_body(5, "wait", R"({"ms":20,"notes":3})"));
  ASSERT_EQ(s.status(), 200u);
  EXPECT_EQ(s.header("content-type"), "text/event-stream");
  auto priming = s.next();
  ASSERT_TRUE(priming);
  EXPECT_FALSE(priming->id.empty());
  EXPECT_TRUE(priming->data.empty());  // priming event: id, empty data
  std::set<std::string> ids{priming->id};
  int notes = 0;
  bool answered = false;
  while (auto ev = s.next()) {
    EXPECT_TRUE(ids.insert(ev->id).second) << "duplicate event id " << ev->id;
    if (method_of(*ev) == "notifications/message") ++notes;
    if (is_response_to(*ev, 5)) answered = true;
  }
  EXPECT_EQ(notes, 3);
  EXPECT_TRUE(answered);
  EXPECT_TRUE(s.ended());
}

TEST_F(Sse, NoPrimingEventForOlderProtocolVersions) {
  auto init = http_request(port(), "POST", "/mcp", post_headers({}, {}), init_body("2025-03-26"));
  const std::string sid = init.header("mcp-session-id");
  ASSERT_FALSE(sid.empty());
  SseStream s(port(), "POST", "/mcp", post_headers(sid, "2025-03-26"), call_body(5, "wait", R"({"ms":10,"notes":1})"));
  ASSERT_EQ(s.status(), 200u);
  auto first = s.next();
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->data.empty());
  EXPECT_EQ(method_of(*first), "notifications/message");
}

TEST_F(Sse, SilentLongRequestSwitchesToSseWithKeepAlives) {
  TempDir d;
  TestHttpServer slow(d.path(), [](mcp::http::HttpServerOptions& o) {
    o.sse_switch_after = std::chrono::milliseconds(100);
    o.sse_keepalive = std::chrono::milliseconds(100);
  });
  const std::string sid = open_session(slow.port());
  SseStream s(slow.port(), "POST", "/mcp", post_headers(sid), call_body(6, "wait", R"({"ms":700})"));
  ASSERT_EQ(s.status(), 200u);
  EXPECT_EQ(s.header("content-type"), "text/event-stream");
  bool answered = false;
  while (auto ev = s.next()) answered = answered || is_response_to(*ev, 6);
  EXPECT_TRUE(answered);
  EXPECT_GE(s.comments(), 1);
}

TEST_F(Sse, GetStreamCarriesServerInitiatedMessagesAndKeepAlives) {
  const std::string sid = open_session(port());
  SseStream get(port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  ASSERT_EQ(get.status(), 200u);
  EXPECT_EQ(get.header("content-type"), "text/event-stream");
  auto priming = get.next();
  ASSERT_TRUE(priming);
  server.on_server([](mcp::Server& s) { s.notify_tools_changed(); });
  auto ev = get.next();
  ASSERT_TRUE(ev);
  EXPECT_EQ(method_of(*ev), "notifications/tools/list_changed");
  EXPECT_FALSE(ev->id.empty());
  EXPECT_FALSE(get.next(std::chrono::milliseconds(500)));  // nothing else, only keep-alives
  EXPECT_GE(get.comments(), 1);
}

TEST_F(Sse, SecondGetStreamIs409UntilTheFirstCloses) {
  const std::string sid = open_session(port());
  HeaderList h{{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}};
  {
    SseStream first(port(), "GET", "/mcp", h);
    ASSERT_EQ(first.status(), 200u);
    auto second = http_request(port(), "GET", "/mcp", h);
    EXPECT_EQ(second.status, 409u);
    first.close();
  }
  // The server notices the closed connection at once: a reconnect is not refused.
  unsigned status = 0;
  for (int i = 0; i < 50 && status != 200u; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    SseStream again(port(), "GET", "/mcp", h);
    status = again.status();
  }
  EXPECT_EQ(status, 200u);
}

TEST_F(Sse, GetIs405WhenNoStreamIsOfferedNever404) {
  TempDir d;
  TestHttpServer no_get(d.path(), [](mcp::http::HttpServerOptions& o) { o.get_stream = false; });
  const std::string sid = open_session(no_get.port());
  auto r = http_request(no_get.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  EXPECT_EQ(r.status, 405u);
  EXPECT_TRUE(r.has_header("allow"));
}

TEST_F(Sse, GetWithoutOrWithABadSessionId) {
  EXPECT_EQ(http_request(port(), "GET", "/mcp", {{"Accept", "text/event-stream"}}).status, 400u);
  EXPECT_EQ(http_request(port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", "x"}}).status,
            404u);
}

TEST_F(Sse, ResumesAnInterruptedPostStreamWithLastEventId) {
  const std::string sid = open_session(port());
  std::string last_id;
  {
    SseStream s(port(), "POST", "/mcp", post_headers(sid), call_body(9, "wait", R"({"ms":150,"notes":4})"));
    ASSERT_EQ(s.status(), 200u);
    auto priming = s.next();
    ASSERT_TRUE(priming);
    auto first = s.next();
    ASSERT_TRUE(first);
    EXPECT_EQ(method_of(*first), "notifications/message");
    last_id = first->id;
    s.close();  // the connection drops mid-request: not a cancel
  }
  SseStream resumed(port(), "GET", "/mcp",
                    {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", last_id}});
  ASSERT_EQ(resumed.status(), 200u);
  int notes = 0;
  bool answered = false;
  std::set<std::string> ids;
  while (auto ev = resumed.next()) {
    if (ev->data.empty()) continue;  // priming
    EXPECT_NE(ev->id, last_id);      // nothing already received is replayed
    EXPECT_TRUE(ids.insert(ev->id).second);
    if (method_of(*ev) == "notifications/message") ++notes;
    if (is_response_to(*ev, 9)) answered = true;
  }
  EXPECT_EQ(notes, 3);  // the 3 notes after the first
  EXPECT_TRUE(answered);
  EXPECT_TRUE(resumed.ended());
}

TEST_F(Sse, ResumesTheGetStreamWithLastEventId) {
  const std::string sid = open_session(port());
  HeaderList h{{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}};
  std::string last_id;
  {
    SseStream get(port(), "GET", "/mcp", h);
    ASSERT_EQ(get.status(), 200u);
    ASSERT_TRUE(get.next());  // priming
    server.on_server([](mcp::Server& s) { s.notify_tools_changed(); });
    auto ev = get.next();
    ASSERT_TRUE(ev);
    last_id = ev->id;
    get.close();
  }
  // Sent while no stream is open: buffered for the session.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  server.on_server([](mcp::Server& s) { s.notify_prompts_changed(); });
  HeaderList resume = h;
  resume.emplace_back("Last-Event-ID", last_id);
  std::optional<SseEvent> ev;
  for (int i = 0; i < 50; ++i) {  // the first stream may take a moment to be noticed as closed
    SseStream again(port(), "GET", "/mcp", resume);
    if (again.status() == 409u) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    ASSERT_EQ(again.status(), 200u);
    while ((ev = again.next(std::chrono::milliseconds(1000))) && ev->data.empty()) {
    }
    break;
  }
  ASSERT_TRUE(ev);
  EXPECT_EQ(method_of(*ev), "notifications/prompts/list_changed");
}

TEST_F(Sse, LegacySseRoundTrip) {
  SseStream stream(port(), "GET", "/sse", {{"Accept", "text/event-stream"}});
  ASSERT_EQ(stream.status(), 200u);
  EXPECT_EQ(stream.header("content-type"), "text/event-stream");
  auto endpoint = stream.next();
  ASSERT_TRUE(endpoint);
  EXPECT_EQ(endpoint->event, "endpoint");
  ASSERT_EQ(endpoint->data.rfind("/messages?sessionId=", 0), 0u) << endpoint->data;
  const std::string post_to = endpoint->data;
  HeaderList h{{"Content-Type", "application/json"}};
  EXPECT_EQ(http_request(port(), "POST", post_to, h, init_body("2024-11-05")).status, 202u);
  auto init = stream.next();
  ASSERT_TRUE(init);
  EXPECT_EQ(init->event, "message");
  EXPECT_TRUE(is_response_to(*init, 1));
  EXPECT_EQ(http_request(port(), "POST", post_to, h, kInitialized).status, 202u);
  EXPECT_EQ(http_request(port(), "POST", post_to, h, call_body(2, "echo", R"({"text":"legacy"})")).status, 202u);
  auto reply = stream.next();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->event, "message");
  EXPECT_TRUE(is_response_to(*reply, 2));
  EXPECT_NE(reply->data.find("legacy"), std::string::npos);
}

TEST_F(Sse, LegacyPostErrors) {
  HeaderList h{{"Content-Type", "application/json"}};
  EXPECT_EQ(http_request(port(), "POST", "/messages?sessionId=nope", h, list_body(1)).status, 404u);
  EXPECT_EQ(http_request(port(), "POST", "/messages", h, list_body(1)).status, 400u);
  EXPECT_EQ(http_request(port(), "GET", "/sse", {{"Origin", "http://evil.example.com"}}).status, 403u);
  // The session ends with its stream.
  std::string post_to;
  {
    SseStream stream(port(), "GET", "/sse", {});
    auto endpoint = stream.next();
    ASSERT_TRUE(endpoint);
    post_to = endpoint->data;
    EXPECT_EQ(http_request(port(), "POST", post_to, h, init_body("2024-11-05")).status, 202u);
    stream.close();
  }
  unsigned status = 202;
  for (int i = 0; i < 50 && status != 404u; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    status = http_request(port(), "POST", post_to, h, list_body(3)).status;
  }
  EXPECT_EQ(status, 404u);
}

}  // namespace
}  // namespace hamcp::test

namespace hamcp::test {
namespace {

TEST_F(Sse, AcceptOnlyEventStreamGetsSseEvenForALoneResponse) {
  const std::string sid = open_session(port());
  HeaderList h = post_headers(sid);
  h[1].second = "text/event-stream";
  SseStream s(port(), "POST", "/mcp", h, list_body(4));
  ASSERT_EQ(s.status(), 200u);
  EXPECT_EQ(s.header("content-type"), "text/event-stream");
  bool answered = false;
  while (auto ev = s.next()) answered = answered || is_response_to(*ev, 4);
  EXPECT_TRUE(answered);
}

TEST_F(Sse, AcceptOnlyJsonGetsTheFinalResponseAsJson) {
  const std::string sid = open_session(port());
  HeaderList h = post_headers(sid);
  h[1].second = "application/json";
  auto r = http_request(port(), "POST", "/mcp", h, call_body(8, "wait", R"({"ms":10,"notes":2})"));
  ASSERT_EQ(r.status, 200u);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(parse_object(r.body).at("id"), 8);
}

TEST(SseShutdown, StopEndsStreamsAndLetsRequestsInProgressFinish) {
  TempDir dir;
  TestHttpServer server(dir.path());
  const std::string sid = open_session(server.port());
  SseStream get(server.port(), "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  ASSERT_EQ(get.status(), 200u);
  ASSERT_TRUE(get.next());  // priming
  HttpReply slow;
  std::thread request([&] {
    slow = http_request(server.port(), "POST", "/mcp", post_headers(sid), call_body(3, "wait", R"({"ms":300})"));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  server.http().stop(std::chrono::milliseconds(3000));
  EXPECT_FALSE(get.next(std::chrono::milliseconds(2000)));
  EXPECT_TRUE(get.ended());  // ended cleanly, not cut off
  request.join();
  EXPECT_EQ(slow.status, 200u);  // the request in progress finished within the grace period
  // No new connections are accepted.
  EXPECT_EQ(http_request(server.port(), "GET", "/healthz", {}, {}, std::chrono::milliseconds(1000)).status, 0u);
}

}  // namespace
}  // namespace hamcp::test
