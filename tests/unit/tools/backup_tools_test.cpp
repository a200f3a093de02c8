// ha_manage_backup against the demo sim: HA's backups (list newest first;
// create waits on the manager's events and sends progress; a backup still in
// progress after the bounded wait; restore and delete preview without
// confirm; delete refuses a backup younger than older_than_days; the
// integration not loaded), and the edit journal (list with filters and
// retention, view, diff, restore through the family's restore, itself
// journaled; delete old edits; a kind not restorable yet).
#include "unit/tools/progress_call.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::value& o, std::string_view key) { return std::string(o.at(key).as_string()); }

class BackupToolsTest : public ProgressCallTest {
 protected:
  template <class F>
  auto with_backups(F fn) {
    std::lock_guard lock(sim->store().mutex());
    return fn(sim->store().home().backup);
  }
  std::size_t backup_count() {
    return with_backups([](sim::BackupManager& m) { return m.backups.size(); });
  }
  // An automation's edit through ha_config_set (a patch of its alias): the edit id.
  std::string edit_automation(const std::string& alias) {
    CallResult got = call("ha_config_get", R"({"kind":"automation","id":"automation.lock_front_door_at_night"})");
    const std::string hash = got.structured.contains("config_hash") ? str(got.structured, "config_hash") : "";
    CallResult r = call("ha_config_set", R"({"kind":"automation","id":"automation.lock_front_door_at_night",
        "config_hash":")" + hash + R"(","patch":[{"op":"replace","path":"/alias","value":")" +
                                             alias + R"("}]})");
    EXPECT_FALSE(r.is_error) << r.text;
    return r.structured.contains("edit_id") ? str(r.structured, "edit_id") : std::string();
  }
};

TEST_F(BackupToolsTest, ListsBackupsNewestFirstWithSizeAgentsAndProtection) {
  start();
  CallResult r = call("ha_manage_backup", R"({"scope":"snapshot","action":"list"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::array& backups = r.structured.at("backups").as_array();
  ASSERT_EQ(backups.size(), 3u) << r.text;
  EXPECT_EQ(str(backups[0], "backup_id"), "c1d2e3f4");
  EXPECT_EQ(str(backups[1], "backup_id"), "9a8b7c6d");
  EXPECT_EQ(str(backups[2], "backup_id"), "5e4f3a2b");
  EXPECT_EQ(backups[0].at("size_bytes").as_int64(), 187430912);
  EXPECT_EQ(str(backups[0], "size"), "178.7 MB");
  EXPECT_EQ(backups[0].at("agents").as_array(), json::array{"backup.local"});
  EXPECT_TRUE(backups[0].at("protected").as_bool());
  EXPECT_FALSE(backups[1].at("protected").as_bool());
  EXPECT_GT(backups[2].at("age_days").as_double(), backups[0].at("age_days").as_double());
  r = call("ha_manage_backup", R"({"action":"list","limit":1})");
  EXPECT_EQ(r.structured.at("backups").as_array().size(), 1u);
  EXPECT_TRUE(r.structured.at("has_more").as_bool());
}

TEST_F(BackupToolsTest, CreateWaitsForTheBackupAndReportsProgress) {
  start();
  auto [response, progress] = call_with_progress(
      "ha_manage_backup", R"({"scope":"snapshot","action":"create","name":"Before MCP"})", "backup-1");
  ASSERT_FALSE(response.is_error) << response.text;
  const json::object& body = response.structured;
  EXPECT_TRUE(body.at("created").as_bool()) << json::serialize(body);
  EXPECT_EQ(str(body.at("backup"), "name"), "Before MCP");
  EXPECT_EQ(body.at("agents").as_array().front().as_string(), "backup.local");
  EXPECT_EQ(backup_count(), 4u);
  ASSERT_GE(progress.size(), 3u) << "start, stages, done";
  EXPECT_EQ(progress.back().at("params").at("progressToken").as_string(), "backup-1");
  // The new backup is the newest in the list.
  CallResult r = call("ha_manage_backup", R"({"action":"list"})");
  EXPECT_EQ(str(r.structured.at("backups").as_array()[0], "name"), "Before MCP");
}

TEST_F(BackupToolsTest, ABackupStillRunningAfterTheWaitSaysHowToCheck) {
  start();
  with_backups([](sim::BackupManager& m) { return m.hold_create = true; });
  CallResult r = call("ha_manage_backup", R"({"action":"create","wait_timeout":0.3})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "created"), "in_progress");
  EXPECT_NE(str(r.structured, "note").find("action=list"), std::string::npos);
  // A second create while the first runs: HA's "busy" as a clear error.
  r = call("ha_manage_backup", R"({"action":"create","wait_timeout":0.3})");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("busy"), std::string::npos) << r.text;
}

TEST_F(BackupToolsTest, RestoreNeedsConfirmAndPreviewsWhatItReplaces) {
  start();
  CallResult r = call("ha_manage_backup", R"({"action":"restore","backup_id":"9a8b7c6d"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("restored").as_bool());
  EXPECT_NE(str(r.structured, "would_replace").find("database"), std::string::npos);
  EXPECT_EQ(with_backups([](sim::BackupManager& m) { return m.restores; }), 0);
  r = call("ha_manage_backup",
           R"({"action":"restore","backup_id":"9a8b7c6d","restore_database":false,"confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "restored"), "started");
  EXPECT_EQ(with_backups([](sim::BackupManager& m) { return m.restores; }), 1);
  // A protected backup without its password; an unknown id names the known ones.
  r = call("ha_manage_backup", R"({"action":"restore","backup_id":"c1d2e3f4","confirm":true})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
  EXPECT_NE(r.text.find("password"), std::string::npos);
  r = call("ha_manage_backup", R"({"action":"restore","backup_id":"nope"})");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("9a8b7c6d"), std::string::npos) << r.text;
}

TEST_F(BackupToolsTest, DeleteNeedsConfirmAndAMinimumAge) {
  start();
  CallResult r = call("ha_manage_backup", R"({"action":"delete","backup_id":"5e4f3a2b"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("deleted").as_bool());
  EXPECT_EQ(backup_count(), 3u);
  r = call("ha_manage_backup", R"({"action":"delete","backup_id":"5e4f3a2b","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("deleted").as_bool());
  EXPECT_EQ(backup_count(), 2u);
  // A backup made just now is too new unless older_than_days says otherwise.
  r = call("ha_manage_backup", R"({"action":"create","name":"Fresh"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string fresh = str(r.structured.at("backup"), "backup_id");
  r = call("ha_manage_backup", R"({"action":"delete","backup_id":")" + fresh + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(str(r.structured, "note").find("older_than_days=0"), std::string::npos) << r.text;
  r = call("ha_manage_backup", R"({"action":"delete","confirm":true,"backup_id":")" + fresh + R"("})");
  EXPECT_EQ(r.code(), "backup_too_new") << r.text;
  EXPECT_EQ(backup_count(), 3u);
  r = call("ha_manage_backup",
           R"({"action":"delete","confirm":true,"older_than_days":0,"backup_id":")" + fresh + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(backup_count(), 2u);
}

TEST_F(BackupToolsTest, DeleteOlderThanDaysPreviewsThenDeletesThoseOnly) {
  start();
  CallResult r = call("ha_manage_backup", R"({"action":"delete","older_than_days":3})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("would_delete").as_array().size(), 3u) << "the demo's backups are older than 3 days";
  // Every demo backup is months old here; with a cut-off beyond the oldest nothing goes.
  r = call("ha_manage_backup", R"({"action":"delete","older_than_days":100000,"confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("deleted").as_array().empty());
  EXPECT_EQ(backup_count(), 3u);
  r = call("ha_manage_backup", R"({"action":"delete","older_than_days":3})");
  CallResult kept = call("ha_manage_backup", R"({"action":"delete","older_than_days":3,"keep_newest":1})");
  ASSERT_FALSE(kept.is_error) << kept.text;
  const json::array& would = kept.structured.at("would_delete").as_array();
  ASSERT_EQ(would.size(), 2u) << "the newest is kept: " << kept.text;
  const json::array& all = r.structured.at("would_delete").as_array();
  EXPECT_EQ(would.at(0).at("backup_id"), all.at(1).at("backup_id"));
  EXPECT_EQ(would.at(1).at("backup_id"), all.at(2).at("backup_id"));
  kept = call("ha_manage_backup", R"({"action":"delete","older_than_days":3,"keep_newest":1,"confirm":true})");
  ASSERT_FALSE(kept.is_error) << kept.text;
  ASSERT_EQ(kept.structured.at("deleted").as_array().size(), 2u) << kept.text;
  for (const auto& one : kept.structured.at("deleted").as_array()) EXPECT_TRUE(one.at("deleted").as_bool());
  EXPECT_EQ(backup_count(), 1u);
}

TEST_F(BackupToolsTest, NoBackupIntegrationIsAClearAnswer) {
  start();
  with_backups([](sim::BackupManager& m) { return m.loaded = false; });
  {
    std::lock_guard lock(sim->store().mutex());
    sim->store().home().supervisor.reset();  // with a Supervisor, its backups answer instead
  }
  CallResult r = call("ha_manage_backup", R"({"action":"list"})");
  EXPECT_EQ(r.code(), "backup_unavailable") << r.text;
  EXPECT_NE(r.text.find("Supervisor"), std::string::npos);
  EXPECT_NE(r.text.find("backup:"), std::string::npos);
}

TEST_F(BackupToolsTest, JournalListsViewsDiffsAndRestoresAnEdit) {
  start();
  const std::string edit = edit_automation("Night lock (edited)");
  ASSERT_FALSE(edit.empty());
  CallResult r = call("ha_manage_backup", R"({"scope":"edits","action":"list","domain":"automation"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::array& edits = r.structured.at("edits").as_array();
  ASSERT_EQ(edits.size(), 1u) << r.text;
  EXPECT_EQ(str(edits[0], "id"), edit);
  EXPECT_EQ(r.structured.at("retention").at("max_edits").as_int64(), 1000);
  r = call("ha_manage_backup", R"({"scope":"edits","action":"list","domain":"script"})");
  EXPECT_TRUE(r.structured.at("edits").as_array().empty());
  r = call("ha_manage_backup", R"({"scope":"edits","action":"view","backup_id":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("after"), "alias"), "Night lock (edited)");
  EXPECT_NE(str(r.structured.at("before"), "alias"), "Night lock (edited)");
  r = call("ha_manage_backup", R"({"scope":"edits","action":"diff","backup_id":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::array& ops = r.structured.at("diff").as_array();
  ASSERT_EQ(ops.size(), 1u) << r.text;
  EXPECT_EQ(str(ops[0], "path"), "/alias");
  const std::string old_alias = [&] {
    CallResult v = call("ha_manage_backup", R"({"scope":"edits","action":"view","backup_id":")" + edit + R"("})");
    return str(v.structured.at("before"), "alias");
  }();
  r = call("ha_manage_backup", R"({"scope":"edits","action":"restore","backup_id":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "restored");
  CallResult got = call("ha_config_get", R"({"kind":"automation","id":"automation.lock_front_door_at_night"})");
  EXPECT_NE(got.text.find(old_alias), std::string::npos) << got.text;
  // The restore is journaled too: two automation edits now.
  r = call("ha_manage_backup",
           R"({"scope":"edits","action":"list","entity_id":"automation.lock_front_door_at_night"})");
  ASSERT_EQ(r.structured.at("edits").as_array().size(), 2u) << r.text;
  EXPECT_EQ(str(r.structured.at("edits").as_array()[0], "action"), "restore");
}

TEST_F(BackupToolsTest, JournalDeletesWithConfirmAndRefusesUnknownAndUnrestorable) {
  start();
  const std::string edit = edit_automation("Renamed once");
  ASSERT_FALSE(edit.empty());
  CallResult r = call("ha_manage_backup", R"({"scope":"edits","action":"delete","older_than_days":0})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("would_delete").as_array().size(), 1u);
  EXPECT_EQ(env->journal.size(), 1u);
  r = call("ha_manage_backup", R"({"scope":"edits","action":"delete","backup_id":")" + edit + R"(","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(env->journal.size(), 0u);
  r = call("ha_manage_backup", R"({"scope":"edits","action":"view","backup_id":")" + edit + R"("})");
  EXPECT_EQ(r.code(), "edit_not_found") << r.text;
  // A registry creation: not restorable, said clearly, nothing changed.
  r = call("ha_set_registry", R"({"kind":"label","name":"Backup test label"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string label_edit = str(r.structured, "edit_id");
  r = call("ha_manage_backup", R"({"scope":"edits","action":"restore","backup_id":")" + label_edit + R"("})");
  EXPECT_EQ(r.code(), "not_restorable") << r.text;
  EXPECT_NE(r.text.find("ha_remove_registry"), std::string::npos) << r.text;
  r = call("ha_manage_backup", R"({"scope":"edits","action":"create"})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
  r = call("ha_manage_backup", R"({"scope":"edits","action":"create","entity_id":"automation.nope_nope"})");
  EXPECT_TRUE(r.is_error) << r.text;
}

TEST_F(BackupToolsTest, ARegistryUpdateIsRestoredFieldByField) {
  start();
  CallResult r = call("ha_set_registry", R"({"kind":"label","name":"Restorable","color":"red"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string label = str(r.structured, "id");
  r = call("ha_set_registry", R"({"kind":"label","id":")" + label + R"(","name":"Renamed","icon":"mdi:star"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string edit = str(r.structured, "edit_id");
  r = call("ha_manage_backup", R"({"scope":"edits","action":"restore","backup_id":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_get_registry", R"({"kind":"label","id":")" + label + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("\"name\":\"Restorable\""), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("mdi:star"), std::string::npos) << "the icon the edit added is cleared: " << r.text;
  EXPECT_NE(r.text.find("red"), std::string::npos) << r.text;
}

TEST_F(BackupToolsTest, ARestorePointPutsItsVersionBack) {
  start();
  CallResult r = call("ha_manage_backup",
                      R"({"scope":"edits","action":"create","entity_id":"automation.lock_front_door_at_night"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string point = str(r.structured, "edit_id");
  const std::string original = [&] {
    CallResult v = call("ha_manage_backup", R"({"scope":"edits","action":"view","backup_id":")" + point + R"("})");
    EXPECT_EQ(str(v.structured, "action"), "snapshot");
    return str(v.structured.at("before"), "alias");
  }();
  ASSERT_FALSE(edit_automation("Changed after the restore point").empty());
  r = call("ha_manage_backup", R"({"scope":"edits","action":"restore","backup_id":")" + point + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  CallResult got = call("ha_config_get", R"({"kind":"automation","id":"automation.lock_front_door_at_night"})");
  EXPECT_EQ(str(got.structured.at("config"), "alias"), original);
}

TEST_F(BackupToolsTest, ReadOnlyReadsButNeitherDeletesEditsNorCreatesBackups) {
  EntityToolsOptions options;
  options.read_only = true;
  start(options);
  CallResult r = call("ha_manage_backup", R"({"scope":"edits","action":"list"})");
  EXPECT_FALSE(r.is_error) << r.text;
  r = call("ha_manage_backup", R"({"scope":"edits","action":"delete","older_than_days":0,"confirm":true})");
  EXPECT_EQ(r.code(), "read_only") << r.text;
  r = call("ha_manage_backup", R"({"action":"create"})");
  EXPECT_EQ(r.code(), "read_only") << r.text;
  EXPECT_EQ(backup_count(), 3u);
}

}  // namespace
}  // namespace hamcp::tools::testing
