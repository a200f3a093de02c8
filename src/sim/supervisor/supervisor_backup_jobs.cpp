// The job trees of the simulated Supervisor's backups and restores, as
// Supervisor 2026.02 builds them (supervisor/backups/manager.py, backup.py,
// jobs/__init__.py): the backup_manager_* job has no progress of its own (0
// until done, then 100) and moves through `stage` (BackupJobStage,
// RestoreJobStage: only the stages its content needs, in the manager's
// order); each content stage runs the Backup's jobs as child jobs
// (backup_store_addons > backup_addon_save per add-on, ...; cleanup=False,
// so they stay listed). The "addon_save" fault fails each backup_addon_save
// (Addon.backup's tar error: BackupRestoreUnknownError, captured again by
// backup_store_addons, the backup kept without the add-on); the "file" fault
// fails writing the backup file (_do_backup: the job's captured BackupError
// at finishing_file, the tar unlinked).
#include <string>
#include <vector>

#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim::supervisor_detail {
namespace {

bool is_restore(const SimJob& j) { return j.name.find("_restore") != std::string::npos; }

// One child job object; uuids derived from the job's, one per child.
struct ChildMaker {
  const SimJob& job;
  std::size_t next = 0;
  json::object make(const std::string& name, json::value reference, bool done, json::array errors = {},
                    json::array children = {}) {
    json::object o = job_object(job, name, job.uuid.substr(0, 24) + std::to_string(100000 + next++),
                                done && errors.empty() ? 100.0 : 0.0, done, std::move(children));
    o["reference"] = std::move(reference);
    o["errors"] = std::move(errors);
    return o;
  }
};

json::object unknown_backup_error() {
  return json::object{{"type", "BackupRestoreUnknownError"},
                      {"message",
                       "An unknown error occurred during backup/restore. Check supervisor logs for details (check "
                       "with 'ha supervisor logs')"},
                      {"stage", nullptr},
                      {"error_key", "backup_restore_unknown_error"},
                      {"extra_fields", json::object{{"logs_command", "ha supervisor logs"}}}};
}

// A group job (backup_store_addons, ...) with one item job per add-on or
// folder; while running, its first item runs.
json::object group_job(ChildMaker& m, const std::string& group, const std::string& item,
                       const std::vector<std::string>& refs, bool done, bool items_fail) {
  json::array items, group_errors;
  for (std::size_t i = 0; i < refs.size() && (done || i == 0); ++i) {
    json::array errors;
    if (done && items_fail) {
      errors.push_back(unknown_backup_error());
      group_errors.push_back(unknown_backup_error());
    }
    items.push_back(m.make(item, json::value(refs[i]), done, std::move(errors)));
  }
  json::object o = m.make(group, nullptr, done, {}, std::move(items));
  if (!group_errors.empty()) {  // store_addons captures each add-on's error and ends normally
    o["errors"] = std::move(group_errors);
    o["progress"] = 100.0;
  }
  return o;
}

json::object stage_job(ChildMaker& m, const std::string& stage, bool done) {
  const SimBackup& c = m.job.content;
  if (is_restore(m.job)) {
    if (stage == "folders")
      return group_job(m, "backup_restore_folders", "backup_folder_restore", c.folders, done, false);
    if (stage == "home_assistant") return m.make("backup_restore_homeassistant", nullptr, done);
    if (stage == "remove_delta_addons") return m.make("backup_remove_delta_addons", nullptr, done);
    return group_job(m, "backup_restore_addons", "backup_addon_restore", c.addons, done, false);
  }
  if (stage == "home_assistant") return m.make("backup_store_homeassistant", nullptr, done);
  if (stage == "folders") return group_job(m, "backup_store_folders", "backup_folder_save", c.folders, done, false);
  return group_job(m, "backup_store_addons", "backup_addon_save", c.addons, done, m.job.fault == "addon_save");
}

bool has_child_job(std::string_view stage, bool restore) {
  if (restore)
    return stage == "folders" || stage == "home_assistant" || stage == "remove_delta_addons" || stage == "addons";
  return stage == "home_assistant" || stage == "addons" || stage == "folders";
}

}  // namespace

bool is_stage_job(const SimJob& j) {
  return j.name.rfind("backup_manager_", 0) == 0 && (j.name.ends_with("_backup") || j.name.ends_with("_restore"));
}

std::vector<std::string> stages_of(const SimJob& j) {
  if (!is_stage_job(j)) return {};
  const SimBackup& c = j.content;
  std::vector<std::string> s;
  if (!is_restore(j)) {  // _create_backup, then _do_backup
    s.emplace_back("addon_repositories");
    if (c.homeassistant) s.emplace_back("home_assistant");
    if (!c.addons.empty()) s.emplace_back("addons");
    if (!c.folders.empty()) s.emplace_back("folders");
    s.emplace_back("finishing_file");
    return s;
  }
  if (!c.folders.empty()) s.emplace_back("folders");  // _do_restore
  if (c.homeassistant) s.emplace_back("home_assistant");
  if (j.full) s.emplace_back("remove_delta_addons");
  if (!c.addons.empty()) {
    s.emplace_back("addon_repositories");
    s.emplace_back("addons");
  }
  if (c.homeassistant) s.emplace_back("await_home_assistant_restart");
  return s;
}

json::array stage_child_jobs(const SimJob& j, std::size_t at) {
  const std::vector<std::string> stages = stages_of(j);
  ChildMaker m{j};
  json::array out;
  for (std::size_t i = 0; i < stages.size() && i <= at; ++i)
    if (has_child_job(stages[i], is_restore(j))) out.push_back(stage_job(m, stages[i], j.done || i < at));
  return out;
}

json::array backup_job_errors(const SimJob& j) {
  if (!j.done || j.fault != "file" || is_restore(j)) return {};
  return json::array{json::object{{"type", "BackupError"},
                                  {"message", "Backup " + j.reference + " error, see supervisor logs"},
                                  {"stage", "finishing_file"},
                                  {"error_key", nullptr},
                                  {"extra_fields", nullptr}}};
}

}  // namespace hamcp::sim::supervisor_detail
