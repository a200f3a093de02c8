#pragma once
// A Supervisor background job (POST … with background=true answers
// {"job_id"}) followed to its end: GET /jobs/{uuid} polled, each change of
// progress or of its stage or running child job a progress notification,
// bounded in time. Used by add-on
// install/update and by Supervisor backups.

#include <boost/asio/awaitable.hpp>
#include <string>

#include "tools/tool_spec.hpp"

namespace hamcp::tools::addons {

struct JobOutcome {
  json::object job;              // the last /jobs/{uuid} answer ({} if never read)
  bool done = false;             // the job finished (successfully or not)
  bool failed = false;           // done with errors
  std::string error;             // the first error's message
  bool connection_lost = false;  // HA went away while waiting (e.g. a restore restarting it)
};

// Follows job `uuid` for at most `seconds`; `label` prefixes the progress messages.
boost::asio::awaitable<JobOutcome> wait_for_job(ToolEnv& env, mcp::RequestContext& ctx, std::string uuid,
                                                double seconds, std::string label);

// The job as an answer shows it: uuid, name, progress, stage, done, errors,
// steps (its child jobs depth first: name, done).
json::object job_summary(const JobOutcome& outcome, const std::string& uuid);

// The first job named `name` among `job`'s child jobs, depth first (nullptr: none).
const json::object* child_job(const json::object& job, std::string_view name);

// Every error captured in `job` or its child jobs, the innermost first,
// appended to `out`: {job, reference (if any), type, message}. A job can end without
// errors of its own while a child captured one (a backup's add-on that could
// not be saved: backup_addon_save).
void collect_job_errors(const json::object& job, json::array& out);

// The job id of a background answer ({"job_id": …}), "" when none.
std::string job_id_of(const json::value& answer);

}  // namespace hamcp::tools::addons
