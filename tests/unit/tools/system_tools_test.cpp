// The system tools against the demo sim: system health (the streamed
// subscription folded into one answer), versions, repairs (list, ignore,
// unignore), the configuration check, logger levels (set and read back),
// reloads of YAML domains and config entries, and ha_restart: refused without
// confirm or with an invalid configuration, otherwise HA goes away and comes
// back while the call reports progress and hamcp's mirror re-syncs.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::object& o, std::string_view key) { return std::string(o.at(key).as_string()); }

class SystemToolsTest : public ToolsTest {
 protected:
  template <class F>
  auto with_sim_home(F fn) {
    std::lock_guard lock(sim->store().mutex());
    return fn(sim->store().home());
  }
  void set_config_errors(std::optional<std::string> errors) {
    with_sim_home([&](sim::Home& home) {
      home.system.config_errors = std::move(errors);
      return 0;
    });
  }
  int restarts() {
    return with_sim_home([](sim::Home& home) { return home.system.restarts; });
  }
};

TEST_F(SystemToolsTest, HealthFoldsTheStreamAndListsVersionsAndRepairs) {
  start();
  CallResult r = call("ha_get_system_health");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::object& versions = r.structured.at("versions").as_object();
  EXPECT_EQ(str(versions, "core"), ha->status().ha_version);
  EXPECT_EQ(str(versions, "installation_type"), "Home Assistant Container");
  const json::object& health = r.structured.at("health").as_object();
  EXPECT_EQ(str(health.at("homeassistant").as_object(), "python_version"), "3.13.3");
  // {"type":"date","value":iso} is the iso text; the pending key carries its update's data.
  EXPECT_TRUE(health.at("recorder").at("oldest_recorder_run").is_string()) << r.text;
  EXPECT_EQ(str(health.at("cloud").as_object(), "can_reach_cert_server"), "ok");
  EXPECT_FALSE(health.contains("_note")) << "the stream finished";
  const json::array& issues = r.structured.at("repairs").at("issues").as_array();
  ASSERT_EQ(issues.size(), 2u) << r.text;
  EXPECT_EQ(str(issues[0].as_object(), "issue_id"), "deprecated_yaml_sonos");
  EXPECT_EQ(str(issues[0].as_object(), "severity"), "warning");
  EXPECT_EQ(str(issues[1].as_object(), "severity"), "critical");
  EXPECT_FALSE(str(issues[1].as_object(), "fix").empty());
  EXPECT_FALSE(r.structured.contains("config_check")) << "only on request";
}

TEST_F(SystemToolsTest, ConfigCheckAndLogLevelsOnRequest) {
  start();
  CallResult r = call("ha_get_system_health", R"({"include":"config_check,logger"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("config_check").as_object(), "result"), "valid");
  EXPECT_EQ(str(r.structured.at("log_levels").as_object(), "light"), "WARNING");
  EXPECT_FALSE(r.structured.contains("health"));
  set_config_errors("Invalid config for 'light' at configuration.yaml, line 12");
  r = call("ha_get_system_health", R"({"include":["config_check"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("config_check").as_object(), "result"), "invalid");
  EXPECT_NE(str(r.structured.at("config_check").as_object(), "errors").find("line 12"), std::string::npos);
}

TEST_F(SystemToolsTest, RepairIsIgnoredHiddenAndRestored) {
  start();
  CallResult r = call("ha_ignore_repair", R"({"domain":"homeassistant","issue_id":"deprecated_yaml_sonos"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("ignored_before").as_bool());
  EXPECT_TRUE(r.structured.at("ignored").as_bool());
  EXPECT_TRUE(with_sim_home([](sim::Home& h) { return h.system.repairs[0].at("ignored").as_bool(); }));
  r = call("ha_get_system_health", R"({"include":"repairs"})");
  EXPECT_EQ(r.structured.at("repairs").at("issues").as_array().size(), 1u) << r.text;
  EXPECT_EQ(r.structured.at("repairs").at("ignored_hidden").as_int64(), 1);
  r = call("ha_get_system_health", R"({"include":"repairs","include_dismissed_repairs":true})");
  EXPECT_EQ(r.structured.at("repairs").at("issues").as_array().size(), 2u) << r.text;
  r = call("ha_ignore_repair", R"({"domain":"homeassistant","issue_id":"deprecated_yaml_sonos","ignore":false})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("ignored_before").as_bool());
  EXPECT_FALSE(with_sim_home([](sim::Home& h) { return h.system.repairs[0].at("ignored").as_bool(); }));
  r = call("ha_ignore_repair", R"({"domain":"homeassistant","issue_id":"no_such_issue"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.error().at("message").as_string().find("issue_id"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("deprecated_yaml_sonos"), std::string::npos) << "names the known issues";
}

TEST_F(SystemToolsTest, LogLevelsAreSetAndReadBack) {
  start();
  CallResult r = call("ha_set_log_level", R"({"integration":"light","level":"debug"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "before"), "WARNING");
  EXPECT_EQ(str(r.structured, "after"), "DEBUG");
  r = call("ha_get_logs", R"({"source":"logger","query":"light"})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_EQ(r.structured.at("entries").as_array().size(), 1u) << r.text;
  EXPECT_EQ(str(r.structured.at("entries").at(0).as_object(), "level"), "DEBUG");
  r = call("ha_set_log_level", R"({"logger":"homeassistant.components.sonos","level":"INFO"})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_set_log_level", R"({"level":"ERROR"})");
  ASSERT_FALSE(r.is_error) << r.text;
  with_sim_home([](sim::Home& h) {
    EXPECT_EQ(h.system.logger_levels["homeassistant.components.sonos"], "INFO");
    EXPECT_EQ(h.system.default_log_level, "ERROR");
    return 0;
  });
  r = call("ha_get_logs", R"({"source":"logger","query":"switch"})");
  EXPECT_EQ(str(r.structured.at("entries").at(0).as_object(), "level"), "ERROR") << "the new default";
  r = call("ha_set_log_level", R"({"integration":"light","level":"LOUD"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.error().at("message").as_string().find("arguments.level"), std::string::npos) << r.text;
  r = call("ha_set_log_level", R"({"integration":"not_loaded","level":"DEBUG"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.error().at("message").as_string().find("arguments.integration"), std::string::npos) << r.text;
}

TEST_F(SystemToolsTest, ReloadsDomainsAndConfigEntries) {
  start();
  CallResult r = call("ha_reload_core", R"({"target":"automations, scene"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::array& done = r.structured.at("reloaded").as_array();
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(str(done[0].as_object(), "action"), "automation.reload");
  EXPECT_EQ(str(done[1].as_object(), "action"), "scene.reload");
  r = call("ha_reload_core", R"({"target":"core"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("reloaded").at(0).as_object(), "action"), "homeassistant.reload_core_config");
  r = call("ha_reload_core", R"({"entry_id":"01JDEMOUTILITYMETER0000001"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("reloaded").at(0).at("require_restart").as_bool());
  r = call("ha_reload_core", R"({"entry_id":"nope"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.error().at("message").as_string().find("arguments.entry_id"), std::string::npos) << r.text;
  r = call("ha_reload_core", R"({"target":"nonsense"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("automation"), std::string::npos) << "lists what can be reloaded: " << r.text;
  r = call("ha_reload_core", "{}");
  ASSERT_TRUE(r.is_error);
}

TEST_F(SystemToolsTest, RestartNeedsConfirmAndAValidConfiguration) {
  start();
  CallResult r = call("ha_restart");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("restarted").as_bool());
  EXPECT_EQ(str(r.structured.at("config_check").as_object(), "result"), "valid");
  set_config_errors("Integration error: nosuch - Integration 'nosuch' not found.");
  r = call("ha_restart", R"({"confirm":true})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "config_invalid");
  EXPECT_NE(r.text.find("nosuch"), std::string::npos) << r.text;
  EXPECT_EQ(restarts(), 0);
  EXPECT_EQ(ha->ws()->connects(), 1u);
}

TEST_F(SystemToolsTest, RestartReportsProgressAndTheMirrorComesBack) {
  start();
  const std::uint64_t connects_before = ha->ws()->connects();
  json::object req{{"jsonrpc", "2.0"},
                   {"id", 7},
                   {"method", "tools/call"},
                   {"params", json::object{{"name", "ha_restart"},
                                           {"arguments", json::object{{"confirm", true}}},
                                           {"_meta", json::object{{"progressToken", "restart-1"}}}}}};
  auto channel = std::make_shared<mcp::testing::MemoryChannel>();
  h.session->deliver(json::value(std::move(req)), channel);
  ASSERT_TRUE(h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(30000)));
  const auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 1u);
  const json::object& result = responses[0].at("result").as_object();
  ASSERT_FALSE(mcp::testing::is_error_result(responses[0])) << json::serialize(result);
  const json::object& body = result.at("structuredContent").as_object();
  EXPECT_TRUE(body.at("restarted").as_bool());
  EXPECT_TRUE(body.at("back").as_bool()) << json::serialize(body);
  EXPECT_EQ(str(body.at("mirror").as_object(), "state"), "synced");
  EXPECT_EQ(restarts(), 1);
  EXPECT_GT(ha->ws()->connects(), connects_before);
  const auto progress = channel->with_method("notifications/progress");
  ASSERT_GE(progress.size(), 3u);
  EXPECT_EQ(progress.back().at("params").at("progressToken").as_string(), "restart-1");
  // hamcp kept serving: the next call reads the re-synced mirror.
  CallResult next = call("ha_get_state", R"({"entity_id":"light.porch_light"})");
  EXPECT_FALSE(next.is_error) << next.text;
}

// Another client's calls while the tool restarts HA: each ends, with success or
// a retryable error, none hangs; the restart itself still completes.
TEST_F(SystemToolsTest, OtherClientsCallsDuringARestartEndCleanly) {
  start();
  json::object req{{"jsonrpc", "2.0"},
                   {"id", 9},
                   {"method", "tools/call"},
                   {"params", json::object{{"name", "ha_restart"}, {"arguments", json::object{{"confirm", true}}}}}};
  auto channel = std::make_shared<mcp::testing::MemoryChannel>();
  h.session->deliver(json::value(std::move(req)), channel);
  auto other = other_session("other-client");
  int ok_calls = 0;
  int failed_calls = 0;
  for (int i = 0; i < 40 && channel->closed == 0; ++i) {
    CallResult r = call_in(*other, "ha_call_service",
                           R"({"domain":"light","service":"toggle","entity_id":"light.porch_light","wait":false})",
                           std::chrono::milliseconds(20000));
    ASSERT_EQ(r.response.contains("result"), true) << "call " << i << " never answered";
    if (r.is_error) {
      ++failed_calls;
      EXPECT_FALSE(r.code().empty()) << r.text;
    } else {
      ++ok_calls;
    }
  }
  ASSERT_TRUE(h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(30000)));
  const auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_FALSE(mcp::testing::is_error_result(responses[0])) << json::serialize(responses[0]);
  EXPECT_GT(ok_calls + failed_calls, 0);
  CallResult after = call_in(*other, "ha_get_state", R"({"entity_id":"light.porch_light"})");
  EXPECT_FALSE(after.is_error) << after.text;
}

TEST_F(SystemToolsTest, IssueReportCollectsTheFactsAndScrubsSecrets) {
  start();
  CallResult r =
      call("ha_report_issue", R"({"title":"lights slow","user_prompt":"turn on the kitchen","description":"HA at )"
                              R"(192.168.1.20, token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl, )"
                              R"(mail me@example.org"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string body = str(r.structured, "body");
  const std::string version = ha->status().ha_version;
  EXPECT_EQ(str(r.structured, "title"), "lights slow");
  for (const char* part : {"## Environment", version.c_str(), "\"valid\"", "deprecated_yaml_sonos",
                           "Error retrieving favorites", "turn on the kitchen", "<ip>", "<token>", "<email>"})
    EXPECT_NE(body.find(part), std::string::npos) << part << " in " << body;
  for (const char* secret : {"192.168.1.20", "eyJhbGciOiJIUzI1NiJ9", "me@example.org"})
    EXPECT_EQ(body.find(secret), std::string::npos) << secret;
}

TEST_F(SystemToolsTest, HaMcpArgumentNamesWork) {
  start();
  CallResult r = call("ha_get_system_health", R"({"include":"repairs","config_entry_id":"x"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.contains("note"));
  r = call("ha_set_log_level", R"({"domain":"light","log_level":"DEFAULT"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "integration"), "light");
}

}  // namespace
}  // namespace hamcp::tools::testing
