#pragma once
// Internal to src/sim/supervisor: the route families and the Supervisor's envelope.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/rest/rest_router.hpp"

namespace hamcp::sim::supervisor_detail {

RestResponse ok(json::value data = json::object{});        // 200 {"result":"ok","data":…}
RestResponse error(int status, std::string_view message);  // {"result":"error","message":…}
// text/plain journal lines; ?lines=N keeps the last N (at least 2, as the Supervisor's Range).
RestResponse log_text(const std::vector<std::string>& lines, const RestQuery& query);

// A handler that answers 404 when this install has no Supervisor.
using SupervisorHandler = std::function<RestResponse(RestCall&, SupervisorData&)>;
RestHandler guarded(SupervisorHandler handler);

SimAddon* find_addon(SupervisorData& d, std::string_view slug);
json::object store_item(const SimAddon& a);  // the store's view of an add-on

void add_addon_routes(RestRouter& router);
void add_store_routes(RestRouter& router);
void add_backup_routes(RestRouter& router);   // /backups/...
void add_job_routes(RestRouter& router);      // /jobs/info, /jobs/{uuid}
void add_ingress_routes(RestRouter& router);  // /ingress/session, /ingress/validate_session

// A new backup in /backups (BackupManager._create_backup + _do_backup): slug and
// date given, its size estimated, the Supervisor's log line written; its slug.
// SupervisorData::backup_fault applies: "addon_save" lists it without its
// add-ons, "file" does not list it.
std::string add_backup(SupervisorData& d, SimBackup b);
// A backup or restore job over `content` (its stages and child jobs), with
// the backup fault in force now; its uuid.
std::string start_backup_job(SupervisorData& d, std::string name, const std::string& slug, SimBackup content, bool full,
                             double step);
// A backup_manager job (backup or restore) still running: its job group rejects another.
bool backup_running(const SupervisorData& d);

// One job object as the Supervisor lists it (parent_id left out for child_jobs).
json::object job_object(const SimJob& j, const std::string& name, std::string uuid, double progress, bool done,
                        json::array children = {});
// A backup_manager_* backup or restore job: its progress is its stage's (supervisor_backup_jobs.cpp).
bool is_stage_job(const SimJob& j);
// The stages such a job passes for its content, in order (none for other jobs).
std::vector<std::string> stages_of(const SimJob& j);
// Its child jobs at stage index `at` (the earlier stages' finished; all when done).
json::array stage_child_jobs(const SimJob& j, std::size_t at);
// The error its "file" fault captured once done (_do_backup), else none.
json::array backup_job_errors(const SimJob& j);

// A new job (already done when step >= 100): its uuid.
std::string start_job(SupervisorData& d, std::string name, std::string reference, double step = 50);
// The answer of a call with `background`: {"job_id"} while the job runs.
RestResponse job_answer(const std::string& uuid, json::object extra = {});

}  // namespace hamcp::sim::supervisor_detail
