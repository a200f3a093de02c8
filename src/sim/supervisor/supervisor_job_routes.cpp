// /jobs/info and /jobs/{uuid} of the simulated Supervisor
// (supervisor/api/jobs.py, supervisor/jobs/__init__.py SupervisorJob.as_dict
// with child_jobs). Backups and restores pass stages (backups/const.py), each
// a child job. Add-on install and update keep stage null, as the Supervisor's
// do: their progress is the image pull's (an internal job, not listed), and
// their steps are child jobs: addon_install; addon_update, with addon_stop and
// addon_start after the pull when the add-on runs; an update with backup has
// the partial backup it made first (backup_manager_partial_backup), or, when
// the backup manager was busy, no child jobs and a BackupJobError.
#include <algorithm>
#include <string>
#include <vector>

#include "common/iso_time.hpp"
#include "sim/supervisor/supervisor_api.hpp"
#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim::supervisor_detail {
namespace {

// The stages a backup or restore passes (BackupJobStage, RestoreJobStage).
std::vector<std::string> stages_of(const std::string& job_name) {
  if (job_name.find("_backup") != std::string::npos)
    return {"addon_repositories", "home_assistant", "addons", "folders", "finishing_file"};
  if (job_name.find("_restore") != std::string::npos)
    return {"addon_repositories", "docker_config", "home_assistant", "addons", "await_addon_restarts"};
  return {};
}

// One job object as the Supervisor lists it (parent_id left out for child_jobs).
json::object job_object(const SimJob& j, const std::string& name, std::string uuid, double progress, bool done,
                        json::array children = {}) {
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

std::string child_uuid(const SimJob& j, std::size_t i) { return j.uuid.substr(0, 24) + std::to_string(100000 + i); }

// A backup's or restore's stages so far: the finished ones done, the current one running.
json::array stage_jobs(const SimJob& j, const std::vector<std::string>& stages) {
  json::array out;
  const auto reached = static_cast<std::size_t>(j.progress / 100.0 * static_cast<double>(stages.size()));
  for (std::size_t i = 0; i < stages.size() && i <= reached; ++i) {
    const bool finished = j.done || i < reached;
    out.push_back(job_object(j, j.name + "_" + stages[i], child_uuid(j, i), finished ? 100.0 : 0.0, finished));
  }
  return out;
}

// The partial backup an update with backup made before its pull
// (backup_manager_partial_backup, reference: the backup's slug, no progress of
// its own, last stage finishing_file), with the jobs the Supervisor keeps
// (cleanup=False): backup_store_addons > backup_addon_save (reference: the add-on).
json::object update_backup_job(const SimJob& j) {
  json::object save = job_object(j, "backup_addon_save", child_uuid(j, 5), 0, true);
  json::object store = job_object(j, "backup_store_addons", child_uuid(j, 4), 0, true, json::array{std::move(save)});
  store["reference"] = nullptr;
  json::object backup =
      job_object(j, "backup_manager_partial_backup", child_uuid(j, 3), 0, true, json::array{std::move(store)});
  backup["reference"] = j.backup;
  backup["stage"] = "finishing_file";
  return backup;
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

json::object job_json(SupervisorData& d, const SimJob& j) {
  const std::vector<std::string> stages = stages_of(j.name);
  json::object o =
      job_object(j, j.name, j.uuid, j.progress, j.done, stages.empty() ? addon_jobs(d, j) : stage_jobs(j, stages));
  o["stage"] = j.stage.empty() ? json::value(nullptr) : json::value(j.stage);
  o["errors"] = j.errors;
  return o;
}

// Each GET moves the job one step (deterministic: tests count polls, not time).
RestResponse job_info(RestCall& c, SupervisorData& d) {
  auto it = d.jobs.find(c.path[0]);
  if (it == d.jobs.end()) return error(404, "Job does not exist");
  SimJob& j = it->second;
  const std::vector<std::string> stages = stages_of(j.name);
  if (!j.done) {
    j.progress = std::min(100.0, j.progress + j.step);
    j.done = j.progress >= 100;
    const auto at = static_cast<std::size_t>(j.progress / 100.0 * static_cast<double>(stages.size()));
    j.stage = stages.empty() ? std::string() : stages[std::min(at, stages.size() - 1)];
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
