// Streamable HTTP status codes and message handling, one behaviour per test.
#include <gtest/gtest.h>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

class StreamableHttp : public ::testing::Test {
 protected:
  TempDir dir;
  TestHttpServer server{dir.path()};
  std::uint16_t port() { return server.port(); }
};

TEST_F(StreamableHttp, InitializeReturnsJsonAndASessionId) {
  auto r = http_request(port(), "POST", "/mcp", post_headers({}, {}), init_body());
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  const std::string sid = r.header("mcp-session-id");
  ASSERT_FALSE(sid.empty());
  for (char c : sid) EXPECT_TRUE(c >= 0x21 && c <= 0x7e);
  auto body = parse_object(r.body);
  EXPECT_EQ(body.at("id"), 1);
  EXPECT_EQ(body.at("result").at("protocolVersion"), "2025-11-25");
}

TEST_F(StreamableHttp, RequestGetsALoneJsonResponse) {
  const std::string sid = open_session(port());
  auto r = http_request(port(), "POST", "/mcp", post_headers(sid), call_body(2, "echo", R"({"text":"hi"})"));
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  auto body = parse_object(r.body);
  EXPECT_EQ(body.at("id"), 2);
  EXPECT_EQ(body.at("result").at("content").at(0).at("text"), "hi");
}

TEST_F(StreamableHttp, NotificationsAndResponsesGet202) {
  const std::string sid = open_session(port());
  auto r = http_request(port(), "POST", "/mcp", post_headers(sid),
                        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}})");
  EXPECT_EQ(r.status, 202u);
  EXPECT_TRUE(r.body.empty());
  auto resp = http_request(port(), "POST", "/mcp", post_headers(sid), R"({"jsonrpc":"2.0","id":12345,"result":{}})");
  EXPECT_EQ(resp.status, 202u);
}

TEST_F(StreamableHttp, MissingSessionIdIs400) {
  auto r = http_request(port(), "POST", "/mcp", post_headers(), list_body(2));
  EXPECT_EQ(r.status, 400u);
  EXPECT_NE(r.body.find("Mcp-Session-Id"), std::string::npos);
}

TEST_F(StreamableHttp, ForgedOrMalformedSessionIdIs404SessionNotFound) {
  for (const std::string& bad : std::vector<std::string>{"forged", "AAAA.BBBB", "x.y.z", std::string(600, 'q')}) {
    auto r = http_request(port(), "POST", "/mcp", post_headers(bad), list_body(2));
    EXPECT_EQ(r.status, 404u) << bad;
    auto body = parse_object(r.body);
    EXPECT_EQ(body.at("error").at("code"), -32001);
    EXPECT_EQ(body.at("error").at("message"), "Session not found");
    EXPECT_TRUE(body.at("id").is_null());
    EXPECT_EQ(body.at("jsonrpc"), "2.0");
  }
  // A token signed with another key (another data dir) is a forgery here.
  TempDir other_dir;
  TestHttpServer other(other_dir.path());
  const std::string foreign = open_session(other.port());
  EXPECT_EQ(http_request(port(), "POST", "/mcp", post_headers(foreign), list_body(2)).status, 404u);
}

TEST_F(StreamableHttp, WrongContentTypeIs415) {
  const std::string sid = open_session(port());
  HeaderList h = post_headers(sid);
  h[0].second = "text/plain";
  EXPECT_EQ(http_request(port(), "POST", "/mcp", h, list_body(2)).status, 415u);
  h.erase(h.begin());
  EXPECT_EQ(http_request(port(), "POST", "/mcp", h, list_body(2)).status, 415u);
  // Parameters are fine.
  HeaderList ok = post_headers(sid);
  ok[0].second = "application/json; charset=utf-8";
  EXPECT_EQ(http_request(port(), "POST", "/mcp", ok, list_body(2)).status, 200u);
  // Media types are case-insensitive (RFC 9110), in Content-Type and in Accept.
  ok[0].second = " Application/JSON ;charset=UTF-8";
  ok[1].second = "APPLICATION/json, Text/Event-Stream";
  EXPECT_EQ(http_request(port(), "POST", "/mcp", ok, list_body(3)).status, 200u);
  ok[0].second = "application/jsonx";
  EXPECT_EQ(http_request(port(), "POST", "/mcp", ok, list_body(4)).status, 415u);
}

TEST_F(StreamableHttp, UnacceptableAcceptIs406) {
  const std::string sid = open_session(port());
  HeaderList h = post_headers(sid);
  h[1].second = "text/html";
  auto r = http_request(port(), "POST", "/mcp", h, list_body(2));
  EXPECT_EQ(r.status, 406u);
  HeaderList get{{"Accept", "application/json"}, {"Mcp-Session-Id", sid}};
  EXPECT_EQ(http_request(port(), "GET", "/mcp", get).status, 406u);
}

TEST_F(StreamableHttp, InvalidJsonIs400ParseError) {
  const std::string sid = open_session(port());
  auto r = http_request(port(), "POST", "/mcp", post_headers(sid), "{not json");
  EXPECT_EQ(r.status, 400u);
  EXPECT_EQ(parse_object(r.body).at("error").at("code"), -32700);
  // A body cut off inside a string, and one with text after the message: both refused, and
  // the next good request is parsed afresh (the parser is reused between requests).
  EXPECT_EQ(
      http_request(port(), "POST", "/mcp", post_headers(sid), R"({"jsonrpc":"2.0","id":1,"method":"tools/li)").status,
      400u);
  EXPECT_EQ(http_request(port(), "POST", "/mcp", post_headers(sid), list_body(5) + " {}").status, 400u);
  auto good = http_request(port(), "POST", "/mcp", post_headers(sid), list_body(6));
  EXPECT_EQ(good.status, 200u);
  EXPECT_EQ(parse_object(good.body).at("id"), 6);
  auto e = http_request(port(), "POST", "/mcp", post_headers(sid), "[]");
  EXPECT_EQ(e.status, 400u);
  EXPECT_EQ(parse_object(e.body).at("error").at("code"), -32600);
}

TEST_F(StreamableHttp, ProtocolVersionHeader) {
  const std::string sid = open_session(port());
  // Absent: assumed 2025-03-26, accepted.
  EXPECT_EQ(http_request(port(), "POST", "/mcp", post_headers(sid, ""), list_body(2)).status, 200u);
  // Any supported version is accepted, not only the negotiated one.
  EXPECT_EQ(http_request(port(), "POST", "/mcp", post_headers(sid, "2025-03-26"), list_body(3)).status, 200u);
  EXPECT_EQ(http_request(port(), "POST", "/mcp", post_headers(sid, "2025-06-18"), list_body(4)).status, 200u);
  auto bad = http_request(port(), "POST", "/mcp", post_headers(sid, "1999-01-01"), list_body(5));
  EXPECT_EQ(bad.status, 400u);
  EXPECT_NE(bad.body.find("2025-11-25"), std::string::npos);  // names the supported versions
}

TEST_F(StreamableHttp, SecondInitializeOnALiveSessionIs400InvalidRequest) {
  const std::string sid = open_session(port());
  auto r = http_request(port(), "POST", "/mcp", post_headers(sid), init_body());
  EXPECT_EQ(r.status, 400u);
  EXPECT_EQ(parse_object(r.body).at("error").at("code"), -32600);
}

TEST_F(StreamableHttp, InitializeWithAStaleIdGetsANewSession) {
  for (const std::string& stale : std::vector<std::string>{"stale-id-from-another-life", "AAAA.BBBB"}) {
    auto r = http_request(port(), "POST", "/mcp", post_headers(stale, {}), init_body());
    ASSERT_EQ(r.status, 200u) << r.body;
    const std::string sid = r.header("mcp-session-id");
    EXPECT_FALSE(sid.empty());
    EXPECT_NE(sid, stale);
    EXPECT_EQ(http_request(port(), "POST", "/mcp", post_headers(sid), list_body(2)).status, 200u);
  }
}

TEST_F(StreamableHttp, DeleteEndsTheSessionThen404) {
  const std::string sid = open_session(port());
  HeaderList h{{"Mcp-Session-Id", sid}};
  EXPECT_EQ(http_request(port(), "DELETE", "/mcp", h).status, 200u);
  EXPECT_EQ(http_request(port(), "POST", "/mcp", post_headers(sid), list_body(2)).status, 404u);
  EXPECT_EQ(http_request(port(), "DELETE", "/mcp", h).status, 404u);
  EXPECT_EQ(http_request(port(), "DELETE", "/mcp", {}).status, 400u);
  // And the revoked id on initialize is stale: a new session, not an error.
  auto r = http_request(port(), "POST", "/mcp", post_headers(sid, {}), init_body());
  EXPECT_EQ(r.status, 200u);
}

TEST_F(StreamableHttp, OtherMethodsAre405WithAllow) {
  auto r = http_request(port(), "PUT", "/mcp", {});
  EXPECT_EQ(r.status, 405u);
  EXPECT_NE(r.header("allow").find("POST"), std::string::npos);
}

TEST_F(StreamableHttp, ForeignHostOrOriginIs403) {
  // The conformance suite's dns-rebinding-protection scenario.
  HeaderList evil = post_headers({}, {});
  evil.emplace_back("Host", "evil.example.com");
  evil.emplace_back("Origin", "http://evil.example.com");
  EXPECT_EQ(http_request(port(), "POST", "/mcp", evil, init_body()).status, 403u);
  HeaderList evil_origin = post_headers({}, {});
  evil_origin.emplace_back("Origin", "http://evil.example.com");
  EXPECT_EQ(http_request(port(), "POST", "/mcp", evil_origin, init_body()).status, 403u);
  HeaderList evil_host = post_headers({}, {});
  evil_host.emplace_back("Host", "evil.example.com:" + std::to_string(port()));
  EXPECT_EQ(http_request(port(), "POST", "/mcp", evil_host, init_body()).status, 403u);
  HeaderList real = post_headers({}, {});
  real.emplace_back("Host", "localhost:" + std::to_string(port()));
  real.emplace_back("Origin", "http://localhost:" + std::to_string(port()));
  EXPECT_EQ(http_request(port(), "POST", "/mcp", real, init_body()).status, 200u);
}

TEST_F(StreamableHttp, BatchesAreAccepted) {
  const std::string sid = open_session(port());
  auto r = http_request(port(), "POST", "/mcp", post_headers(sid),
                        "[" + list_body(7) + "," + call_body(8, "echo", R"({"text":"b"})") + "]");
  ASSERT_EQ(r.status, 200u) << r.body;
  boost::system::error_code ec;
  auto v = json::parse(r.body, ec);
  ASSERT_FALSE(ec);
  ASSERT_TRUE(v.is_array());
  EXPECT_EQ(v.as_array().size(), 2u);
}

TEST_F(StreamableHttp, UnknownPathIs404ButHealthzIs200) {
  EXPECT_EQ(http_request(port(), "GET", "/nope", {}).status, 404u);
  auto h = http_request(port(), "GET", "/healthz", {{"Host", "evil.example.com"}});
  ASSERT_EQ(h.status, 200u);
  EXPECT_EQ(parse_object(h.body).at("status"), "ok");
}

TEST_F(StreamableHttp, KeepAliveServesManyRequestsOnOneConnection) {
  const std::string sid = open_session(port());
  HttpConnection c(port());
  for (int i = 0; i < 20; ++i) {
    auto r = c.request("POST", "/mcp", post_headers(sid), list_body(100 + i));
    ASSERT_EQ(r.status, 200u);
  }
  EXPECT_TRUE(c.is_open());
}

}  // namespace
}  // namespace hamcp::test
