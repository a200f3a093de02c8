// Polls GET /jobs/{uuid} (supervisor/api/jobs.py job_info: progress 0-100,
// stage, done, errors, child_jobs) every kPollMs until done, the deadline or
// the client's cancel. Reads only: the job itself was started by the caller.
// A progress message names the job's stage, or the child job running now. A
// backup's or restore's job reports progress 0 until done (no progress sync:
// only its `stage` moves), so its progress is the stage's place in the
// BackupManager's order; a new step that still does not advance the number
// moves it a little, as MCP progress must increase for the message to go out.
#include "tools/addons/supervisor_job.hpp"

#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <vector>

#include "home/entity_docs.hpp"
#include "tools/addons/addons_tools.hpp"

namespace hamcp::tools::addons {
namespace {

namespace asio = boost::asio;

constexpr int kPollMs = 250;

double progress_of(const json::object& job) {
  const json::value* p = job.if_contains("progress");
  return p && p->is_number() ? p->to_number<double>() : 0;
}

bool is_done(const json::object& job) {
  const json::value* done = job.if_contains("done");
  return done && done->is_bool() && done->get_bool();
}

// A backup's or restore's stage (BackupJobStage, RestoreJobStage; 2026.08's
// app* spellings too) as a percentage of the way through its job; 0 unknown.
double stage_progress(std::string_view job_name, std::string stage) {
  static const std::vector<std::string_view> kBackup = {
      "addon_repositories",        "home_assistant",      "addons", "folders", "finishing_file",
      "copy_additional_locations", "await_addon_restarts"};
  static const std::vector<std::string_view> kRestore = {
      "folders", "home_assistant",       "remove_delta_addons",         "addon_repositories",
      "addons",  "await_addon_restarts", "await_home_assistant_restart"};
  if (const auto at = stage.find("app"); at != std::string::npos) stage.replace(at, 3, "addon");
  const auto& order = job_name.find("restore") != std::string_view::npos ? kRestore : kBackup;
  const auto it = std::find(order.begin(), order.end(), stage);
  if (it == order.end()) return 0;
  return 90.0 * static_cast<double>(it - order.begin() + 1) / static_cast<double>(order.size());
}

// The number a notification shows: the job's, its stage's, and for a new step
// that advances neither, a little more than the last one sent (below 100
// until done).
double shown_progress(const json::object& job, bool done, double last_sent) {
  if (done) return 100;
  const double p = std::max(progress_of(job), stage_progress(home::str_of(&job, "name"), home::str_of(&job, "stage")));
  return std::min(99.0, p > last_sent ? p : last_sent + (99.0 - last_sent) / 10);
}

const json::array* children_of(const json::object& job) {
  const json::value* c = job.if_contains("child_jobs");
  return c ? c->if_array() : nullptr;
}

// What the job is doing now: its stage, else the running child job deepest
// down with that one's stage (add-on install/update have no stage of their
// own: "addon_update > addon_stop"). "" when nothing says.
std::string current_step(const json::object& job) {
  std::string step = home::str_of(&job, "stage");
  if (!step.empty()) return step;
  const json::array* children = children_of(job);
  if (!children) return {};
  for (const auto& c : *children) {
    const json::object* child = c.if_object();
    if (!child || is_done(*child)) continue;
    const std::string below = current_step(*child);
    return home::str_of(child, "name") + (below.empty() ? std::string() : " > " + below);
  }
  return {};
}

// The child jobs depth first: [{name, done}] (the steps the job went through).
void collect_steps(const json::object& job, json::array& out) {
  const json::array* children = children_of(job);
  if (!children) return;
  for (const auto& c : *children) {
    const json::object* child = c.if_object();
    if (!child) continue;
    out.push_back(json::object{{"name", home::str_of(child, "name")}, {"done", is_done(*child)}});
    collect_steps(*child, out);
  }
}

void read_outcome(JobOutcome& out) {
  const json::value* done = out.job.if_contains("done");
  out.done = done && done->is_bool() && done->get_bool();
  const json::value* errors = out.job.if_contains("errors");
  out.failed = errors && errors->is_array() && !errors->get_array().empty();
  if (out.failed && errors->get_array().front().is_object())
    out.error = home::str_of(errors->get_array().front().if_object(), "message");
}

}  // namespace

const json::object* child_job(const json::object& job, std::string_view name) {
  const json::array* children = children_of(job);
  if (!children) return nullptr;
  for (const auto& c : *children) {
    const json::object* child = c.if_object();
    if (!child) continue;
    if (home::str_of(child, "name") == name) return child;
    if (const json::object* below = child_job(*child, name)) return below;
  }
  return nullptr;
}

void collect_job_errors(const json::object& job, json::array& out) {
  if (const json::array* children = children_of(job))
    for (const auto& c : *children)
      if (const json::object* child = c.if_object()) collect_job_errors(*child, out);
  const json::value* errors = job.if_contains("errors");
  if (!errors || !errors->is_array()) return;
  for (const auto& e : errors->get_array()) {
    const json::object* error = e.if_object();
    json::object item{{"job", home::str_of(&job, "name")}, {"message", home::str_of(error, "message")}};
    if (const std::string reference = home::str_of(&job, "reference"); !reference.empty())
      item["reference"] = reference;
    if (const std::string type = home::str_of(error, "type"); !type.empty()) item["type"] = type;
    out.push_back(std::move(item));
  }
}

std::string job_id_of(const json::value& answer) {
  const json::object* o = answer.if_object();
  return o ? home::str_of(o, "job_id") : std::string();
}

json::object job_summary(const JobOutcome& outcome, const std::string& uuid) {
  json::object out{{"job_id", uuid}, {"done", outcome.done}};
  for (const char* k : {"name", "progress", "stage", "errors"})
    if (const json::value* v = outcome.job.if_contains(k)) out[k] = *v;
  json::array steps;
  collect_steps(outcome.job, steps);
  if (!steps.empty()) out["steps"] = std::move(steps);
  return out;
}

asio::awaitable<JobOutcome> wait_for_job(ToolEnv& env, mcp::RequestContext& ctx, std::string uuid, double seconds,
                                         std::string label) {
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  JobOutcome out;
  if (uuid.empty()) {  // the Supervisor finished before answering: nothing to follow
    out.done = true;
    co_return out;
  }
  std::string last_reported;
  double last_sent = 0;
  while (!ctx.cancelled()) {
    try {
      auto reading = supervisor(env, "get", "/jobs/" + uuid);
      json::value job = co_await std::move(reading);
      if (job.is_object()) out.job = job.get_object();
    } catch (const ha::HaException& e) {
      if (e.error().cause != ha::ErrorCause::connection_lost) throw;
      out.connection_lost = true;
      co_return out;
    }
    read_outcome(out);
    const std::string stage = current_step(out.job);
    const std::string report = std::to_string(progress_of(out.job)) + stage + (out.done ? "done" : "");
    if (report != last_reported) {
      last_reported = report;
      last_sent = shown_progress(out.job, out.done, last_sent);
      ctx.progress(last_sent, 100.0, label + (stage.empty() ? std::string() : ": " + stage));
    }
    if (out.done || std::chrono::steady_clock::now() >= deadline) break;
    timer.expires_after(std::chrono::milliseconds(kPollMs));
    co_await timer.async_wait(asio::use_awaitable);
  }
  co_return out;
}

}  // namespace hamcp::tools::addons
