// The simulator's administration API in HA 2026.2's shapes: system_health/info
// as a subscription (result null, initial, update, finish), repairs list and
// ignore, logger levels (log_info, integration_log_level, logger.set_level /
// set_default_level), the configuration check and homeassistant.restart
// refused while the configuration is invalid.
#include <gtest/gtest.h>

#include "sim/rest/rest_api.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim {
namespace {

class SystemCommandsTest : public ::testing::Test {
 protected:
  SimCore core{demo_home(), "tok"};
  std::vector<json::object> out;  // this test's thread only: every answer is sent inline
  std::shared_ptr<WsConnection> conn = std::make_shared<WsConnection>(
      core, [this](std::string f) { out.push_back(json::parse(f).as_object()); }, [] {});
  int64_t next_id = 1;

  void SetUp() override { conn->on_message(R"({"type":"auth","access_token":"tok"})"); }
  void TearDown() override { conn->shutdown(); }

  // Sends a command; returns every frame answering it (result and events).
  std::vector<json::object> send(json::object msg) {
    const int64_t id = ++next_id;
    msg["id"] = id;
    out.clear();
    conn->on_message(json::serialize(msg));
    std::vector<json::object> mine;
    for (auto& f : out)
      if (f.contains("id") && f.at("id").as_int64() == id) mine.push_back(f);
    return mine;
  }
  json::object result_of(json::object msg) {
    auto frames = send(std::move(msg));
    EXPECT_EQ(frames.size(), 1u);
    return frames.empty() ? json::object{} : frames[0];
  }
  int level_of(const json::object& log_info, std::string_view domain) {
    for (const auto& row : log_info.at("result").as_array())
      if (row.at("domain").as_string() == domain) return static_cast<int>(row.at("level").as_int64());
    return -1;
  }
};

TEST_F(SystemCommandsTest, SystemHealthIsASubscriptionEndingWithFinish) {
  auto frames = send(json::object{{"type", "system_health/info"}});
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].at("type"), "result");
  EXPECT_TRUE(frames[0].at("success").as_bool());
  EXPECT_TRUE(frames[0].at("result").is_null());
  const json::object& initial = frames[1].at("event").as_object();
  EXPECT_EQ(initial.at("type"), "initial");
  EXPECT_EQ(initial.at("data").at("homeassistant").at("info").at("version"), ("core-" + core.ha_version()).c_str());
  EXPECT_EQ(initial.at("data").at("recorder").at("info").at("oldest_recorder_run").at("type"), "date");
  EXPECT_EQ(initial.at("data").at("cloud").at("info").at("can_reach_cert_server").at("type"), "pending");
  const json::object& update = frames[2].at("event").as_object();
  EXPECT_EQ(update.at("type"), "update");
  EXPECT_EQ(update.at("key"), "can_reach_cert_server");
  EXPECT_TRUE(update.at("success").as_bool());
  EXPECT_EQ(frames[3].at("event").at("type"), "finish");
}

TEST_F(SystemCommandsTest, RepairsAreListedAndIgnored) {
  json::object listed = result_of(json::object{{"type", "repairs/list_issues"}});
  const json::array& issues = listed.at("result").at("issues").as_array();
  ASSERT_EQ(issues.size(), 2u);
  for (const char* key :
       {"breaks_in_ha_version", "created", "dismissed_version", "domain", "ignored", "is_fixable", "issue_domain",
        "issue_id", "learn_more_url", "severity", "translation_key", "translation_placeholders"})
    EXPECT_TRUE(issues[0].as_object().contains(key)) << key;
  json::object ignored = result_of(json::object{{"type", "repairs/ignore_issue"},
                                                {"domain", "recorder"},
                                                {"issue_id", "maria_db_range_index_regression"},
                                                {"ignore", true}});
  EXPECT_TRUE(ignored.at("success").as_bool());
  EXPECT_TRUE(ignored.at("result").is_null());
  const json::object& issue = core.store().home().system.repairs[1];
  EXPECT_TRUE(issue.at("ignored").as_bool());
  EXPECT_EQ(issue.at("dismissed_version"), core.ha_version().c_str());
  json::object unknown =
      result_of(json::object{{"type", "repairs/ignore_issue"}, {"domain", "x"}, {"issue_id", "y"}, {"ignore", true}});
  EXPECT_FALSE(unknown.at("success").as_bool());
  EXPECT_EQ(unknown.at("error").at("code"), "unknown_error");
  json::object missing = result_of(json::object{{"type", "repairs/ignore_issue"}, {"domain", "x"}, {"issue_id", "y"}});
  EXPECT_EQ(missing.at("error").at("code"), "invalid_format");
}

TEST_F(SystemCommandsTest, LoggerLevelsFollowPythonsHierarchy) {
  json::object info = result_of(json::object{{"type", "logger/log_info"}});
  EXPECT_EQ(level_of(info, "light"), 30);
  EXPECT_TRUE(result_of(json::object{{"type", "logger/integration_log_level"},
                                     {"integration", "light"},
                                     {"level", "DEBUG"},
                                     {"persistence", "none"}})
                  .at("success")
                  .as_bool());
  json::object nf = result_of(json::object{
      {"type", "logger/integration_log_level"}, {"integration", "nope"}, {"level", "DEBUG"}, {"persistence", "none"}});
  EXPECT_EQ(nf.at("error").at("code"), "not_found");
  ServiceCall set{"logger", "set_level", {{"homeassistant.components", "error"}}, {}, core.store().new_context(),
                  false};
  core.services().call(set);
  ServiceCall def{"logger", "set_default_level", {{"level", "INFO"}}, {}, core.store().new_context(), false};
  core.services().call(def);
  info = result_of(json::object{{"type", "logger/log_info"}});
  EXPECT_EQ(level_of(info, "light"), 10) << "its own level";
  EXPECT_EQ(level_of(info, "switch"), 40) << "the parent logger's level";
  ServiceCall bad{"logger", "set_level", {{"x", "LOUD"}}, {}, core.store().new_context(), false};
  EXPECT_THROW(core.services().call(bad), ServiceError);
}

TEST_F(SystemCommandsTest, InvalidConfigurationIsReportedAndBlocksRestart) {
  RestApi rest(core, [](const json::object&) { return RestResponse{}; });
  auto check = [&] {
    RestRequest req;
    req.method = "POST";
    req.target = "/api/config/core/check_config";
    req.authorization = "Bearer tok";
    return json::parse(rest.handle(req).body).as_object();
  };
  EXPECT_EQ(check().at("result"), "valid");
  core.store().home().system.config_errors = "bad yaml";
  EXPECT_EQ(check().at("result"), "invalid");
  EXPECT_EQ(check().at("errors"), "bad yaml");
  ServiceCall restart{"homeassistant", "restart", {}, {}, core.store().new_context(), false};
  EXPECT_THROW(core.services().call(restart), ServiceError);
  EXPECT_EQ(core.store().home().system.restarts, 0);
  core.store().home().system.config_errors.reset();
  int signals = 0;
  core.store().listen("@restart_requested", [&](const Event&) { ++signals; });
  core.services().call(restart);
  EXPECT_EQ(signals, 1);
  EXPECT_EQ(core.store().home().system.restarts, 1);
}

}  // namespace
}  // namespace hamcp::sim
