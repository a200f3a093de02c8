// The backup integration's WebSocket commands in HA 2026.2's shapes: info
// (the demo's dated backups, the manager's state), details, agents, config;
// generate (events before and after its result, then the new backup), busy,
// bad agents; restore (not found, password, events) and delete; subscribe
// (the last event first); and every command unknown without the integration.
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim::testing {
namespace {

class BackupCommandsTest : public WsCommandTest {
 protected:
  // Stages at once: this fixture's core does not outlive a thread that spaces them.
  void SetUp() override {
    core.store().home().backup.stage_delay_ms = 0;
    WsCommandTest::SetUp();
  }
  // Events of subscription `sub` among the frames sent so far.
  std::vector<json::object> events_of(int64_t sub) {
    std::vector<json::object> events;
    for (auto& m : out)
      if (m.at("type") == "event" && m.at("id") == sub) events.push_back(m.at("event").as_object());
    return events;
  }
  int64_t subscribe() {
    const int64_t id = ++next_id;
    out.clear();
    conn->on_message(json::serialize(json::object{{"id", id}, {"type", "backup/subscribe_events"}}));
    return id;
  }
};

TEST_F(BackupCommandsTest, InfoListsTheDemoBackupsInHasShape) {
  const json::object r = cmd({{"type", "backup/info"}});
  ASSERT_TRUE(r.at("success").as_bool());
  const json::object& info = r.at("result").as_object();
  for (const char* key :
       {"agent_errors", "backups", "last_attempted_automatic_backup", "last_completed_automatic_backup",
        "last_action_event", "next_automatic_backup", "next_automatic_backup_additional", "state"})
    EXPECT_TRUE(info.contains(key)) << key;
  EXPECT_EQ(info.at("state").as_string(), "idle");
  const json::array& backups = info.at("backups").as_array();
  ASSERT_EQ(backups.size(), 3u);
  const json::object& b = backups[0].as_object();
  for (const char* key : {"addons", "backup_id", "date", "database_included", "extra_metadata", "folders",
                          "homeassistant_included", "homeassistant_version", "name", "agents", "failed_addons",
                          "failed_agent_ids", "failed_folders", "with_automatic_settings"})
    EXPECT_TRUE(b.contains(key)) << key;
  EXPECT_TRUE(b.at("agents").at("backup.local").at("protected").is_bool());
  EXPECT_TRUE(b.at("agents").at("backup.local").at("size").is_int64());
  const json::object d = cmd({{"type", "backup/details"}, {"backup_id", "9a8b7c6d"}});
  EXPECT_EQ(d.at("result").at("backup").at("name").as_string(), "Before the heating rework");
  EXPECT_TRUE(cmd({{"type", "backup/details"}, {"backup_id", "nope"}}).at("result").at("backup").is_null());
  EXPECT_EQ(cmd({{"type", "backup/agents/info"}}).at("result").at("agents").at(0).at("agent_id").as_string(),
            "backup.local");
  EXPECT_TRUE(cmd({{"type", "backup/config/info"}}).at("result").at("config").at("create_backup").is_object());
}

TEST_F(BackupCommandsTest, GenerateSendsEventsAroundItsResultThenTheBackupIsListed) {
  const int64_t sub = subscribe();
  ASSERT_EQ(events_of(sub).size(), 1u) << "the last event comes first";
  EXPECT_EQ(events_of(sub)[0].at("manager_state").as_string(), "idle");
  const json::object r =
      cmd({{"type", "backup/generate"}, {"agent_ids", json::array{"backup.local"}}, {"name", "Mine"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_TRUE(r.at("result").at("backup_job_id").is_string());
  const auto events = events_of(sub);
  ASSERT_GE(events.size(), 4u);
  EXPECT_EQ(events.front().at("state").as_string(), "in_progress");
  EXPECT_EQ(events[events.size() - 2].at("state").as_string(), "completed");
  EXPECT_EQ(events.back().at("manager_state").as_string(), "idle");
  const json::object info = cmd({{"type", "backup/info"}});
  const json::array& backups = info.at("result").at("backups").as_array();
  ASSERT_EQ(backups.size(), 4u);
  EXPECT_EQ(backups.back().at("name").as_string(), "Mine");
}

TEST_F(BackupCommandsTest, GenerateRefusesBadAgentsAndABusyManager) {
  json::object r = cmd({{"type", "backup/generate"}, {"agent_ids", json::array{"cloud.x"}}});
  EXPECT_EQ(code(r), "home_assistant_error");
  EXPECT_NE(message(r).find("At least one available backup agent"), std::string::npos);
  EXPECT_EQ(code(cmd({{"type", "backup/generate"}})), "invalid_format");
  core.store().home().backup.hold_create = true;
  EXPECT_TRUE(cmd({{"type", "backup/generate"}, {"agent_ids", json::array{"backup.local"}}}).at("success").as_bool());
  r = cmd({{"type", "backup/generate"}, {"agent_ids", json::array{"backup.local"}}});
  EXPECT_EQ(message(r), "Backup manager busy: create_backup");
}

TEST_F(BackupCommandsTest, RestoreAndDelete) {
  EXPECT_EQ(code(cmd({{"type", "backup/restore"}, {"backup_id", "nope"}, {"agent_id", "backup.local"}})),
            "backup_not_found");
  EXPECT_EQ(code(cmd({{"type", "backup/restore"}, {"backup_id", "c1d2e3f4"}, {"agent_id", "backup.local"}})),
            "password_incorrect");
  const json::object r = cmd({{"type", "backup/restore"}, {"backup_id", "9a8b7c6d"}, {"agent_id", "backup.local"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_TRUE(r.at("result").is_null());
  EXPECT_EQ(core.store().home().backup.restores, 1);
  const json::object d = cmd({{"type", "backup/delete"}, {"backup_id", "9a8b7c6d"}});
  EXPECT_TRUE(d.at("result").at("agent_errors").as_object().empty());
  EXPECT_EQ(cmd({{"type", "backup/info"}}).at("result").at("backups").as_array().size(), 2u);
  // HA's local agent ignores an unknown id.
  EXPECT_TRUE(cmd({{"type", "backup/delete"}, {"backup_id", "9a8b7c6d"}}).at("success").as_bool());
}

TEST_F(BackupCommandsTest, UnknownWithoutTheIntegration) {
  core.store().home().backup.loaded = false;
  EXPECT_EQ(code(cmd({{"type", "backup/info"}})), "unknown_command");
  EXPECT_EQ(code(cmd({{"type", "backup/generate"}, {"agent_ids", json::array{"backup.local"}}})), "unknown_command");
}

}  // namespace
}  // namespace hamcp::sim::testing
