// hamcp's authorization server (--auth oauth) with a fake login step: metadata,
// registration refusals, PKCE S256 only, one-time codes, refresh rotation with
// replay detection, revocation, and MCP requests gated by its access tokens.
#include "mcp/http/oauth/oauth_server.hpp"

#include <gtest/gtest.h>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "http_fixture.hpp"
#include "mcp/http/session_token.hpp"

namespace hamcp::test {
namespace {

namespace oauth = mcp::http::oauth;

// Logs everyone in as "alice"; the login URL is the callback itself.
class FakeLogin : public oauth::UpstreamLogin {
 public:
  std::string login_url(std::string_view, std::string_view callback, std::string_view state) override {
    return std::string(callback) + "?code=upstream&state=" + std::string(state);
  }
  mcp::asio::awaitable<std::optional<std::string>> complete(std::string, std::string code) override {
    if (code != "upstream") co_return std::nullopt;
    co_return std::string("alice");
  }
  void forget(const std::string& user) override { forgotten.push_back(user); }
  std::vector<std::string> forgotten;
};

std::string query_value(const std::string& location, const std::string& key) {
  auto url = boost::urls::parse_uri_reference(location);
  for (auto p : url->params())
    if (p.key == key) return p.value;
  return {};
}

std::string target_of(const std::string& location) {
  auto url = boost::urls::parse_uri(location);
  return std::string(url->encoded_path()) + "?" + std::string(url->encoded_query());
}

const std::string kVerifier = "a-verifier-that-is-long-enough-for-rfc-7636-section-4-1-xx";

std::string challenge_of(const std::string& verifier) {
  // base64url(SHA-256(verifier)), from the hex digest.
  unsigned char digest[32];
  const std::string hex = oauth::sha256_hex(verifier);
  for (int i = 0; i < 32; ++i)
    digest[i] = static_cast<unsigned char>(std::stoi(hex.substr(static_cast<std::size_t>(i) * 2, 2), nullptr, 16));
  return mcp::http::base64url_encode(digest, 32);
}

class OAuthServerTest : public testing::Test {
 protected:
  OAuthServerTest()
      : login(std::make_shared<FakeLogin>()), server(dir.path(), [this](mcp::http::HttpServerOptions& o) {
          o.oauth = std::make_shared<oauth::OAuthServer>(dir.path(), login);
        }) {}
  HttpReply post_form(const std::string& path, const std::string& body) {
    return http_request(server.port(), "POST", path, {{"Content-Type", "application/x-www-form-urlencoded"}}, body);
  }
  std::string register_client() {
    auto r = http_request(server.port(), "POST", "/register", {{"Content-Type", "application/json"}},
                          R"({"redirect_uris":["http://127.0.0.1:9/cb"],"client_name":"t"})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return std::string(json::parse(r.body).at("client_id").as_string());
  }
  // /authorize -> (fake login) -> /oauth/callback -> the client's redirect; its code.
  std::string authorize(const std::string& client_id, const std::string& method = "S256") {
    auto r = http_request(server.port(), "GET",
                          "/authorize?response_type=code&client_id=" + client_id +
                              "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&state=s1&code_challenge=" +
                              challenge_of(kVerifier) + "&code_challenge_method=" + method,
                          {});
    EXPECT_EQ(r.status, 302u) << r.body;
    const std::string login_location = r.header("location");
    if (login_location.starts_with("http://127.0.0.1:9/")) return query_value(login_location, "error");
    auto back = http_request(server.port(), "GET", target_of(login_location), {});
    EXPECT_EQ(back.status, 302u) << back.body;
    EXPECT_EQ(query_value(back.header("location"), "state"), "s1");
    return query_value(back.header("location"), "code");
  }
  json::object token(const std::string& body, unsigned expected) {
    auto r = post_form("/token", body);
    EXPECT_EQ(r.status, expected) << r.body;
    return json::parse(r.body).as_object();
  }

  TempDir dir;
  std::shared_ptr<FakeLogin> login;
  TestHttpServer server;
};

TEST_F(OAuthServerTest, MetadataAdvertisesTheServer) {
  auto r = http_request(server.port(), "GET", "/.well-known/oauth-authorization-server", {});
  ASSERT_EQ(r.status, 200u);
  auto meta = json::parse(r.body).as_object();
  EXPECT_EQ(meta.at("code_challenge_methods_supported").as_array(), json::array{"S256"});
  EXPECT_NE(std::string(meta.at("registration_endpoint").as_string()).find("/register"), std::string::npos);
  auto prm = json::parse(http_request(server.port(), "GET", "/.well-known/oauth-protected-resource/mcp", {}).body);
  EXPECT_EQ(prm.at("authorization_servers").as_array().size(), 1u);
}

TEST_F(OAuthServerTest, RegistrationRefusesUnsafeRedirects) {
  for (const std::string body : {R"({"redirect_uris":["http://evil.example/cb"]})", R"({"redirect_uris":[]})", "[]"}) {
    auto r = http_request(server.port(), "POST", "/register", {{"Content-Type", "application/json"}}, body);
    EXPECT_EQ(r.status, 400u) << body;
  }
}

TEST_F(OAuthServerTest, PlainPkceIsRefused) { EXPECT_EQ(authorize(register_client(), "plain"), "invalid_request"); }

TEST_F(OAuthServerTest, CodeRefreshRotationRevocation) {
  const std::string client = register_client();
  const std::string code = authorize(client);
  ASSERT_FALSE(code.empty());
  const std::string base = "grant_type=authorization_code&client_id=" + client +
                           "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&code=" + code;
  auto tokens = token(base + "&code_verifier=" + kVerifier, 200);
  EXPECT_EQ(token(base + "&code_verifier=" + kVerifier, 400).at("error"), "invalid_grant") << "codes are single-use";
  const std::string access(tokens.at("access_token").as_string()), refresh(tokens.at("refresh_token").as_string());
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", {{"Authorization", "Bearer " + access}}, "{}").status == 401,
            false);
  auto rotated = token("grant_type=refresh_token&client_id=" + client + "&refresh_token=" + refresh, 200);
  EXPECT_NE(rotated.at("refresh_token"), tokens.at("refresh_token"));
  EXPECT_EQ(token("grant_type=refresh_token&client_id=" + client + "&refresh_token=" + refresh, 400).at("error"),
            "invalid_grant");
  const std::string access2(rotated.at("access_token").as_string());
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", {{"Authorization", "Bearer " + access2}}, "{}").status, 401u)
      << "a replayed refresh token ends the family";

  const std::string code2 = authorize(client);
  auto fresh = token("grant_type=authorization_code&client_id=" + client +
                         "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&code=" + code2 + "&code_verifier=" + kVerifier,
                     200);
  EXPECT_EQ(post_form("/revoke", "token=" + std::string(fresh.at("refresh_token").as_string())).status, 200u);
  EXPECT_EQ(login->forgotten, std::vector<std::string>{"alice"});
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp",
                         {{"Authorization", "Bearer " + std::string(fresh.at("access_token").as_string())}}, "{}")
                .status,
            401u);
}

TEST_F(OAuthServerTest, WrongVerifierIsRefused) {
  const std::string client = register_client();
  const std::string code = authorize(client);
  auto r =
      token("grant_type=authorization_code&client_id=" + client +
                "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&code=" + code + "&code_verifier=" + std::string(50, 'x'),
            400);
  EXPECT_EQ(r.at("error"), "invalid_grant");
}

}  // namespace
}  // namespace hamcp::test
