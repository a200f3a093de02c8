// /jobs/info and /jobs/{uuid} of the simulated Supervisor
// (supervisor/api/jobs.py, supervisor/jobs/__init__.py SupervisorJob.as_dict
// with child_jobs). Backups and restores move through `stage`, their content's
// work as child jobs (supervisor_backup_jobs.cpp). Add-on install and update
// keep stage null, as the Supervisor's do: their progress is the image pull's
// (an internal job, not listed), and their steps are child jobs:
// addon_install; addon_update, with addon_stop and addon_start after the pull
// when the add-on runs; an update with backup has the partial backup it made
// first (backup_manager_partial_backup, its own tree), or, when the backup
// manager was busy, no child jobs and a BackupJobError.
#include <algorithm>
#include <string>
#include <vector>

#include "common/iso_time.hpp"
#include "sim/supervisor/supervisor_api.hpp"
#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim::supervisor_detail {

json::object job_object(const SimJob& j, const std::string& name, std::string uuid, double progress, bool done,
                        json::array children) {
  return json::object{{"name", name},
                      {"reference", j.reference},
                      {"uuid", std::move(uuid)},
                      {"progress", progress},
                      {"stage", nullptr},
                      {"done", done},
                      {"errors", json::array{}},
                      {"created", j.created},
                      {"extra", nullptr},
                      {"child_jobs", std::move(children)}};
}

namespace {

std::string child_uuid(const SimJob& j, std::size_t i) { return j.uuid.substr(0, 24) + std::to_string(100000 + i); }

// The partial backup an update with backup made before its pull, finished
// (backup_manager_partial_backup, reference: the backup's slug, its last
// stage), with the jobs the Supervisor keeps (cleanup=False).
json::object update_backup_job(const SimJob& j) {
  SimJob backup = j;
  backup.name = "backup_manager_partial_backup";
  backup.uuid = "b" + j.uuid.substr(1);  // its own children's uuids start with its own
  backup.reference = j.backup;
  backup.done = true;
  const std::vector<std::string> stages = stages_of(backup);
  json::object o =
      job_object(backup, backup.name, backup.uuid, 100.0, true, stage_child_jobs(backup, stages.size() - 1));
  o["stage"] = stages.back();
  o["errors"] = backup_job_errors(backup);
  return o;
}

// An add-on install's or update's child jobs so far: addon_install/addon_update
// run for the whole pull (progress 0 until done: no progress sync of their own);
// an update with backup makes it first; a running add-on is stopped and
// started again after the update's pull. An update its backup ended has none.
json::array addon_jobs(SupervisorData& d, const SimJob& j) {
  const double done_progress = j.done ? 100.0 : 0.0;
  if (j.name == "addon_manager_install")
    return json::array{job_object(j, "addon_install", child_uuid(j, 0), done_progress, j.done)};
  if (j.name != "addon_manager_update" || !j.errors.empty()) return {};
  json::array steps;
  if (!j.backup.empty()) steps.push_back(update_backup_job(j));
  json::array around;
  const SimAddon* addon = find_addon(d, j.reference);
  if (j.done && addon && addon->state == "started")
    for (const char* step : {"addon_stop", "addon_start"})
      around.push_back(job_object(j, step, child_uuid(j, 1 + around.size()), 100.0, true));
  steps.push_back(job_object(j, "addon_update", child_uuid(j, 0), done_progress, j.done, std::move(around)));
  return steps;
}

// The stage a backup or restore job has reached (its index; 0 for other jobs).
std::size_t stage_index(const SimJob& j, std::size_t stages) {
  if (stages == 0) return 0;
  const auto at = static_cast<std::size_t>(j.progress / 100.0 * static_cast<double>(stages));
  return std::min(at, stages - 1);
}

json::object job_json(SupervisorData& d, const SimJob& j) {
  if (!is_stage_job(j)) {
    json::object o = job_object(j, j.name, j.uuid, j.progress, j.done, addon_jobs(d, j));
    o["stage"] = j.stage.empty() ? json::value(nullptr) : json::value(j.stage);
    o["errors"] = j.errors;
    return o;
  }
  const std::size_t at = stage_index(j, stages_of(j).size());
  json::object o = job_object(j, j.name, j.uuid, j.done ? 100.0 : 0.0, j.done, stage_child_jobs(j, at));
  o["stage"] = j.stage.empty() ? json::value(nullptr) : json::value(j.stage);
  json::array errors = j.errors;
  for (auto& e : backup_job_errors(j)) errors.push_back(std::move(e));
  o["errors"] = std::move(errors);
  return o;
}

// Each GET moves the job one step (deterministic: tests count polls, not time).
RestResponse job_info(RestCall& c, SupervisorData& d) {
  auto it = d.jobs.find(c.path[0]);
  if (it == d.jobs.end()) return error(404, "Job does not exist");
  SimJob& j = it->second;
  if (!j.done) {
    j.progress = std::min(100.0, j.progress + j.step);
    j.done = j.progress >= 100;
    const std::vector<std::string> stages = stages_of(j);
    if (!stages.empty()) j.stage = stages[stage_index(j, stages.size())];
  }
  return ok(job_json(d, j));
}

// The JobManager's jobs, newest first (the list does not move them; the
// uuids start with the job's serial number, all of one width).
RestResponse jobs_info(RestCall&, SupervisorData& d) {
  json::array out;
  for (auto it = d.jobs.rbegin(); it != d.jobs.rend(); ++it) out.push_back(job_json(d, it->second));
  return ok(json::object{{"ignore_conditions", json::array{}}, {"jobs", std::move(out)}});
}

}  // namespace

std::string start_job(SupervisorData& d, std::string name, std::string reference, double step) {
  SimJob j;
  j.uuid = "9c1e" + std::to_string(1000000 + d.next_id++) + "0f2b4a6d8e0a1c3e5f7a9b";
  j.name = std::move(name);
  j.reference = std::move(reference);
  j.created = common::format_iso_time(common::now_epoch_seconds());
  j.step = step;
  j.done = step >= 100;
  j.progress = j.done ? 100 : 0;
  const std::string uuid = j.uuid;
  d.jobs[uuid] = std::move(j);
  return uuid;
}

RestResponse job_answer(const std::string& uuid, json::object extra) {
  extra["job_id"] = uuid;
  return ok(std::move(extra));
}

void add_job_routes(RestRouter& r) {
  r.add("GET", "/jobs/info", guarded(jobs_info));  // before /jobs/{uuid}: the first match answers
  r.add("GET", "/jobs/{uuid}", guarded(job_info));
}

}  // namespace hamcp::sim::supervisor_detail
