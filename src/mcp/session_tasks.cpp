// Tasks inside a Session (task_store.hpp): a tools/call run as a task, and the
// tasks/* methods of both eras. 2025-11-25: the client asks with params.task,
// the answer is {task}, tasks/result waits for the end, the status goes out as
// notifications/tasks/status. 2026-07-28 (SEP-2663, the io.modelcontextprotocol/tasks
// extension): the server runs every call of a task-supporting tool as a task when
// the request declares the extension; CreateTaskResult is flat (resultType
// "task"), tasks/get inlines the result, tasks/cancel answers an empty ack.
#include <algorithm>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>

#include "mcp/echo.hpp"
#include "mcp/server.hpp"
#include "mcp/session.hpp"
#include "mcp/session_parts.hpp"
#include "mcp/task_store.hpp"

namespace hamcp::mcp {

namespace {

constexpr std::string_view kRelatedTask = "io.modelcontextprotocol/related-task";

json::object error_object(int code, std::string_view message, json::value data = nullptr) {
  json::object error;
  error.emplace("code", code);
  error.emplace("message", message);
  if (!data.is_null()) error.emplace("data", std::move(data));
  return error;
}

// -32021 naming the extension in data.requiredCapabilities (SEP-2575).
json::object missing_tasks_extension(json::value id, std::string_view what) {
  json::object required{{"extensions", json::object{{kTasksExtension, json::object()}}}};
  return make_error_response(std::move(id), error_code::missing_client_capability,
                             "Missing required client capability: " + std::string(what) + " needs \"" +
                                 std::string(kTasksExtension) +
                                 "\" in _meta[\"io.modelcontextprotocol/clientCapabilities\"].extensions",
                             json::object{{"requiredCapabilities", std::move(required)}});
}

json::value progress_token_of(const json::object& params) {
  const json::value* meta = params.if_contains("_meta");
  if (!meta || !meta->is_object()) return nullptr;
  const json::value* token = meta->get_object().if_contains("progressToken");
  if (token && (token->is_string() || token->is_int64() || token->is_uint64())) return *token;
  return nullptr;
}

// The 2025 client's params.task.ttl (milliseconds), if it gave one.
std::optional<std::chrono::milliseconds> requested_ttl(const json::object& params) {
  const json::value* task = params.if_contains("task");
  if (!task || !task->is_object()) return std::nullopt;
  const json::value* ttl = task->get_object().if_contains("ttl");
  if (!ttl || !ttl->is_number()) return std::nullopt;
  const double ms = ttl->to_number<double>();  // clamped by the store
  if (!(ms > 0)) return std::nullopt;
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::min(ms, 1e12)));
}

// What stops a task's work (TaskRecord::stop). The cancellation is emitted on
// the server's executor with the request's state held meanwhile: co_spawn's
// handler dispatches its emission there, and when stop() runs elsewhere (a
// test's thread) that posted emission must not outlive the state of a run that
// finished first (the task's entry, holding stop, may be gone by then).
std::function<void()> stopper(std::shared_ptr<detail::InFlightRequest> in_flight, asio::any_io_executor executor) {
  return [in_flight = std::move(in_flight), executor = std::move(executor)] {
    in_flight->cancelled = true;
    asio::dispatch(executor, [in_flight] { in_flight->signal.emit(asio::cancellation_type::terminal); });
  };
}

// Where a 2025 task's requests to its client go (Session::send_request's
// `via`): the newest tasks/result still waiting, or the task's outbox until one
// comes. A request sent makes the task input_required (`asked`: the status notification).
class TaskStream final : public Channel {
 public:
  TaskStream(std::shared_ptr<detail::ServerCore> core, std::string task_id, std::function<void()> asked)
      : core_(std::move(core)), task_id_(std::move(task_id)), asked_(std::move(asked)) {}

  void send(json::value message) override {
    TaskStore& store = core_->tasks;
    const json::object* m = message.if_object();
    const json::value* method = m ? m->if_contains("method") : nullptr;
    if (method && method->is_string() && method->get_string() == "notifications/cancelled") {
      const json::value* params = m->if_contains("params");
      const json::value* request =
          params && params->is_object() ? params->get_object().if_contains("requestId") : nullptr;
      if (request && store.withdraw(task_id_, *request)) return;  // it never reached the client
    } else if (m && m->contains("id")) {
      sent_ = true;
      if (store.begin_input(task_id_)) asked_();
    }
    store.deliver(task_id_, std::move(message));
  }
  bool sent() const { return sent_; }

 private:
  std::shared_ptr<detail::ServerCore> core_;
  std::string task_id_;
  std::function<void()> asked_;
  bool sent_ = false;
};

asio::awaitable<void> run_task(std::shared_ptr<Session> session, std::shared_ptr<detail::ServerCore> core,
                               json::object params, std::shared_ptr<SessionRequestContext> ctx,
                               std::function<void(detail::CallOutcome)> done) {
  auto running =
      detail::run_outcome(core->registry, core->scheduler, session.get(), "tools/call", std::move(params), *ctx);
  detail::CallOutcome outcome = co_await std::move(running);  // named before co_await (GCC 12)
  ctx->finish();
  done(std::move(outcome));
}

}  // namespace

std::string Session::task_owner() const {
  // 2026: no sessions, the principal is the scope; 2025: the session (and its principal).
  if (modern_) return "2026|" + info_.principal;
  // A stateless HTTP request (no session id, no stream of its own) with no
  // OAuth user: nothing tells this caller from another holding the same bearer
  // token, so each task is reached by its own id only (kEachTaskItsOwnOwner).
  if (id_.empty() && !standalone_ && info_.principal.empty())
    return session_task_scope(id_) + std::string(kEachTaskItsOwnOwner);
  return session_task_scope(id_) + info_.principal;
}

bool Session::tasks_declared() const {
  const json::value* extensions = info_.client_capabilities.if_contains("extensions");
  return extensions && extensions->is_object() && extensions->get_object().contains(kTasksExtension);
}

bool Session::call_as_task(json::value& id, json::object& params, const std::shared_ptr<Channel>& reply,
                           const std::shared_ptr<Batch>& batch) {
  const json::value* name = params.if_contains("name");
  if (!name || !name->is_string()) return false;
  std::shared_ptr<const RegisteredTool> tool = core_->registry.find_tool(name->get_string());
  if (!tool) return false;  // the ordinary call says it is unknown
  const TaskSupport support = tool->tool.task_support;
  const std::string tool_name = tool->tool.name;
  auto refuse = [&](int code, std::string message, json::value data = nullptr) {
    respond(reply, batch, make_error_response(std::move(id), code, message, std::move(data)));
    return true;
  };
  if (modern_) {
    if (!tasks_declared()) {
      if (support != TaskSupport::required) return false;
      respond(reply, batch, missing_tasks_extension(std::move(id), tool_name + " (it runs only as a task)"));
      return true;
    }
    if (support == TaskSupport::forbidden) return false;
    if (tool->tool.task_for) {  // the others run as calls (and may continue as a task themselves)
      const json::value* args = params.if_contains("arguments");
      if (!args || !args->is_object() || !tool->tool.task_for(args->get_object())) return false;
    }
    start_task(std::move(id), std::move(params), reply, batch);
    return true;
  }
  if (info_.protocol_version != kLatestProtocolVersion) return false;  // tasks are new in 2025-11-25
  const json::value* hint = params.if_contains("task");
  if (!hint || !hint->is_object()) {
    if (support != TaskSupport::required) return false;
    return refuse(error_code::method_not_found,
                  "Method not found: " + tool_name + " runs only as a task; call it with params.task");
  }
  if (support == TaskSupport::forbidden)
    return refuse(error_code::method_not_found,
                  "Method not found: " + tool_name + " does not run as a task; call it without params.task");
  start_task(std::move(id), std::move(params), reply, batch);
  return true;
}

void Session::start_task(json::value id, json::object params, const std::shared_ptr<Channel>& reply,
                         const std::shared_ptr<Batch>& batch) {
  TaskRecord* task = nullptr;
  std::optional<std::chrono::milliseconds> ttl;  // 2026: the server's choice
  if (!modern_) ttl = requested_ttl(params);
  try {
    task = &core_->tasks.create(task_owner(), ttl);
  } catch (const McpError& e) {
    respond(reply, batch, make_error_response(std::move(id), e.code(), e.what(), e.data()));
    return;
  }
  if (modern_) task->call = params;  // run again with the client's answers (tasks/update)
  json::object created = task_json(*task, core_->tasks.options(), modern_, false);
  if (modern_)
    created.emplace("resultType", "task");
  else
    created = json::object{{"task", std::move(created)}};
  // The task exists before its id is handed out: a tasks/get right after finds it.
  respond(reply, batch, make_result_response(id, std::move(created)));
  run_task_work(*task, std::move(id), std::move(params));
}

void Session::run_task_work(TaskRecord& task, json::value id, json::object params) {
  auto in_flight = std::make_shared<detail::InFlightRequest>();
  task.stop = stopper(in_flight, core_->executor);
  auto self = shared_from_this();
  auto ctx = std::make_shared<SessionRequestContext>(self, std::move(id), progress_token_of(params),
                                                     std::make_shared<detail::DetachedChannel>(), in_flight);
  ctx->set_task(task.id);
  if (modern_) ctx->set_round_trip(params);
  auto done = [self, task_id = task.id](detail::CallOutcome outcome) {
    self->finish_task(task_id, std::move(outcome));
  };
  auto slot = in_flight->signal.slot();
  asio::co_spawn(core_->executor, run_task(self, core_, std::move(params), ctx, std::move(done)),
                 asio::bind_cancellation_slot(slot, [](std::exception_ptr) {}));
}

// tasks/update (2026): the client's answers; once none is pending the call runs
// again with them (and the requestState it asked with), as a retried request would.
void Session::resume_task(TaskRecord& task, const json::object& params) {
  const json::value* responses = params.if_contains("inputResponses");
  if (!responses || !responses->is_object() || !core_->tasks.answer(task, responses->get_object())) return;
  json::object call = task.call;
  call["inputResponses"] = task.answers;
  if (!task.request_state.empty())
    call["requestState"] = task.request_state;
  else
    call.erase("requestState");
  run_task_work(task, json::value(task.id), std::move(call));
}

void Session::finish_task(const std::string& task_id, detail::CallOutcome outcome) {
  std::optional<json::object> result;
  std::optional<json::object> error;
  if (outcome.input_required && modern_ && outcome.result.is_object()) {
    json::object& asked = outcome.result.get_object();
    json::object requests;
    if (json::value* r = asked.if_contains("inputRequests"); r && r->is_object()) requests = std::move(r->get_object());
    std::string state;
    if (const json::value* s = asked.if_contains("requestState"); s && s->is_string()) state = s->get_string();
    core_->tasks.await_input(task_id, std::move(requests), std::move(state));
    return;
  }
  if (outcome.failure) {
    error = error_object(outcome.failure->code(), outcome.failure->what(), outcome.failure->data());
  } else if (!outcome.internal.empty()) {
    error = error_object(error_code::internal_error, "Internal error: " + outcome.internal);
  } else if (outcome.input_required || !outcome.tool_result) {
    error = error_object(error_code::internal_error,
                         "The tool asked for input, which a task cannot ask for in this protocol era; call it "
                         "without a task");
  } else {
    result = std::move(*outcome.tool_result).to_json();
  }
  // 2025-11-25: a tool error (isError) fails the task; SEP-2663 (2026) keeps
  // it completed, failed meaning a JSON-RPC error only.
  const json::value* is_error = result ? result->if_contains("isError") : nullptr;
  const bool tool_error = !modern_ && is_error && is_error->is_bool() && is_error->get_bool();
  if (!core_->tasks.finish(task_id, std::move(result), std::move(error), tool_error)) return;  // cancelled meanwhile
  if (modern_) return;  // the 2026 notifications are optional; clients poll tasks/get
  if (const TaskRecord* task = core_->tasks.find(task_owner(), task_id)) notify_task_status(*task);
}

void Session::notify_task_status(const TaskRecord& task) {
  send_unsolicited(
      make_notification("notifications/tasks/status", task_json(task, core_->tasks.options(), false, false)));
}

bool Session::handle_task_method(json::value id, std::string_view method, const json::object& params,
                                 const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch) {
  auto answer = [&](json::value response) {
    respond(reply, batch, std::move(response));
    return false;
  };
  auto error = [&](int code, std::string message, json::value data = nullptr) {
    return answer(make_error_response(std::move(id), code, message, std::move(data)));
  };
  const bool known = method == "tasks/get" || method == "tasks/cancel" ||
                     (modern_ ? method == "tasks/update" : method == "tasks/result" || method == "tasks/list");
  if (!known || !core_->registry.has_task_tools())
    return error(error_code::method_not_found, "Method not found: " + std::string(method));
  if (modern_ && !tasks_declared()) return answer(missing_tasks_extension(std::move(id), method));
  const TaskStore::Options& options = core_->tasks.options();
  if (method == "tasks/list") {
    json::array tasks;
    for (const TaskRecord* task : core_->tasks.list(task_owner()))
      tasks.emplace_back(task_json(*task, options, false, false));
    return answer(make_result_response(std::move(id), json::object{{"tasks", std::move(tasks)}}));
  }
  const json::value* task_id = params.if_contains("taskId");
  if (!task_id || !task_id->is_string())
    return error(error_code::invalid_params, "Invalid params: \"taskId\" must be a string");
  TaskRecord* task = core_->tasks.find(task_owner(), task_id->get_string());
  if (!task)
    return error(error_code::invalid_params,
                 "Invalid params: unknown taskId " + echo_excerpt(task_id->get_string()) +
                     " (tasks are kept for their ttl after creation, and each client sees only its own)");
  if (method == "tasks/get")
    return answer(make_result_response(std::move(id), task_json(*task, options, modern_, modern_)));
  if (method == "tasks/update") {
    resume_task(*task, params);
    return answer(make_result_response(std::move(id), json::object()));  // an ack: tasks/get shows the rest
  }
  if (method == "tasks/result") return answer_task_result(std::move(id), *task, reply, batch);
  // tasks/cancel. 2026: an empty ack, also for a finished task; 2025: the task, -32602 once finished.
  const bool cancelled = core_->tasks.cancel(*task);
  if (modern_) return answer(make_result_response(std::move(id), json::object()));
  if (!cancelled)
    return error(error_code::invalid_params, "Invalid params: the task is already " +
                                                 std::string(to_string(task->status)) + " and cannot be cancelled");
  notify_task_status(*task);
  return answer(make_result_response(std::move(id), task_json(*task, options, false, false)));
}

bool Session::answer_task_result(json::value id, TaskRecord& task, const std::shared_ptr<Channel>& reply,
                                 const std::shared_ptr<Batch>& batch) {
  // 2025-11-25: tasks/result waits until the task has finished, then answers
  // what the tools/call would have (its result or its error).
  auto respond_with = [id](const TaskRecord& done) {
    json::value response;
    if (done.status != TaskStatus::cancelled && done.result) {  // completed, or failed by a tool error
      json::object result = *done.result;
      result["_meta"] = json::object{{kRelatedTask, json::object{{"taskId", done.id}}}};
      response = make_result_response(id, std::move(result));
    } else if (done.status == TaskStatus::failed && done.error) {
      response = json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", *done.error}};
    } else {
      response = make_error_response(id, error_code::invalid_params, "Invalid params: the task was cancelled");
    }
    return response;
  };
  if (is_terminal(task.status)) {
    respond(reply, batch, respond_with(task));
    return false;
  }
  core_->tasks.attach_stream(task, reply);  // the work's questions to the client travel here
  task.waiters.emplace_back([respond_with, reply, batch](const TaskRecord& done) {
    json::value response = respond_with(done);
    if (batch) {
      batch->finish_one(detail::Reply{std::move(response), {}});
      return;
    }
    if (reply->is_open()) reply->send(std::move(response));
    reply->close();
  });
  return true;
}

asio::awaitable<json::value> SessionRequestContext::ask_in_task(std::string method, json::object params,
                                                                std::chrono::milliseconds timeout) {
  json::value& meta = params["_meta"];
  if (!meta.is_object()) meta = json::object();
  meta.get_object()[kRelatedTask] = json::object{{"taskId", task_id_}};
  std::shared_ptr<Session> session = session_;
  auto status = [session, id = task_id_] {  // 2025: notifications/tasks/status on each change
    if (const TaskRecord* task = session->core_->tasks.find(session->task_owner(), id))
      session->notify_task_status(*task);
  };
  auto via = std::make_shared<TaskStream>(session->core_, task_id_, status);
  std::exception_ptr failure;
  json::value answer;
  try {
    auto asking = session->send_request(std::move(method), std::move(params), via, timeout);  // named (GCC 12)
    answer = co_await std::move(asking);
  } catch (...) {
    failure = std::current_exception();
  }
  // Answered, timed out or cancelled: the question is no longer pending.
  if (via->sent() && session->core_->tasks.end_input(task_id_)) status();
  if (failure) std::rethrow_exception(failure);
  co_return answer;
}

bool SessionRequestContext::continue_as_task() {
  if (!task_id_.empty()) return true;
  if (finished_ || !session_->modern_ || !session_->tasks_declared()) return false;
  TaskStore& store = session_->core_->tasks;
  TaskRecord* task = nullptr;
  try {
    task = &store.create(session_->task_owner());
  } catch (const McpError&) {
    return false;  // too many tasks: answer in the call
  }
  task->stop = stopper(in_flight_, session_->core_->executor);
  task_id_ = task->id;
  in_flight_->detached = true;
  // No longer the request's work: the request's end (a 2026 HTTP request's
  // session is shut down once answered) must not cancel it; tasks/cancel does.
  if (auto it = session_->in_flight_.find(detail::id_key(id_));
      it != session_->in_flight_.end() && it->second == in_flight_)
    session_->in_flight_.erase(it);
  json::object created = task_json(*task, store.options(), true, false);
  created.emplace("resultType", "task");
  if (reply_->is_open()) reply_->send(make_result_response(id_, std::move(created)));
  reply_->close();
  reply_ = std::make_shared<detail::DetachedChannel>();
  return true;
}

bool SessionRequestContext::finish_as_task(detail::CallOutcome& outcome) {
  if (task_id_.empty()) return false;
  session_->finish_task(task_id_, std::move(outcome));
  return true;
}

}  // namespace hamcp::mcp
