// hamcp --auth oauth: the calls of a signed-in user's session (SessionInfo::
// principal) reach Home Assistant with that user's own token, so HA's own
// permission checks apply. The demo sim's "guest" is no admin, "owner" is.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "app/ha_login.hpp"
#include "ha/supervisor_client.hpp"
#include "home/user_connections.hpp"
#include "sim/core/sim_core.hpp"
#include "sim/server/sim_server.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr const char* kClient = "http://127.0.0.1:9/";
constexpr const char* kRename = R"({"entity_id":"light.kitchen_ceiling_light","icon":"mdi:lamp"})";
constexpr const char* kToggle = R"({"domain":"light","service":"toggle","entity_id":"light.kitchen_ceiling_light"})";

class UserGateTest : public ToolsTest {
 protected:
  // A user's own connection opens on its first call, inside that call's wait:
  // under emulation (the arm64 lane's qemu) 3 s was once too short for it.
  UserGateTest() {
    adjust_input = [](ha::ConnectionInput& input) { input.timeout = std::chrono::seconds(15); };
  }

  // A sim user's HA tokens, as HA's login flow gives them to hamcp.
  sim::SimAuth::Tokens login(const std::string& username, const std::string& password) {
    auto& auth = sim->core().auth();
    const std::string flow = auth.start_flow(kClient, std::string(kClient) + "oauth/callback");
    auto code = auth.finish_flow(flow, username, password);
    EXPECT_TRUE(code.has_value());
    auto tokens = auth.exchange_code(kClient, code.value_or(""));
    EXPECT_TRUE(tokens.has_value());
    return tokens.value_or(sim::SimAuth::Tokens{});
  }
  void act_as_users() {
    users = home->act_as_users([this](std::string user) -> boost::asio::awaitable<std::optional<std::string>> {
      ++token_requests;
      auto it = tokens.find(user);
      if (it == tokens.end()) co_return std::nullopt;
      co_return it->second;
    });
    ASSERT_TRUE(users);
  }
  std::shared_ptr<mcp::Session> session_of(const std::string& user) {
    auto session = other_session("session-" + user);
    session->set_principal(user);
    return session;
  }
  static std::string code_of(const CallResult& r) {
    const json::value* error = r.structured.if_contains("error");
    const json::value* code = error && error->is_object() ? error->as_object().if_contains("code") : nullptr;
    return code && code->is_string() ? std::string(code->get_string()) : std::string();
  }

  std::map<std::string, std::string> tokens;  // hamcp user -> HA access token
  std::shared_ptr<home::UserConnections> users;
  int token_requests = 0;
};

TEST_F(UserGateTest, NonAdminUserIsRefusedAnAdminOnlyCommandByHomeAssistant) {
  start();
  tokens["u-guest"] = login("guest", "guest-password").access_token;
  act_as_users();
  auto guest = session_of("u-guest");
  CallResult refused = call_in(*guest, "ha_set_entity", kRename);
  EXPECT_TRUE(refused.is_error) << refused.text;
  EXPECT_EQ(code_of(refused), "ha_not_permitted") << refused.text;
  EXPECT_NE(refused.text.find("Unauthorized"), std::string::npos) << refused.text;
  EXPECT_EQ(users->open_count(), 1u);
  // The session without a signed-in user (bearer mode, stdio) keeps hamcp's own (admin) token.
  CallResult own = call("ha_set_entity", kRename);
  EXPECT_FALSE(own.is_error) << own.text;
}

TEST_F(UserGateTest, NonAdminUserMayCallServicesAndReadStates) {
  start();
  tokens["u-guest"] = login("guest", "guest-password").access_token;
  act_as_users();
  auto guest = session_of("u-guest");
  CallResult toggled = call_in(*guest, "ha_call_service", kToggle);
  EXPECT_FALSE(toggled.is_error) << toggled.text;
  CallResult read = call_in(*guest, "ha_get_state", R"({"entity_id":"light.kitchen_ceiling_light"})");
  EXPECT_FALSE(read.is_error) << read.text;
  EXPECT_GE(token_requests, 1);
}

TEST_F(UserGateTest, AdminUserSucceedsAtTheAdminAction) {
  start();
  tokens["u-owner"] = login("owner", "owner-password").access_token;
  act_as_users();
  CallResult done = call_in(*session_of("u-owner"), "ha_set_entity", kRename);
  EXPECT_FALSE(done.is_error) << done.text;
}

TEST_F(UserGateTest, OneConnectionPerUserReplacedWhenTheTokenIsRefreshed) {
  start();
  const auto guest_tokens = login("guest", "guest-password");
  tokens["u-guest"] = guest_tokens.access_token;
  tokens["u-owner"] = login("owner", "owner-password").access_token;
  act_as_users();
  auto guest = session_of("u-guest");
  EXPECT_FALSE(call_in(*guest, "ha_call_service", kToggle).is_error);
  EXPECT_FALSE(call_in(*guest, "ha_call_service", kToggle).is_error);
  EXPECT_EQ(users->open_count(), 1u);
  EXPECT_FALSE(call_in(*session_of("u-owner"), "ha_call_service", kToggle).is_error);
  EXPECT_EQ(users->open_count(), 2u);
  auto refreshed = sim->core().auth().refresh(kClient, guest_tokens.refresh_token);
  ASSERT_TRUE(refreshed.has_value());
  tokens["u-guest"] = *refreshed;
  CallResult after = call_in(*guest, "ha_set_entity", kRename);  // the new token, still the guest
  EXPECT_EQ(code_of(after), "ha_not_permitted") << after.text;
  EXPECT_EQ(users->open_count(), 2u);
}

TEST_F(UserGateTest, EndedGrantStopsTheUsersAccessAtOnce) {
  start();
  tokens["u-guest"] = login("guest", "guest-password").access_token;
  act_as_users();
  auto guest = session_of("u-guest");
  EXPECT_FALSE(call_in(*guest, "ha_call_service", kToggle).is_error);
  ASSERT_EQ(users->open_count(), 1u);
  tokens.erase("u-guest");  // revoked: the token source has nothing for the user
  users->close("u-guest");
  EXPECT_EQ(users->open_count(), 0u);
  CallResult refused = call_in(*guest, "ha_call_service", kToggle);
  EXPECT_TRUE(refused.is_error);
  EXPECT_EQ(code_of(refused), "signed_out") << refused.text;
  EXPECT_EQ(users->open_count(), 0u);
  EXPECT_FALSE(call("ha_call_service", kToggle).is_error);  // others are untouched
}

// Per-user views are evicted like the users' connections (least recently used
// first past the cap); a call still holding an evicted view keeps it.
TEST_F(UserGateTest, PerUserViewsAreBoundedAndAHeldViewOutlivesItsEviction) {
  start();
  tokens["u-guest"] = login("guest", "guest-password").access_token;
  act_as_users();
  mcp::SessionInfo first;
  first.principal = "u-first";
  const std::shared_ptr<ToolEnv> held = env->for_session(first);
  ASSERT_TRUE(held);
  EXPECT_EQ(env->for_session(first), held);  // kept for the user's next call
  for (std::size_t i = 0; i < ToolEnv::kMaxUserViews + 5; ++i) {
    mcp::SessionInfo other;
    other.principal = "u-" + std::to_string(i);
    env->for_session(other);
  }
  EXPECT_LE(env->user_view_count(), ToolEnv::kMaxUserViews);
  EXPECT_NE(env->for_session(first), held);  // evicted: a new view for the next call
  EXPECT_EQ(&held->index, &env->index);      // the held one is still whole
  // And the user's calls still work through a fresh view.
  EXPECT_FALSE(call_in(*session_of("u-guest"), "ha_call_service", kToggle).is_error);
  mcp::SessionInfo none;
  EXPECT_EQ(env->for_session(none).get(), env);  // no principal: the environment itself
}

// An add-on's own API is reachable only with hamcp's Supervisor token: a
// signed-in user's call is refused before anything is sent.
TEST_F(UserGateTest, AnAddonsOwnApiIsRefusedToASignedInUser) {
  start();
  tokens["u-owner"] = login("owner", "owner-password").access_token;
  act_as_users();
  CallResult refused = call_in(*session_of("u-owner"), "ha_manage_app",
                               R"({"action":"proxy","slug":"core_mosquitto","path":"/status"})");
  EXPECT_EQ(code_of(refused), "not_available_as_user") << refused.text;
  // Without a signed-in user the call goes on to its own answer (here: not inside an add-on).
  CallResult own = call("ha_manage_app", R"({"action":"proxy","slug":"core_mosquitto","path":"/status"})");
  EXPECT_EQ(code_of(own), "addon_api_unreachable") << own.text;
}

// Inside the add-on, a user's connection carries no SUPERVISOR_TOKEN: their
// Supervisor calls go through Home Assistant with their own token.
TEST_F(UserGateTest, AUsersConnectionNeverCarriesHamcpsSupervisorToken) {
  start();
  ha::ConnectionSettings base = *ha->settings();
  base.supervisor = true;
  base.supervisor_token = ha::Secret("hamcps-supervisor-token");
  auto connections = std::make_shared<home::UserConnections>(h.io.get_executor(), base, ha::HaClientOptions{});
  connections->set_token_source(
      [](std::string) -> boost::asio::awaitable<std::optional<std::string>> { co_return std::string("user-token"); });
  std::shared_ptr<ha::HaClient> client;
  boost::asio::co_spawn(
      h.io.get_executor(),
      [&]() -> boost::asio::awaitable<void> {
        auto opening = connections->client_for("u-someone");
        client = co_await std::move(opening);
      },
      boost::asio::detached);
  ASSERT_TRUE(h.run_until([&] { return client != nullptr; }, std::chrono::milliseconds(5000)));
  ASSERT_NE(client->settings(), nullptr);
  EXPECT_TRUE(client->settings()->supervisor_token.empty());
  EXPECT_EQ(client->settings()->token.reveal(), "user-token");
  EXPECT_EQ(ha::SupervisorClient(*client).route(), ha::SupervisorRoute::core_proxy);
  connections->close("u-someone");
}

TEST_F(UserGateTest, SignedInSessionWithoutUserConnectionsNeverUsesHamcpsToken) {
  start();
  CallResult refused = call_in(*session_of("u-nobody"), "ha_call_service", kToggle);
  EXPECT_EQ(code_of(refused), "signed_out") << refused.text;
}

// HaLogin's refresh: one request at HA for concurrent callers; a refresh HA
// refuses ends the grant and tells the user connections.
class HaLoginRefreshTest : public UserGateTest {
 protected:
  std::unique_ptr<app::HaLogin> make_login(const std::string& refresh_token) {
    dir = std::filesystem::temp_directory_path() /
          ("hamcp-ha-login-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::create_directories(dir);
    json::object grant{
        {"client_id", kClient}, {"refresh_token", refresh_token}, {"access_token", "stale"}, {"expires_at", 0}};
    std::ofstream(dir / "ha-grants.json") << json::serialize(json::object{{"u-guest", grant}});
    return std::make_unique<app::HaLogin>(h.io.get_executor(), *ha->settings(), "", dir);
  }
  void TearDown() override {
    UserGateTest::TearDown();
    if (!dir.empty()) std::filesystem::remove_all(dir);
  }
  static boost::asio::awaitable<void> fetch_token(app::HaLogin& login, std::optional<std::string>& out, bool& done) {
    auto getting = login.access_token("u-guest");  // named: GCC 12 coroutine temporaries
    out = co_await std::move(getting);
    done = true;
  }
  void run_access_token(app::HaLogin& login, std::optional<std::string>& out, bool& done) {
    boost::asio::co_spawn(h.io, fetch_token(login, out, done), boost::asio::detached);
  }
  std::filesystem::path dir;
};

TEST_F(HaLoginRefreshTest, ConcurrentCallersShareOneRefresh) {
  start();
  const auto guest_tokens = login("guest", "guest-password");
  auto ha_login = make_login(guest_tokens.refresh_token);
  std::optional<std::string> first, second;
  bool first_done = false, second_done = false;
  run_access_token(*ha_login, first, first_done);
  run_access_token(*ha_login, second, second_done);
  ASSERT_TRUE(eventually([&] { return first_done && second_done; }));
  ASSERT_TRUE(first.has_value());
  EXPECT_NE(*first, "stale");
  EXPECT_EQ(first, second);  // two refreshes would have minted two different tokens
  EXPECT_TRUE(sim->core().auth().user_of(*first).has_value());
}

TEST_F(HaLoginRefreshTest, RefusedRefreshEndsTheGrant) {
  start();
  auto ha_login = make_login("not-a-refresh-token");
  std::string ended;
  ha_login->on_grant_ended([&](const std::string& user) { ended = user; });
  std::optional<std::string> token;
  bool done = false;
  run_access_token(*ha_login, token, done);
  ASSERT_TRUE(eventually([&] { return done; }));
  EXPECT_FALSE(token.has_value());
  EXPECT_EQ(ended, "u-guest");
  done = false;
  run_access_token(*ha_login, token, done);  // no grant any more: no request to HA
  ASSERT_TRUE(eventually([&] { return done; }));
  EXPECT_FALSE(token.has_value());
}

}  // namespace
}  // namespace hamcp::tools::testing
