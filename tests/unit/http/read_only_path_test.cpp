// The read-only endpoint (<path>/readonly, issue 14): a session made there is
// read-only for its whole life, on any path, after a restart (the flag is in
// the signed id), and a read-write session is not let in there.
#include <gtest/gtest.h>

#include "http_fixture.hpp"
#include "mcp/http/session_registry.hpp"
#include "mcp/http/session_token.hpp"

namespace hamcp::test {
namespace {

json::object whoami_at(std::uint16_t port, const std::string& path, const std::string& sid) {
  auto r = http_request(port, "POST", path, post_headers(sid), call_body(50, "whoami", "{}"));
  EXPECT_EQ(r.status, 200u) << r.body;
  auto body = parse_object(r.body);
  if (!body.contains("result")) return {};
  return body.at("result").at("structuredContent").as_object();
}

TEST(ReadOnlyPath, SessionStaysReadOnlyOnEveryPathAndAfterARestart) {
  TempDir dir;
  std::string ro, rw;
  {
    TestHttpServer first(dir.path());
    ro = open_session(first.port(), "{}", "/mcp/readonly");
    rw = open_session(first.port());
    EXPECT_EQ(whoami_at(first.port(), "/mcp/readonly", ro).at("readOnly"), true);
    EXPECT_EQ(whoami_at(first.port(), "/mcp", ro).at("readOnly"), true);  // the id, not the path, decides
    EXPECT_EQ(whoami_at(first.port(), "/mcp", rw).at("readOnly"), false);
    auto mixed = http_request(first.port(), "POST", "/mcp/readonly", post_headers(rw), list_body(3));
    EXPECT_EQ(mixed.status, 400u) << mixed.body;
    EXPECT_NE(mixed.body.find("read-only endpoint"), std::string::npos) << mixed.body;
  }
  TestHttpServer second(dir.path());  // no memory of the session: rebuilt from its signed id
  EXPECT_EQ(whoami_at(second.port(), "/mcp", ro).at("readOnly"), true);
  EXPECT_EQ(whoami_at(second.port(), "/mcp", rw).at("readOnly"), false);
}

TEST(ReadOnlyPath, ReadOnlyListingLeavesOutToolsNotMarkedReadOnly) {
  TempDir dir;
  TestHttpServer server(dir.path());
  const std::string ro = open_session(server.port(), "{}", "/mcp/readonly");
  const std::string rw = open_session(server.port());
  auto count = [&](const std::string& sid) {
    auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(4));
    return parse_object(r.body).at("result").at("tools").as_array().size();
  };
  EXPECT_LT(count(ro), count(rw));
}

TEST(ReadOnlyPath, TheFlagIsNotAClientCapability) {
  const auto payload = mcp::http::make_session_payload("2025-11-25", mcp::http::kSessionReadOnly);
  const mcp::SessionInfo info = mcp::http::session_info_from(payload);
  EXPECT_TRUE(info.read_only);
  EXPECT_TRUE(info.client_capabilities.empty());
  EXPECT_EQ(mcp::http::capability_bits(json::parse(R"({"sampling":{},"roots":{}})").as_object()) &
                mcp::http::kSessionReadOnly,
            0);
}

}  // namespace
}  // namespace hamcp::test
