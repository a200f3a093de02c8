// The simulator's Home Assistant auth endpoints in HA 2026.2's shapes: a
// login flow of the homeassistant provider ends in a code, /auth/token trades
// it for tokens the REST API accepts, refreshes, and revocation ends them.
#include <gtest/gtest.h>

#include "sim/rest/rest_api.hpp"
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim {
namespace {

constexpr const char* kClient = "http://127.0.0.1:8086/";

class AuthRoutes : public testing::WsCommandTest {
 protected:
  RestResponse send(const std::string& method, const std::string& target, const std::string& body,
                    const std::string& token = {}) {
    RestApi api(core, nullptr);
    RestRequest req;
    req.method = method;
    req.target = target;
    req.body = body;
    if (!token.empty()) req.authorization = "Bearer " + token;
    return api.handle(req);
  }
  json::object post_json(const std::string& target, const json::object& body, int expected_status = 200) {
    RestResponse r = send("POST", target, json::serialize(body));
    EXPECT_EQ(r.status, expected_status) << r.body;
    return json::parse(r.body).as_object();
  }
  // Runs the login flow as the frontend does; the code.
  std::string login(const std::string& username, const std::string& password) {
    auto form = post_json("/auth/login_flow", {{"client_id", kClient},
                                               {"handler", json::array{"homeassistant", nullptr}},
                                               {"redirect_uri", std::string(kClient) + "oauth/callback"}});
    EXPECT_EQ(form.at("type"), "form");
    EXPECT_EQ(form.at("step_id"), "init");
    const std::string flow_id(form.at("flow_id").as_string());
    auto done = post_json("/auth/login_flow/" + flow_id,
                          {{"client_id", kClient}, {"username", username}, {"password", password}});
    if (done.at("type") != "create_entry") return {};
    return std::string(done.at("result").as_string());
  }
};

TEST_F(AuthRoutes, CodeTokensRefreshAndRevokeInHaShapes) {
  const std::string code = login("guest", "guest-password");
  ASSERT_FALSE(code.empty());
  RestResponse bad_client = send("POST", "/auth/token", "grant_type=authorization_code&code=" + code + "&client_id=x");
  EXPECT_EQ(bad_client.status, 400);
  EXPECT_EQ(json::parse(bad_client.body).at("error_description"), "Invalid client id");

  RestResponse issued =
      send("POST", "/auth/token",
           "grant_type=authorization_code&code=" + code + "&client_id=http%3A%2F%2F127.0.0.1%3A8086%2F");
  ASSERT_EQ(issued.status, 200) << issued.body;
  auto tokens = json::parse(issued.body).as_object();
  EXPECT_EQ(tokens.at("token_type"), "Bearer");
  EXPECT_EQ(tokens.at("expires_in"), 1800);
  EXPECT_EQ(tokens.at("ha_auth_provider"), "homeassistant");
  const std::string access(tokens.at("access_token").as_string()), refresh(tokens.at("refresh_token").as_string());
  EXPECT_EQ(send("GET", "/api/config", "", access).status, 200);
  EXPECT_EQ(send("POST", "/auth/token", "grant_type=authorization_code&code=" + code + "&client_id=" + kClient).status,
            400)
      << "a code is used once";

  RestResponse refreshed =
      send("POST", "/auth/token", "grant_type=refresh_token&refresh_token=" + refresh + "&client_id=" + kClient);
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  EXPECT_FALSE(json::parse(refreshed.body).as_object().contains("refresh_token"));
  const std::string access2(json::parse(refreshed.body).at("access_token").as_string());
  EXPECT_EQ(send("GET", "/api/config", "", access2).status, 200);

  EXPECT_EQ(send("POST", "/auth/revoke", "token=" + refresh).status, 200);
  EXPECT_EQ(send("GET", "/api/config", "", access2).status, 401);
  EXPECT_EQ(send("GET", "/api/config", "", access).status, 401);
  RestResponse gone =
      send("POST", "/auth/token", "grant_type=refresh_token&refresh_token=" + refresh + "&client_id=" + kClient);
  EXPECT_EQ(gone.status, 400);
  EXPECT_EQ(json::parse(gone.body).at("error"), "invalid_grant");
}

TEST_F(AuthRoutes, WrongPasswordShowsTheFormAgainWithInvalidAuth) {
  auto form = post_json("/auth/login_flow", {{"client_id", kClient},
                                             {"handler", json::array{"homeassistant", nullptr}},
                                             {"redirect_uri", std::string(kClient) + "oauth/callback"}});
  const std::string flow_id(form.at("flow_id").as_string());
  auto again =
      post_json("/auth/login_flow/" + flow_id, {{"client_id", kClient}, {"username", "guest"}, {"password", "wrong"}});
  EXPECT_EQ(again.at("type"), "form");
  EXPECT_EQ(again.at("errors").at("base"), "invalid_auth");
  EXPECT_EQ(send("POST", "/auth/token", "grant_type=password").status, 400);
  EXPECT_EQ(send("GET", "/auth/authorize?client_id=x", "").status, 200);
}

}  // namespace
}  // namespace hamcp::sim
