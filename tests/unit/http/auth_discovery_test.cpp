// OAuth discovery in bearer mode: the well-known documents answer without a
// token (so clients such as mcp-remote learn there is no browser login to
// wait for) and every 401 points at the resource metadata.
#include "mcp/http/auth_discovery.hpp"

#include <gtest/gtest.h>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

json::object parse_object(const std::string& body) { return json::parse(body).as_object(); }

TEST(AuthDiscovery, BearerModeServesProtectedResourceMetadataWithoutToken) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.auth_token = "t0ken"; });
  const std::string base = "http://127.0.0.1:" + std::to_string(server.port());
  for (const std::string path :
       {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
    auto reply = http_request(server.port(), "GET", path, {});
    ASSERT_EQ(reply.status, 200u) << path << ": " << reply.body;
    auto doc = parse_object(reply.body);
    EXPECT_EQ(doc.at("resource").as_string(), base + "/mcp");
    EXPECT_EQ(doc.at("bearer_methods_supported").as_array().at(0), "header");
    EXPECT_FALSE(doc.contains("authorization_servers")) << "bearer mode has no authorization server";
  }
}

TEST(AuthDiscovery, BearerModeAnswersAuthorizationServerMetadata404) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.auth_token = "t0ken"; });
  for (const std::string path :
       {"/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server/mcp",
        "/.well-known/openid-configuration", "/mcp/.well-known/openid-configuration"}) {
    auto reply = http_request(server.port(), "GET", path, {});
    EXPECT_EQ(reply.status, 404u) << path << ": " << reply.body;
    EXPECT_EQ(parse_object(reply.body).at("error"), "not_found") << path;
  }
}

TEST(AuthDiscovery, UnauthorizedCarriesResourceMetadata) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.auth_token = "t0ken"; });
  const std::string expected = "resource_metadata=\"http://127.0.0.1:" + std::to_string(server.port()) +
                               "/.well-known/oauth-protected-resource/mcp\"";
  auto missing = http_request(server.port(), "POST", "/mcp", {{"Content-Type", "application/json"}}, "{}");
  EXPECT_EQ(missing.status, 401u);
  EXPECT_NE(missing.header("www-authenticate").find(expected), std::string::npos) << missing.header("www-authenticate");
  EXPECT_EQ(missing.header("www-authenticate").find("invalid_token"), std::string::npos);
  auto wrong = http_request(server.port(), "POST", "/mcp", {{"Authorization", "Bearer nope"}}, "{}");
  EXPECT_EQ(wrong.status, 401u);
  EXPECT_NE(wrong.header("www-authenticate").find("error=\"invalid_token\""), std::string::npos);
}

TEST(AuthDiscovery, PublicUrlIsTheResource) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.auth_token = "t0ken";
    o.public_url = "https://hamcp.example/";
    o.allowed_hosts = {"hamcp.example"};
  });
  auto reply = http_request(server.port(), "GET", "/.well-known/oauth-protected-resource/mcp", {});
  ASSERT_EQ(reply.status, 200u);
  EXPECT_EQ(parse_object(reply.body).at("resource"), "https://hamcp.example/mcp");
}

TEST(AuthDiscovery, ForeignHostIsStillRefusedOnWellKnown) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) { o.auth_token = "t0ken"; });
  auto reply = http_request(server.port(), "GET", "/.well-known/oauth-protected-resource", {{"Host", "evil.example"}});
  EXPECT_EQ(reply.status, 403u);
}

TEST(AuthDiscovery, WellKnownKinds) {
  using mcp::http::WellKnown;
  EXPECT_EQ(mcp::http::well_known_kind("/.well-known/oauth-protected-resource/mcp"), WellKnown::kProtectedResource);
  EXPECT_EQ(mcp::http::well_known_kind("/.well-known/oauth-authorization-server"), WellKnown::kAuthorizationServer);
  EXPECT_EQ(mcp::http::well_known_kind("/.well-known/oauth-protected-resourcex"), WellKnown::kNone);
  EXPECT_EQ(mcp::http::well_known_kind("/mcp"), WellKnown::kNone);
}

}  // namespace
}  // namespace hamcp::test
