#pragma once
// Tasks (MCP 2025-11-25 utility "tasks"; MCP 2026-07-28 extension
// io.modelcontextprotocol/tasks, SEP-2663): a tools/call the client may leave
// running and poll. The store keeps each task's status and final result, scoped
// to the owner that created it (a 2025 session or a 2026 principal: another
// owner's id is "unknown"), with unguessable ids and a time to live counted from
// creation. Bounded per owner and overall; finished tasks past their ttl are
// dropped on the next access (no timers). Knows nothing of Home Assistant.
//
// Threading: the server's executor only (like Session).

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/channel.hpp"
#include "mcp/json.hpp"

namespace hamcp::mcp {

inline constexpr std::string_view kTasksExtension = "io.modelcontextprotocol/tasks";

// The lifetime of one task. working and input_required are live; the rest are terminal.
enum class TaskStatus { working, input_required, completed, failed, cancelled };
std::string_view to_string(TaskStatus status);
inline bool is_terminal(TaskStatus s) { return s != TaskStatus::working && s != TaskStatus::input_required; }

struct TaskRecord {
  std::string id;
  std::string owner;
  TaskStatus status = TaskStatus::working;
  std::string status_message;
  std::chrono::system_clock::time_point created, updated;
  std::chrono::milliseconds ttl{0};
  std::optional<json::object> result;  // completed: the CallToolResult
  std::size_t result_bytes = 0;        // its size serialized (what persisting it costs)
  std::optional<json::object> error;   // failed: the JSON-RPC error {code, message, data?}
  std::function<void()> stop;          // while working: stops the work (tasks/cancel)
  // 2026-07-28: what the work asked the client (input_required; only what is
  // still unanswered), the answers so far, the requestState to hand back, and
  // the call itself, run again with the answers once none is pending.
  json::object input_requests;
  json::object answers;
  std::string request_state;
  json::object call;
  std::vector<std::function<void(const TaskRecord&)>> waiters;  // called once, when it becomes terminal
  // 2025-11-25: the work's own requests to the client (elicitation...), which
  // travel on a tasks/result answer (`streams`: those still waiting) or wait in
  // `outbox` for the next one; `asking`: how many are unanswered (input_required).
  std::vector<json::value> outbox;
  std::vector<std::shared_ptr<Channel>> streams;
  int asking = 0;
};

// An owner ending in this makes each task its own owner (the owner + its id):
// for a caller hamcp cannot tell apart from others holding the same credential
// (stateless HTTP without OAuth: no session, one shared bearer token or none),
// a task is reached only by its unguessable id, and tasks/list shows none.
inline constexpr std::string_view kEachTaskItsOwnOwner = "#";

// What a 2025 session's task owners start with (Session::task_owner), and the
// session id an owner names (nullopt: a 2026 owner): what TaskStore::end_owned
// drops once that session has ended.
std::string session_task_scope(std::string_view session_id);
std::optional<std::string_view> session_of_owner(std::string_view owner);

struct TaskStoreOptions {
  std::chrono::milliseconds default_ttl{std::chrono::hours(1)};
  std::chrono::milliseconds max_ttl{std::chrono::hours(24)};
  std::chrono::milliseconds poll_interval{500};
  std::size_t max_per_owner = 64;
  std::size_t max_total = 4096;
  // Kept across a restart (TaskStore::persist_to): a final result up to
  // max_kept_result_bytes (serialized), results up to max_kept_bytes in all
  // (newest tasks first); a result not kept comes back as a failure saying so.
  std::size_t max_kept_result_bytes = std::size_t{64} * 1024;
  std::size_t max_kept_bytes = std::size_t{2} * 1024 * 1024;
};

// The failure of a task a previous process recorded as still running.
inline constexpr std::string_view kRestartedWhileRunning =
    "hamcp restarted while this task ran; its outcome is unknown - check the state before retrying";

class TaskStore {
 public:
  using Options = TaskStoreOptions;
  using Clock = std::function<std::chrono::system_clock::time_point()>;

  explicit TaskStore(Options options = {}, Clock clock = {});

  // A new working task; `ttl` as the client asked (clamped to max_ttl; unset:
  // default_ttl). Throws McpError(invalid_request) when the owner or the store
  // is full of live tasks.
  TaskRecord& create(std::string owner, std::optional<std::chrono::milliseconds> ttl = {});
  // nullptr for an unknown id, an expired task or another owner's.
  TaskRecord* find(std::string_view owner, std::string_view id);
  // The owner's tasks, newest first.
  std::vector<const TaskRecord*> list(std::string_view owner);
  // Work ended: completed with `result`, or failed with `error`, or failed
  // with `result` when `tool_error` (2025-11-25: a CallToolResult with isError
  // true fails the task; tasks/result still answers that result). A task
  // already terminal (cancelled meanwhile, or expired) is left as it is: false.
  bool finish(std::string_view id, std::optional<json::object> result, std::optional<json::object> error,
              bool tool_error = false);
  // The work stopped to ask the client (an InputRequiredResult's inputRequests
  // and requestState): input_required. False when the task is not working.
  bool await_input(std::string_view id, json::object requests, std::string state);
  // Answers to pending input requests (other keys ignored). True when the last
  // one was answered: the task is working again and the caller re-runs the call.
  bool answer(TaskRecord& task, const json::object& responses);
  // Marks a live task cancelled and stops its work; false when it was terminal already.
  bool cancel(TaskRecord& task);
  // Every task whose owner `whose` names is gone for good (its session ended:
  // nobody can poll it again): live ones are cancelled (tasks/result waiters
  // answered, then their work stopped) and all their entries removed, in one
  // pass. Returns how many were removed.
  std::size_t end_owned(const std::function<bool(std::string_view owner)>& whose);

  // 2025-11-25 requests of a task's work to its client (session_tasks.cpp).
  // The work sends a request: the task is input_required until every one is
  // answered (end_input). True when the status changed.
  bool begin_input(std::string_view id);
  bool end_input(std::string_view id);
  // A message for the client: on the newest open tasks/result stream, else kept
  // in the outbox. False when the task is gone or finished (dropped).
  bool deliver(std::string_view id, json::value message);
  // A tasks/result now waits on `stream`: what the outbox holds goes out on it.
  void attach_stream(TaskRecord& task, std::shared_ptr<Channel> stream);
  // A request still in the outbox is withdrawn (timed out or cancelled before
  // any tasks/result carried it): true when it was there.
  bool withdraw(std::string_view id, const json::value& request_id);

  // From now on the tasks' records (id, owner, status and message, times, ttl,
  // final result or error; not the work's questions) are kept in `file` (0600,
  // rewritten whole and atomically after a task is created, ends or is
  // removed), bounded by the options. First loads what a previous process
  // left there (task_persistence.cpp): a task it recorded as live has an
  // unknown outcome and becomes failed (kRestartedWhileRunning); finished ones
  // stay until their ttl. False when the file cannot be written (then tasks
  // live in memory only, as before).
  bool persist_to(std::filesystem::path file);
  // The file keeps what it holds now (the server stops: its live tasks are
  // ended without being recorded, so the next process reports them failed).
  void stop_persisting() { file_.clear(); }

  const Options& options() const { return options_; }
  std::size_t size() const { return tasks_.size(); }
  std::size_t live() const;  // working or input_required

 private:
  void expire();
  bool save();  // to file_, if persisting
  void load();
  TaskRecord* live_task(std::string_view id);
  void settle(TaskRecord& task, TaskStatus status);
  std::string new_id();

  Options options_;
  Clock clock_;
  std::map<std::string, TaskRecord, std::less<>> tasks_;
  std::filesystem::path file_;
};

// A task as the wire shows it. 2025-11-25: {taskId, status, statusMessage?,
// createdAt, lastUpdatedAt, ttl, pollInterval}; 2026-07-28: ttlMs and
// pollIntervalMs, and `detailed` inlines result / error (DetailedTask).
json::object task_json(const TaskRecord& task, const TaskStore::Options& options, bool modern, bool detailed);

}  // namespace hamcp::mcp
