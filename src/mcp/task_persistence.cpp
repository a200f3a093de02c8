// Tasks kept across a restart (TaskStore::persist_to, task_store.hpp): one
// JSON file, {"version":1,"tasks":[record...]}, rewritten whole and atomically
// (http::replace_file: temp + rename, 0600) after a task is created, ends or is
// removed. A record is what tasks/get and tasks/result need: id, owner,
// status and message, times, ttl, and the final result (capped) or error. The
// work's questions, its 2026 call and answers are not kept: a task that was
// live when the process ended has an unknown outcome and comes back failed.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common/json_fields.hpp"
#include "mcp/errors.hpp"
#include "mcp/http/session_state_store.hpp"
#include "mcp/task_store.hpp"

namespace hamcp::mcp {

namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

constexpr std::int64_t kFormat = 1;

std::int64_t to_ms(system_clock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(t.time_since_epoch()).count();
}
system_clock::time_point from_ms(std::int64_t ms) {
  return system_clock::time_point(std::chrono::duration_cast<system_clock::duration>(milliseconds(ms)));
}

std::optional<TaskStatus> status_named(std::string_view name) {
  for (TaskStatus s : {TaskStatus::working, TaskStatus::input_required, TaskStatus::completed, TaskStatus::failed,
                       TaskStatus::cancelled})
    if (to_string(s) == name) return s;
  return std::nullopt;
}

json::object failure(std::string_view message) {
  json::object error;
  error.emplace("code", error_code::internal_error);
  error.emplace("message", message);
  return error;
}

// One task's record; its result only when it fits max_kept_result_bytes and
// what is left of the file's budget (`room`), else its size (resultNotKept).
json::object to_record(const TaskRecord& task, const TaskStoreOptions& options, std::size_t& room) {
  json::object r;
  r.emplace("id", task.id);
  r.emplace("owner", task.owner);
  r.emplace("status", to_string(task.status));
  if (!task.status_message.empty()) r.emplace("statusMessage", task.status_message);
  r.emplace("created", to_ms(task.created));
  r.emplace("updated", to_ms(task.updated));
  r.emplace("ttl", task.ttl.count());
  if (task.error) r.emplace("error", *task.error);
  if (task.result) {
    const std::size_t size = task.result_bytes;
    if (size <= options.max_kept_result_bytes && size <= room) {
      room -= size;
      r.emplace("result", *task.result);
    } else {
      r.emplace("resultNotKept", size);
    }
  }
  return r;
}

std::optional<std::int64_t> int_at(const json::object& r, std::string_view key) {
  const json::value* v = r.if_contains(key);
  if (v && v->is_int64()) return v->get_int64();
  if (v && v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v->get_uint64());
  return std::nullopt;
}

// A record as a task of this process; nullopt when malformed. A task the last
// process left live becomes failed (its outcome is unknown), one whose result
// was not kept fails saying so.
std::optional<TaskRecord> from_record(const json::value& value, system_clock::time_point now) {
  const json::object* r = value.if_object();
  if (!r) return std::nullopt;
  TaskRecord task;
  task.id = string_or_empty(*r, "id");
  task.owner = string_or_empty(*r, "owner");
  const auto status = status_named(string_or_empty(*r, "status"));
  const auto created = int_at(*r, "created");
  const auto updated = int_at(*r, "updated");
  const auto ttl = int_at(*r, "ttl");
  if (task.id.empty() || !status || !created || !updated || !ttl) return std::nullopt;
  task.status = *status;
  task.status_message = string_or_empty(*r, "statusMessage");
  task.created = from_ms(*created);
  task.updated = from_ms(*updated);
  task.ttl = milliseconds(*ttl);
  if (const json::value* e = r->if_contains("error"); e && e->is_object()) task.error = e->get_object();
  if (const json::value* res = r->if_contains("result"); res && res->is_object()) {
    task.result = res->get_object();
    task.result_bytes = json::serialize(*res).size();
  }
  if (!is_terminal(task.status)) {
    task.status = TaskStatus::failed;
    task.status_message = std::string(kRestartedWhileRunning);
    task.error = failure(kRestartedWhileRunning);
    task.updated = now;
  } else if (r->contains("resultNotKept")) {
    task.status = TaskStatus::failed;
    task.status_message = "hamcp restarted and did not keep this task's result (over its size cap)";
    task.error = failure(task.status_message + "; check the state, or run it again");
    task.result.reset();
  }
  return task;
}

}  // namespace

bool TaskStore::persist_to(std::filesystem::path file) {
  file_ = std::move(file);
  load();
  if (save()) return true;
  spdlog::warn("tasks: cannot write {}; tasks are kept in memory only", file_.string());
  file_.clear();
  return false;
}

void TaskStore::load() {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file_, ec);
  if (ec) return;  // none yet
  if (size > options_.max_kept_bytes + options_.max_total * 1024) {
    spdlog::warn("tasks: {} is larger than hamcp writes ({} bytes); not loaded", file_.string(), size);
    return;
  }
  std::ifstream in(file_, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code parse_ec;
  json::value doc = json::parse(text.str(), parse_ec);
  const json::object* root = parse_ec ? nullptr : doc.if_object();
  const json::value* tasks = root ? root->if_contains("tasks") : nullptr;
  if (!tasks || !tasks->is_array()) {
    spdlog::warn("tasks: {} is not a task file hamcp wrote; starting without its tasks", file_.string());
    return;
  }
  const auto now = clock_();
  std::size_t restored = 0, failed = 0;
  for (const json::value& value : tasks->get_array()) {
    if (tasks_.size() >= options_.max_total) break;
    auto task = from_record(value, now);
    if (!task || now > task->created + task->ttl || tasks_.contains(task->id)) continue;
    if (task->status_message == kRestartedWhileRunning) ++failed;
    ++restored;
    std::string id = task->id;
    tasks_.emplace(std::move(id), std::move(*task));
  }
  if (restored > 0) spdlog::info("tasks: {} kept from the last run ({} ended by the restart)", restored, failed);
}

bool TaskStore::save() {
  if (file_.empty()) return false;
  std::vector<const TaskRecord*> newest;
  newest.reserve(tasks_.size());
  for (const auto& [id, task] : tasks_) newest.push_back(&task);
  std::sort(newest.begin(), newest.end(),
            [](const TaskRecord* a, const TaskRecord* b) { return a->created > b->created; });
  std::size_t room = options_.max_kept_bytes;
  json::array records;
  records.reserve(newest.size());
  for (const TaskRecord* task : newest) records.emplace_back(to_record(*task, options_, room));
  const json::object doc{{"version", kFormat}, {"tasks", std::move(records)}};
  if (http::replace_file(file_, json::serialize(doc))) return true;
  spdlog::warn("tasks: cannot write {}; a restart will lose the latest task states", file_.string());
  return false;
}

}  // namespace hamcp::mcp
