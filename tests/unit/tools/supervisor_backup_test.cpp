// Issue 13 items 3 and 6 on HA OS, against the demo sim's Supervisor:
// ha_manage_backup via="supervisor" (list, create full/partial following the
// job with progress notifications, restore and delete behind confirm, the
// minimum age, a refused folder, the fallback when HA's backup integration
// is absent); ha_manage_app install/update as background jobs with progress;
// an add-on configuration edit restored from the journal (masked secrets,
// refused when the add-on changed after the edit).
#include <algorithm>

#include "common/iso_time.hpp"
#include "unit/tools/progress_call.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::value& v, std::string_view key) { return std::string(v.at(key).as_string()); }

class SupervisorBackupTest : public ProgressCallTest {
 protected:
  template <class F>
  auto with_supervisor(F fn) {
    std::lock_guard lock(sim->store().mutex());
    return fn(*sim->store().home().supervisor);
  }
  std::size_t backup_count() {
    return with_supervisor([](sim::SupervisorData& d) { return d.backups.size(); });
  }
  std::size_t job_count() {
    return with_supervisor([](sim::SupervisorData& d) { return d.jobs.size(); });
  }
};

TEST_F(SupervisorBackupTest, ListsTheSupervisorsBackupsNewestFirst) {
  start();
  CallResult r = call("ha_manage_backup", R"({"action":"list","via":"supervisor"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "via"), "supervisor");
  const json::array& backups = r.structured.at("backups").as_array();
  ASSERT_EQ(backups.size(), 2u);
  EXPECT_EQ(str(backups[0], "backup_id"), "b71e44d5");
  EXPECT_EQ(str(backups[0], "type"), "partial");
  EXPECT_EQ(str(backups[1], "size"), "182.4 MB");

  CallResult view = call("ha_manage_backup", R"({"action":"view","via":"supervisor","backup_id":"9f3c1a20"})");
  ASSERT_FALSE(view.is_error) << view.text;
  EXPECT_EQ(view.structured.at("details").at("addons").as_array().size(), 3u);
}

TEST_F(SupervisorBackupTest, CreateFullFollowsTheJobWithProgress) {
  start();
  auto [r, progress] =
      call_with_progress("ha_manage_backup", R"({"action":"create","via":"supervisor","name":"x"})", "sup-1");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("created").as_bool(), true);
  EXPECT_EQ(str(r.structured, "type"), "full");
  EXPECT_EQ(str(r.structured.at("backup"), "name"), "x");
  EXPECT_TRUE(r.structured.at("job").at("done").as_bool());
  EXPECT_EQ(backup_count(), 3u);
  ASSERT_GE(progress.size(), 3u) << "start, half way, done";
  EXPECT_EQ(str(progress.back().at("params"), "progressToken"), "sup-1");
  EXPECT_EQ(progress.back().at("params").at("progress").to_number<double>(), 100.0);
  // The Supervisor's backup job stays at progress 0 until done, only its stage
  // moves: each stage is still a notification, its number rising.
  std::vector<std::string> messages;
  double last = -1;
  for (const auto& p : progress) {
    messages.push_back(str(p.at("params"), "message"));
    EXPECT_GT(p.at("params").at("progress").to_number<double>(), last);
    last = p.at("params").at("progress").to_number<double>();
  }
  for (const char* stage : {"backup: home_assistant", "backup: addons", "backup: folders"})
    EXPECT_NE(std::find(messages.begin(), messages.end(), stage), messages.end()) << stage;
}

// An add-on whose archive cannot be written leaves the Supervisor's backup
// without it (its errors only on the child jobs): the answer warns and names it.
TEST_F(SupervisorBackupTest, CreateWarnsOfAnAddonThatCouldNotBeWritten) {
  start();
  with_supervisor([](sim::SupervisorData& d) { d.backup_fault = "addon_save"; });
  CallResult r = call("ha_manage_backup", R"({"action":"create","via":"supervisor","addons":["core_mosquitto"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("created").as_bool(), true);
  EXPECT_NE(str(r.structured, "warning").find("an add-on that failed is not in the backup"), std::string::npos);
  EXPECT_EQ(str(r.structured.at("errors").at(0), "reference"), "core_mosquitto");
  EXPECT_EQ(str(r.structured.at("errors").at(0), "type"), "BackupRestoreUnknownError");
  // The backup file itself failing: no backup, the job's own BackupError.
  const std::size_t before = backup_count();
  with_supervisor([](sim::SupervisorData& d) { d.backup_fault = "file"; });
  CallResult lost = call("ha_manage_backup", R"({"action":"create","via":"supervisor","name":"y"})");
  EXPECT_EQ(lost.code(), "backup_failed") << lost.text;
  EXPECT_NE(lost.text.find("error, see supervisor logs"), std::string::npos) << lost.text;
  EXPECT_EQ(backup_count(), before);
}

TEST_F(SupervisorBackupTest, CreatePartialBacksUpOnlyWhatIsNamed) {
  start();
  CallResult r = call("ha_manage_backup", R"({"action":"create","addons":["core_mosquitto"],"folders":["share"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "via"), "supervisor");
  EXPECT_EQ(str(r.structured, "type"), "partial") << r.text;
  ASSERT_TRUE(r.structured.contains("backup")) << r.text;
  const json::object& content = r.structured.at("backup").as_object();
  EXPECT_EQ(content.at("addons").as_array().size(), 1u) << r.text;
  EXPECT_EQ(content.at("homeassistant"), false);

  CallResult bad = call("ha_manage_backup", R"({"action":"create","folders":["etc"]})");
  EXPECT_EQ(bad.code(), "supervisor_refused") << bad.text;
  EXPECT_NE(bad.text.find("folders"), std::string::npos);
  EXPECT_EQ(backup_count(), 3u);
}

TEST_F(SupervisorBackupTest, RestoreNeedsConfirmThenFollowsItsJob) {
  start();
  CallResult preview = call("ha_manage_backup", R"({"action":"restore","via":"supervisor","backup_id":"b71e44d5"})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_EQ(preview.structured.at("restored").as_bool(), false);
  EXPECT_EQ(job_count(), 0u) << "a preview starts nothing";

  CallResult done =
      call("ha_manage_backup",
           R"({"action":"restore","backup_id":"b71e44d5","addons":["45df7312_zigbee2mqtt"],"confirm":true})");
  ASSERT_FALSE(done.is_error) << done.text;
  EXPECT_EQ(done.structured.at("restored").as_bool(), true);
  EXPECT_EQ(str(done.structured.at("job"), "name"), "backup_manager_partial_restore");

  CallResult missing = call("ha_manage_backup", R"({"action":"restore","via":"supervisor","backup_id":"nope"})");
  EXPECT_EQ(missing.code(), "supervisor_refused") << missing.text;
}

TEST_F(SupervisorBackupTest, DeleteNeedsConfirmAndAMinimumAge) {
  start();
  CallResult made = call("ha_manage_backup", R"({"action":"create","via":"supervisor"})");
  ASSERT_FALSE(made.is_error) << made.text;
  const std::string fresh = str(made.structured.at("backup"), "backup_id");
  CallResult young =
      call("ha_manage_backup", R"({"action":"delete","via":"supervisor","confirm":true,"backup_id":")" + fresh + "\"}");
  EXPECT_EQ(young.code(), "backup_too_new") << young.text;
  EXPECT_EQ(backup_count(), 3u);

  CallResult preview = call("ha_manage_backup", R"({"action":"delete","via":"supervisor","backup_id":"9f3c1a20"})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_EQ(preview.structured.at("deleted").as_bool(), false);
  EXPECT_EQ(backup_count(), 3u);
  CallResult gone =
      call("ha_manage_backup", R"({"action":"delete","via":"supervisor","backup_id":"9f3c1a20","confirm":true})");
  ASSERT_FALSE(gone.is_error) << gone.text;
  EXPECT_EQ(backup_count(), 2u);
}

// Four backups 1, 5, 10 and 20 days old: older_than_days=3 with keep_newest=2
// names exactly the 10- and 20-day ones, previews them, then deletes them one by one.
TEST_F(SupervisorBackupTest, DeleteByAgeKeepsTheNewestAndReportsEachOutcome) {
  start();
  with_supervisor([](sim::SupervisorData& d) {
    d.backups.clear();
    for (int days : {20, 1, 10, 5}) {
      sim::SimBackup b;
      b.slug = "aged" + std::to_string(days);
      b.name = "Backup " + std::to_string(days);
      b.date = common::format_iso_time(common::now_epoch_seconds() - days * 86400.0);
      d.backups.push_back(b);
    }
  });
  const std::string ask = R"({"action":"delete","via":"supervisor","older_than_days":3,"keep_newest":2)";
  CallResult preview = call("ha_manage_backup", ask + "}");
  ASSERT_FALSE(preview.is_error) << preview.text;
  const json::array& would = preview.structured.at("would_delete").as_array();
  ASSERT_EQ(would.size(), 2u) << preview.text;
  EXPECT_EQ(str(would.at(0), "backup_id"), "aged10");
  EXPECT_EQ(str(would.at(1), "backup_id"), "aged20");
  EXPECT_EQ(backup_count(), 4u);

  CallResult done = call("ha_manage_backup", ask + R"(,"confirm":true})");
  ASSERT_FALSE(done.is_error) << done.text;
  const json::array& deleted = done.structured.at("deleted").as_array();
  ASSERT_EQ(deleted.size(), 2u) << done.text;
  for (const auto& one : deleted) EXPECT_TRUE(one.at("deleted").as_bool()) << done.text;
  EXPECT_EQ(backup_count(), 2u);
  CallResult bad = call("ha_manage_backup", R"({"action":"delete","via":"supervisor","keep_newest":-1})");
  EXPECT_EQ(bad.code(), "invalid_argument") << bad.text;
  EXPECT_NE(bad.text.find("keep_newest"), std::string::npos) << bad.text;
}

TEST_F(SupervisorBackupTest, WithoutTheBackupIntegrationTheSupervisorAnswers) {
  start();
  {
    std::lock_guard lock(sim->store().mutex());
    sim->store().home().backup.loaded = false;
  }
  CallResult r = call("ha_manage_backup", R"({"action":"list"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "via"), "supervisor");

  CallResult forced = call("ha_manage_backup", R"({"action":"list","via":"integration"})");
  EXPECT_EQ(forced.code(), "backup_unavailable") << forced.text;
  CallResult bad = call("ha_manage_backup", R"({"action":"list","via":"cloud"})");
  EXPECT_NE(bad.text.find("via"), std::string::npos) << bad.text;
  EXPECT_TRUE(bad.is_error);
}

TEST_F(SupervisorBackupTest, TheIntegrationsAnswersSayVia) {
  start();
  CallResult r = call("ha_manage_backup", R"({"action":"list"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "via"), "integration");
}

TEST_F(SupervisorBackupTest, AddonInstallAndUpdateFollowTheirJobs) {
  start();
  auto [installed, progress] = call_with_progress("ha_manage_app", R"({"action":"install","slug":"core_ssh"})");
  ASSERT_FALSE(installed.is_error) << installed.text;
  EXPECT_TRUE(installed.structured.at("done").as_bool());
  EXPECT_EQ(str(installed.structured.at("job"), "name"), "addon_manager_install");
  EXPECT_EQ(str(installed.structured.at("addon"), "version"), "9.19.0");
  ASSERT_GE(progress.size(), 4u) << "start and each step of the job";
  EXPECT_EQ(progress.back().at("params").at("progress").to_number<double>(), 100.0);
  // The Supervisor's install job has no stage: the messages name its running child job.
  EXPECT_EQ(str(progress.at(1).at("params"), "message"), "install core_ssh: addon_install");
  EXPECT_EQ(installed.structured.at("job").at("steps"),
            (json::array{json::object{{"name", "addon_install"}, {"done", true}}}));

  auto [updated, update_progress] =
      call_with_progress("ha_manage_app", R"({"action":"update","slug":"core_mosquitto","confirm":true})", "up-1");
  ASSERT_FALSE(updated.is_error) << updated.text;
  EXPECT_EQ(str(updated.structured.at("addon"), "version"), "6.5.2");
  EXPECT_TRUE(updated.structured.at("job").at("done").as_bool());
  ASSERT_GE(update_progress.size(), 3u);
  EXPECT_EQ(str(update_progress.at(1).at("params"), "message"), "update core_mosquitto: addon_update");
  json::array names;
  for (const auto& step : updated.structured.at("job").at("steps").as_array()) names.push_back(step.at("name"));
  EXPECT_EQ(names, (json::array{"addon_update", "addon_stop", "addon_start"})) << updated.text;

  CallResult again = call("ha_manage_app", R"({"action":"install","slug":"core_ssh"})");
  EXPECT_EQ(again.code(), "supervisor_refused") << again.text;
}

TEST_F(SupervisorBackupTest, AnAddonConfigEditIsRestoredFromTheJournal) {
  start();
  CallResult set = call("ha_manage_app", R"({"action":"configure","slug":"core_mosquitto",
      "options":{"require_certificate":true},"boot":"manual"})");
  ASSERT_FALSE(set.is_error) << set.text;
  const std::string edit = str(set.structured, "edit_id");

  CallResult view = call("ha_manage_backup", R"({"scope":"edits","action":"view","backup_id":")" + edit + "\"}");
  ASSERT_FALSE(view.is_error) << view.text;
  EXPECT_EQ(view.text.find("zb-Secret-42"), std::string::npos) << "secrets stay masked in journal views";

  CallResult restored = call("ha_manage_backup", R"({"scope":"edits","action":"restore","backup_id":")" + edit + "\"}");
  ASSERT_FALSE(restored.is_error) << restored.text;
  EXPECT_EQ(restored.text.find("zb-Secret-42"), std::string::npos);
  EXPECT_FALSE(str(restored.structured, "edit_id").empty());
  const auto mosquitto = with_supervisor([](sim::SupervisorData& d) { return d.addons.front(); });
  EXPECT_EQ(mosquitto.boot, "auto");
  EXPECT_EQ(mosquitto.options.at("require_certificate").as_bool(), false);
  EXPECT_EQ(str(mosquitto.options.at("logins").at(0), "password"), "zb-Secret-42");

  CallResult stale = call("ha_manage_backup", R"({"scope":"edits","action":"restore","backup_id":")" + edit + "\"}");
  EXPECT_EQ(stale.code(), "config_hash_mismatch") << stale.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
