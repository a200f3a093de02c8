// The task store: ids, scoping, ttl and the status lifecycle (task_store.hpp).
#include "mcp/task_store.hpp"

#include <algorithm>
#include <array>

#include "common/iso_time.hpp"
#include "mcp/errors.hpp"
#include "mcp/http/session_token.hpp"

namespace hamcp::mcp {

namespace {

std::string iso(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  return common::format_iso_time(static_cast<double>(ms) / 1000.0);
}

bool each_task_its_own(std::string_view owner) { return owner.ends_with(kEachTaskItsOwnOwner); }

// The live tasks of `owner` (empty: all); an each-task-its-own owner's share one bound.
std::size_t live_count(const std::map<std::string, TaskRecord, std::less<>>& tasks, std::string_view owner) {
  const bool prefix = each_task_its_own(owner);
  return static_cast<std::size_t>(std::count_if(tasks.begin(), tasks.end(), [&](const auto& kv) {
    const std::string& whose = kv.second.owner;
    return !is_terminal(kv.second.status) && (owner.empty() || whose == owner || (prefix && whose.starts_with(owner)));
  }));
}

// Whether `task` belongs to the caller `owner` asking for it by `id`.
bool owned_by(const TaskRecord& task, std::string_view owner, std::string_view id) {
  if (!each_task_its_own(owner)) return task.owner == owner;
  return task.owner.size() == owner.size() + id.size() && task.owner.starts_with(owner) && task.owner.ends_with(id);
}

}  // namespace

std::string_view to_string(TaskStatus status) {
  switch (status) {
    case TaskStatus::working:
      return "working";
    case TaskStatus::input_required:
      return "input_required";
    case TaskStatus::completed:
      return "completed";
    case TaskStatus::failed:
      return "failed";
    case TaskStatus::cancelled:
      return "cancelled";
  }
  return "failed";
}

TaskStore::TaskStore(Options options, Clock clock) : options_(options), clock_(std::move(clock)) {
  if (!clock_) clock_ = [] { return std::chrono::system_clock::now(); };
}

std::string TaskStore::new_id() {
  std::array<unsigned char, 16> bytes{};  // 128 random bits: not guessable, not derived from anything
  http::random_bytes(bytes.data(), bytes.size());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  id.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 0xF];
  }
  return id;
}

void TaskStore::expire() {
  const auto now = clock_();
  // Only finished tasks expire: a working one still holds its work (and is bounded by max_per_owner).
  const std::size_t expired = std::erase_if(
      tasks_, [&](const auto& kv) { return is_terminal(kv.second.status) && now > kv.second.created + kv.second.ttl; });
  if (expired > 0) save();
}

TaskRecord& TaskStore::create(std::string owner, std::optional<std::chrono::milliseconds> ttl) {
  expire();
  if (live_count(tasks_, owner) >= options_.max_per_owner || tasks_.size() >= options_.max_total)
    throw McpError(error_code::invalid_request,
                   "Too many tasks: wait for running tasks to finish (tasks/get) or cancel some (tasks/cancel)");
  std::chrono::milliseconds life = ttl.value_or(options_.default_ttl);
  life = std::clamp(life, std::chrono::milliseconds(1000), options_.max_ttl);
  std::string id = new_id();
  TaskRecord record;
  record.id = id;
  record.owner = each_task_its_own(owner) ? owner + id : std::move(owner);
  record.created = record.updated = clock_();
  record.ttl = life;
  TaskRecord& created = tasks_.emplace(std::move(id), std::move(record)).first->second;
  save();  // known after a restart, if only as "outcome unknown"
  return created;
}

TaskRecord* TaskStore::find(std::string_view owner, std::string_view id) {
  expire();
  auto it = tasks_.find(id);
  if (it == tasks_.end() || !owned_by(it->second, owner, id)) return nullptr;
  return &it->second;
}

std::vector<const TaskRecord*> TaskStore::list(std::string_view owner) {
  expire();
  std::vector<const TaskRecord*> out;
  for (const auto& [id, task] : tasks_)
    if (task.owner == owner) out.push_back(&task);  // none for an each-task-its-own owner
  std::sort(out.begin(), out.end(), [](const TaskRecord* a, const TaskRecord* b) { return a->created > b->created; });
  return out;
}

void TaskStore::settle(TaskRecord& task, TaskStatus status) {
  task.status = status;
  task.updated = clock_();
  task.stop = nullptr;
  task.outbox.clear();  // nobody will answer a finished task's questions
  task.streams.clear();
  task.asking = 0;
  auto waiters = std::move(task.waiters);
  task.waiters.clear();
  for (auto& wake : waiters) wake(task);
}

bool TaskStore::finish(std::string_view id, std::optional<json::object> result, std::optional<json::object> error,
                       bool tool_error) {
  auto it = tasks_.find(id);
  if (it == tasks_.end() || is_terminal(it->second.status)) return false;
  TaskRecord& task = it->second;
  task.result = std::move(result);
  task.result_bytes = task.result ? json::serialize(*task.result).size() : 0;
  task.error = std::move(error);
  if (tool_error) task.status_message = "the tool reported an error (isError); tasks/result has its result";
  settle(task, task.error || tool_error ? TaskStatus::failed : TaskStatus::completed);
  save();
  return true;
}

bool TaskStore::await_input(std::string_view id, json::object requests, std::string state) {
  auto it = tasks_.find(id);
  if (it == tasks_.end() || it->second.status != TaskStatus::working) return false;
  TaskRecord& task = it->second;
  task.status = TaskStatus::input_required;
  task.updated = clock_();
  task.input_requests = std::move(requests);
  task.request_state = std::move(state);
  task.answers.clear();
  task.stop = nullptr;
  return true;
}

bool TaskStore::answer(TaskRecord& task, const json::object& responses) {
  if (task.status != TaskStatus::input_required) return false;
  for (const auto& [key, response] : responses) {
    if (!task.input_requests.contains(key)) continue;  // unknown or answered already: ignored
    task.input_requests.erase(key);
    task.answers[key] = response;
  }
  if (!task.input_requests.empty()) return false;
  task.status = TaskStatus::working;
  task.updated = clock_();
  return true;
}

bool TaskStore::cancel(TaskRecord& task) {
  if (is_terminal(task.status)) return false;
  std::function<void()> stop = std::move(task.stop);
  task.status_message = "cancelled by the client";
  settle(task, TaskStatus::cancelled);
  save();
  if (stop) stop();
  return true;
}

std::size_t TaskStore::end_owned(const std::function<bool(std::string_view owner)>& whose) {
  std::vector<std::function<void()>> stops;
  std::size_t removed = 0;
  for (auto it = tasks_.begin(); it != tasks_.end();) {
    TaskRecord& task = it->second;
    if (!whose(task.owner)) {
      ++it;
      continue;
    }
    if (!is_terminal(task.status)) {
      if (task.stop) stops.push_back(std::move(task.stop));
      task.status_message = "cancelled: the session ended";
      settle(task, TaskStatus::cancelled);  // tasks/result waiters get their answer (and their streams close)
    }
    it = tasks_.erase(it);
    ++removed;
  }
  if (removed > 0) save();
  // Stopped only once no entry is left: a handler ending at once finds nothing to finish.
  for (auto& stop : stops) stop();
  return removed;
}

std::size_t TaskStore::live() const { return live_count(tasks_, {}); }

TaskRecord* TaskStore::live_task(std::string_view id) {
  auto it = tasks_.find(id);
  return it == tasks_.end() || is_terminal(it->second.status) ? nullptr : &it->second;
}

bool TaskStore::begin_input(std::string_view id) {
  TaskRecord* task = live_task(id);
  if (!task) return false;
  ++task->asking;
  if (task->status == TaskStatus::input_required) return false;
  task->status = TaskStatus::input_required;
  task->updated = clock_();
  return true;
}

bool TaskStore::end_input(std::string_view id) {
  TaskRecord* task = live_task(id);
  if (!task || task->asking == 0) return false;
  if (--task->asking > 0 || task->status != TaskStatus::input_required) return false;
  task->status = TaskStatus::working;
  task->updated = clock_();
  return true;
}

bool TaskStore::deliver(std::string_view id, json::value message) {
  TaskRecord* task = live_task(id);
  if (!task) return false;
  std::erase_if(task->streams, [](const std::shared_ptr<Channel>& c) { return !c->is_open(); });
  if (task->streams.empty())
    task->outbox.push_back(std::move(message));
  else
    task->streams.back()->send(std::move(message));
  return true;
}

void TaskStore::attach_stream(TaskRecord& task, std::shared_ptr<Channel> stream) {
  if (is_terminal(task.status) || !stream->is_open()) return;
  for (json::value& message : task.outbox) stream->send(std::move(message));
  task.outbox.clear();
  task.streams.push_back(std::move(stream));
}

bool TaskStore::withdraw(std::string_view id, const json::value& request_id) {
  TaskRecord* task = live_task(id);
  if (!task) return false;
  return std::erase_if(task->outbox, [&](const json::value& m) {
           const json::value* mid = m.is_object() ? m.get_object().if_contains("id") : nullptr;
           return mid && *mid == request_id;
         }) > 0;
}

std::string session_task_scope(std::string_view session_id) { return "2025|" + std::string(session_id) + "|"; }

std::optional<std::string_view> session_of_owner(std::string_view owner) {
  constexpr std::string_view kEra = "2025|";
  if (!owner.starts_with(kEra)) return std::nullopt;
  owner.remove_prefix(kEra.size());
  const std::size_t end = owner.find('|');  // session ids (signed-id nonces, legacy keys) have no '|'
  if (end == std::string_view::npos) return std::nullopt;
  return owner.substr(0, end);
}

json::object task_json(const TaskRecord& task, const TaskStore::Options& options, bool modern, bool detailed) {
  json::object out;
  out.emplace("taskId", task.id);
  out.emplace("status", to_string(task.status));
  if (!task.status_message.empty()) out.emplace("statusMessage", task.status_message);
  out.emplace("createdAt", iso(task.created));
  out.emplace("lastUpdatedAt", iso(task.updated));
  out.emplace(modern ? "ttlMs" : "ttl", task.ttl.count());
  if (!is_terminal(task.status)) out.emplace(modern ? "pollIntervalMs" : "pollInterval", options.poll_interval.count());
  if (detailed && task.result && task.status == TaskStatus::completed) out.emplace("result", *task.result);
  if (detailed && task.error && task.status == TaskStatus::failed) out.emplace("error", *task.error);
  if (detailed && task.status == TaskStatus::input_required) out.emplace("inputRequests", task.input_requests);
  return out;
}

}  // namespace hamcp::mcp
