#pragma once
// Internal to Session (session.cpp, session_calls.cpp,
// session_client_requests.cpp): the state of requests in flight both ways, a
// batch being answered, and the RequestContext handed to handlers.
//
// Threading: Session's rule: the server's executor only.

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <optional>
#include <string>

#include "json/json_text.hpp"
#include "mcp/call_scheduler.hpp"
#include "mcp/errors.hpp"
#include "mcp/registry.hpp"
#include "mcp/session.hpp"
#include "mcp/tool.hpp"

namespace hamcp::mcp {

namespace detail {

// One client request being worked on by a coroutine.
struct InFlightRequest {
  asio::cancellation_signal signal;
  bool cancelled = false;
  bool detached = false;  // answered with a CreateTaskResult: the outcome goes to the task (continue_as_task)
  bool finished = false;  // answered (or closed unanswered) and forgotten by Session::spawn_request
};

// Where a task's own messages go once its tools/call was answered: nowhere of
// its own; progress and logs fall back to the session's standalone stream.
class DetachedChannel final : public Channel {
 public:
  void send(json::value) override {}
  bool is_open() const override { return false; }
};

// One server->client request waiting for the client's response. The waiter
// sleeps on `timer`; a response (or shutdown) fills the outcome and wakes it.
struct OutgoingRequest {
  explicit OutgoingRequest(asio::any_io_executor ex) : timer(std::move(ex)) {}
  asio::steady_timer timer;
  bool done = false;
  json::value result;
  std::optional<json::object> error;
};

// A finished request's response: a JSON message, or (tools/call) the message
// already written as text (a structured result is serialised once, see
// ToolResult::write_json) with `message` then its shape {"jsonrpc","id"}.
// Null message and empty text: cancelled, nothing to send.
struct Reply {
  json::value message;
  std::string text;
};

// How a concurrent request (or a task's tools/call) ended: a tool result, another
// method's result, a JSON-RPC error, or an internal failure (session_calls.cpp).
// A coroutine: it takes its strings by value (a reference to a caller's temporary would dangle).
struct CallOutcome {
  std::optional<McpError> failure;
  std::string internal;
  std::optional<ToolResult> tool_result;
  json::value result;
  bool input_required = false;  // result is an InputRequiredResult (2026-07-28)
};
asio::awaitable<CallOutcome> run_outcome(const Registry& registry, std::shared_ptr<CallScheduler> scheduler,
                                         const void* owner, std::string method, json::object params,
                                         RequestContext& ctx);

}  // namespace detail

namespace detail {
// In-flight requests are keyed by the compact serialisation of the id, so 1 and "1" differ
// (our JSON writer's text, the same as json::serialize's, ~250 instructions less per request).
inline std::string id_key(const json::value& id) {
  std::string key;
  append_json_text(key, id);
  return key;
}
inline bool valid_id(const json::value& id) { return id.is_string() || id.is_int64() || id.is_uint64(); }
}  // namespace detail

// Responses of one batch are gathered into one array, sent when the last
// request of the batch finishes. Each response is rendered to JSON text as it
// arrives (within its call's fair turn, see call_scheduler.hpp), so finishing
// a batch of large answers is a concatenation, not one long serialisation
// that would hold up every other connection.
struct Session::Batch {
  std::shared_ptr<Channel> reply;
  std::string text;    // "[r1,r2,..." so far
  json::array shapes;  // {"jsonrpc","id"} of each response, for the transport
  std::size_t pending = 0;
  bool sealed = false;  // every element has been dispatched

  void add(const json::value& response) {
    text += text.empty() ? '[' : ',';
    append_json_text(text, response);
    json::object shape;
    shape.reserve(2);
    shape.emplace("jsonrpc", "2.0");
    const json::value* id = response.is_object() ? response.get_object().if_contains("id") : nullptr;
    shape.emplace("id", id ? *id : json::value(nullptr));
    shapes.emplace_back(std::move(shape));
  }
  void finish_one(detail::Reply response) {
    if (!response.text.empty()) {
      text += text.empty() ? '[' : ',';
      text += response.text;
      shapes.emplace_back(std::move(response.message));
    } else if (!response.message.is_null()) {
      add(response.message);
    }
    --pending;
    maybe_complete();
  }
  void maybe_complete() {
    if (!sealed || pending != 0) return;
    if (!text.empty() && reply->is_open()) {
      text += ']';
      reply->send_text(std::move(text), json::value(std::move(shapes)));
    }
    reply->close();
  }
};

// The RequestContext handed to handlers: related notifications go on the
// request's own channel (its HTTP response stream; stdout for stdio).
class SessionRequestContext final : public RequestContext {
 public:
  SessionRequestContext(std::shared_ptr<Session> session, json::value id, json::value progress_token,
                        std::shared_ptr<Channel> reply, std::shared_ptr<detail::InFlightRequest> in_flight)
      : session_(std::move(session)),
        id_(std::move(id)),
        progress_token_(std::move(progress_token)),
        reply_(std::move(reply)),
        in_flight_(std::move(in_flight)) {}

  bool cancelled() const override { return in_flight_->cancelled; }

  void progress(double progress, std::optional<double> total, std::string_view message) override {
    if (progress_token_.is_null() || finished_ || in_flight_->cancelled) return;
    if (last_progress_ && progress <= *last_progress_) return;  // must strictly increase
    last_progress_ = progress;
    json::object params;
    params.reserve(4);
    params.emplace("progressToken", progress_token_);
    params.emplace("progress", progress);
    if (total) params.emplace("total", *total);
    if (!message.empty()) params.emplace("message", message);
    send(make_notification("notifications/progress", std::move(params)));
  }

  void log(LogLevel level, json::value data, std::string_view logger) override {
    if (level < session_->log_level_ || session_->silent_logs_ || finished_) return;
    json::object params;
    params.reserve(3);
    params.emplace("level", to_string(level));
    if (!logger.empty()) params.emplace("logger", logger);
    params.emplace("data", std::move(data));
    send(make_notification("notifications/message", std::move(params)));
  }

  asio::awaitable<json::value> request(std::string method, json::object params,
                                       std::chrono::milliseconds timeout) override {
    if (session_->modern_) return ask_in_round_trips(std::move(method), std::move(params));
    if (!task_id_.empty()) return ask_in_task(std::move(method), std::move(params), timeout);
    std::shared_ptr<Channel> via = reply_;
    if (!via->is_open()) via = session_->standalone_;
    return session_->send_request(std::move(method), std::move(params), std::move(via), timeout);
  }

  const SessionInfo& session() const override { return session_->info_; }
  std::string_view session_id() const override { return session_->id_; }
  const json::value& request_id() const override { return id_; }
  bool release_connection() override { return !finished_ && reply_->release_connection(); }
  bool continue_as_task() override;  // session_tasks.cpp
  // After the run: a call that continued as a task hands its outcome to the task (true).
  bool finish_as_task(detail::CallOutcome& outcome);

  void finish() { finished_ = true; }
  // The run is a task's work (session_tasks.cpp): already a task, and (2025)
  // its requests to the client travel with the task (ask_in_task).
  void set_task(std::string task_id) { task_id_ = std::move(task_id); }

  const json::object* input_responses() const override { return input_responses_ ? &*input_responses_ : nullptr; }
  std::string_view request_state() const override { return request_state_; }
  // From the request's params (2026 era): inputResponses and requestState.
  void set_round_trip(const json::object& params);

 private:
  void send(json::object message) {
    if (reply_->is_open())
      reply_->send(json::value(std::move(message)));
    else
      session_->send_unsolicited(json::value(std::move(message)));
  }

  std::shared_ptr<Session> session_;
  json::value id_;
  json::value progress_token_;
  std::shared_ptr<Channel> reply_;
  std::shared_ptr<detail::InFlightRequest> in_flight_;
  // The 2026 era has no server->client requests: each question becomes an
  // InputRequiredResult, answered on the client's retry (session_modern.cpp).
  asio::awaitable<json::value> ask_in_round_trips(std::string method, json::object params);
  // 2025-11-25, a task's work asks: the task is input_required while the request
  // (with related-task metadata) waits for, then goes out on, a tasks/result stream.
  asio::awaitable<json::value> ask_in_task(std::string method, json::object params, std::chrono::milliseconds timeout);

  std::optional<double> last_progress_;
  bool finished_ = false;
  std::optional<json::object> input_responses_;
  std::string request_state_;
  std::string task_id_;    // the task this run is (set_task) or continued as (continue_as_task)
  json::object answers_;   // earlier rounds' answers (carried in requestState) and this round's
  std::size_t asked_ = 0;  // questions asked so far in this run of the handler
};

}  // namespace hamcp::mcp
