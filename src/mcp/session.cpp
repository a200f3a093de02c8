#include "mcp/session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "json/json_text.hpp"
#include "mcp/errors.hpp"
#include "mcp/methods.hpp"
#include "mcp/server.hpp"

namespace hamcp::mcp {

namespace detail {

// One client request being worked on by a coroutine.
struct InFlightRequest {
  asio::cancellation_signal signal;
  bool cancelled = false;
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
    if (level < session_->log_level_ || finished_) return;
    json::object params;
    params.reserve(3);
    params.emplace("level", to_string(level));
    if (!logger.empty()) params.emplace("logger", logger);
    params.emplace("data", std::move(data));
    send(make_notification("notifications/message", std::move(params)));
  }

  asio::awaitable<json::value> request(std::string method, json::object params,
                                       std::chrono::milliseconds timeout) override {
    std::shared_ptr<Channel> via = reply_;
    if (!via->is_open()) via = session_->standalone_;
    return session_->send_request(std::move(method), std::move(params), std::move(via), timeout);
  }

  const SessionInfo& session() const override { return session_->info_; }
  std::string_view session_id() const override { return session_->id_; }
  const json::value& request_id() const override { return id_; }

  void finish() { finished_ = true; }

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
  std::optional<double> last_progress_;
  bool finished_ = false;
};

namespace {

std::string id_key(const json::value& id) { return json::serialize(id); }

bool valid_id(const json::value& id) { return id.is_string() || id.is_int64() || id.is_uint64(); }

const json::object kEmptyObject;

}  // namespace

Session::Session(std::shared_ptr<detail::ServerCore> core, std::string id)
    : core_(std::move(core)),
      id_(std::move(id)),
      log_level_(core_->options.default_log_level),
      last_activity_(std::chrono::steady_clock::now()) {}

Session::~Session() = default;

void Session::reply_parse_error(Channel& reply, std::string_view detail) {
  std::string message = "Parse error";
  if (!detail.empty()) message += ": " + std::string(detail);
  if (reply.is_open()) reply.send(make_error_response(nullptr, error_code::parse_error, message));
  reply.close();
}

void Session::set_standalone_channel(std::shared_ptr<Channel> channel) { standalone_ = std::move(channel); }

void Session::send_unsolicited(json::value message) {
  if (standalone_ && standalone_->is_open()) standalone_->send(std::move(message));
}

void Session::notify(std::string_view method, json::object params) {
  send_unsolicited(make_notification(method, std::move(params)));
}

void Session::log(LogLevel level, json::value data, std::string_view logger) {
  if (level < log_level_) return;
  json::object params;
  params.emplace("level", to_string(level));
  if (!logger.empty()) params.emplace("logger", logger);
  params.emplace("data", std::move(data));
  notify("notifications/message", std::move(params));
}

void Session::shutdown() {
  if (state_ == State::shut_down) return;
  state_ = State::shut_down;
  // Copy first: a cancelled coroutine may finish synchronously and erase itself.
  auto in_flight = in_flight_;
  for (auto& [key, request] : in_flight) {
    request->cancelled = true;
    request->signal.emit(asio::cancellation_type::terminal);
  }
  auto outgoing = outgoing_;
  for (auto& [id, request] : outgoing) {
    request->done = true;
    request->error = make_error_response(nullptr, error_code::internal_error, "session closed")["error"].as_object();
    request->timer.cancel();
  }
  subscriptions_.clear();
}

namespace {
struct DiscardChannel final : Channel {
  void send(json::value) override {}
  bool is_open() const override { return false; }
};
}  // namespace

void Session::deliver(json::value message, std::shared_ptr<Channel> reply) {
  last_activity_ = std::chrono::steady_clock::now();
  if (!reply) reply = std::make_shared<DiscardChannel>();  // the caller wants no answer
  if (json::array* batch_items = message.if_array()) {
    if (batch_items->empty()) {
      if (reply->is_open())
        reply->send(make_error_response(nullptr, error_code::invalid_request, "Invalid Request: empty batch array"));
      reply->close();
      return;
    }
    auto batch = std::make_shared<Batch>();
    batch->reply = reply;
    for (json::value& item : *batch_items) {
      if (handle_one(std::move(item), reply, batch)) ++batch->pending;
    }
    batch->sealed = true;
    batch->maybe_complete();
    return;
  }
  if (!handle_one(std::move(message), reply, nullptr)) reply->close();
}

void Session::respond(const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch,
                      json::value response) {
  if (batch) {
    batch->add(response);
  } else if (reply->is_open()) {
    reply->send(std::move(response));
  }
}

bool Session::handle_one(json::value message, const std::shared_ptr<Channel>& reply,
                         const std::shared_ptr<Batch>& batch) {
  json::object* obj = message.if_object();
  if (!obj) {
    respond(reply, batch,
            make_error_response(nullptr, error_code::invalid_request,
                                "Invalid Request: a JSON-RPC message must be an object"));
    return false;
  }
  // Answer errors with the request's id when it is a usable one.
  const json::value* id = obj->if_contains("id");
  json::value reply_id = (id && valid_id(*id)) ? *id : json::value(nullptr);
  auto invalid = [&](std::string_view why) {
    respond(reply, batch, make_error_response(reply_id, error_code::invalid_request, why));
    return false;
  };

  const json::value* version = obj->if_contains("jsonrpc");
  if (!version || !version->is_string() || version->get_string() != "2.0")
    return invalid("Invalid Request: \"jsonrpc\" must be \"2.0\"");

  const json::value* method_value = obj->if_contains("method");
  if (!method_value) {
    if (id && (obj->contains("result") || obj->contains("error"))) {
      handle_response(*obj);
      return false;
    }
    return invalid("Invalid Request: missing \"method\"");
  }
  if (!method_value->is_string()) return invalid("Invalid Request: \"method\" must be a string");
  if (id && !valid_id(*id)) return invalid("Invalid Request: \"id\" must be a string or an integer");

  json::object params;
  if (json::value* p = obj->if_contains("params")) {
    if (json::object* po = p->if_object()) {
      params = std::move(*po);
    } else if (!p->is_null()) {
      if (!id) return false;  // notifications get no answer
      respond(
          reply, batch,
          make_error_response(reply_id, error_code::invalid_params, "Invalid params: \"params\" must be an object"));
      return false;
    }
  }
  std::string_view method = method_value->get_string();
  if (!id) {
    handle_notification(method, params);
    return false;
  }
  return handle_request(std::move(reply_id), method, std::move(params), reply, batch);
}

bool Session::handle_request(json::value id, std::string_view method, json::object params,
                             const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch) {
  auto error = [&](int code, std::string message, json::value data = nullptr) {
    respond(reply, batch, make_error_response(std::move(id), code, message, std::move(data)));
    return false;
  };
  auto result = [&](json::value value) {
    respond(reply, batch, make_result_response(std::move(id), std::move(value)));
    return false;
  };

  if (state_ == State::shut_down) return error(error_code::invalid_request, "Session is closed");
  if (method == "ping") return result(json::object());
  if (method == "initialize") {
    if (state_ != State::awaiting_initialize)
      return error(error_code::invalid_request, "Invalid Request: the session is already initialized");
    try {
      return result(initialize(params));
    } catch (const McpError& e) {
      return error(e.code(), e.what(), e.data());
    }
  }
  if (state_ == State::awaiting_initialize)
    return error(
        error_code::invalid_request,
        "Invalid Request: session not initialized; send \"initialize\" first (got \"" + std::string(method) + "\")");
  if (in_flight_.count(id_key(id)))
    return error(error_code::invalid_request, "Invalid Request: a request with this id is still in progress");

  const Registry& registry = core_->registry;
  const std::size_t page = core_->options.page_size;
  try {
    if (method == "logging/setLevel") {
      const json::value* level = params.if_contains("level");
      std::optional<LogLevel> parsed;
      if (level && level->is_string()) parsed = parse_log_level(level->get_string());
      if (!parsed)
        return error(error_code::invalid_params,
                     "Invalid params: level must be one of debug, info, notice, warning, error, critical, "
                     "alert, emergency");
      log_level_ = *parsed;
      return result(json::object());
    }
    if (method == "tools/list") {
      if (!registry.has_tools()) return error(error_code::method_not_found, "Method not found: tools/list");
      return result(methods::list_tools(registry, params, page));
    }
    if (method == "resources/list" || method == "resources/templates/list" || method == "resources/subscribe" ||
        method == "resources/unsubscribe") {
      if (!registry.has_resources())
        return error(error_code::method_not_found, "Method not found: " + std::string(method));
      if (method == "resources/list") return result(methods::list_resources(registry, params, page));
      if (method == "resources/templates/list") return result(methods::list_resource_templates(registry, params, page));
      const json::value* uri = params.if_contains("uri");
      if (!uri || !uri->is_string() || uri->get_string().empty())
        return error(error_code::invalid_params, "Invalid params: \"uri\" must be a non-empty string");
      if (method == "resources/subscribe")
        subscriptions_.emplace(uri->get_string());
      else
        subscriptions_.erase(std::string(uri->get_string()));
      return result(json::object());
    }
    if (method == "prompts/list") {
      if (!registry.has_prompts()) return error(error_code::method_not_found, "Method not found: prompts/list");
      return result(methods::list_prompts(registry, params, page));
    }
  } catch (const McpError& e) {
    return error(e.code(), e.what(), e.data());
  }

  bool async = (method == "tools/call" && registry.has_tools()) ||
               (method == "resources/read" && registry.has_resources()) ||
               (method == "prompts/get" && registry.has_prompts()) ||
               (method == "completion/complete" && registry.has_completion());
  if (!async) return error(error_code::method_not_found, "Method not found: " + std::string(method));
  spawn_request(std::move(id), std::string(method), std::move(params), reply, batch);
  return true;
}

namespace {

// A tools/call result as the JSON-RPC response text, written once.
detail::Reply render_tool_response(json::value id, const ToolResult& result) {
  detail::Reply reply;
  reply.text = R"({"jsonrpc":"2.0","id":)";
  append_json_text(reply.text, id);
  reply.text += R"(,"result":)";
  result.write_json(reply.text);
  reply.text += '}';
  json::object shape;
  shape.reserve(2);
  shape.emplace("jsonrpc", "2.0");
  shape.emplace("id", std::move(id));
  reply.message = std::move(shape);
  return reply;
}

asio::awaitable<json::value> run_method(const Registry& registry, const std::string& method, json::object params,
                                        RequestContext& ctx) {
  asio::awaitable<json::value> work;  // named before co_await (GCC 12 coroutine temporaries)
  if (method == "resources/read")
    work = methods::read_resource(registry, std::move(params), ctx);
  else if (method == "prompts/get")
    work = methods::get_prompt(registry, std::move(params), ctx);
  else
    work = methods::complete(registry, std::move(params), ctx);
  json::value result = co_await std::move(work);
  co_return result;
}

// The body of one concurrent request: the method's result, a JSON-RPC error,
// or nothing when it was cancelled (then nothing is sent).
// Waits for a fair turn first (call_scheduler.hpp): tool work of one session
// must not hold up the other sessions' requests.
asio::awaitable<detail::Reply> run_request(const Registry& registry, std::shared_ptr<CallScheduler> scheduler,
                                           const void* owner, std::string method, json::object params,
                                           std::shared_ptr<SessionRequestContext> ctx,
                                           std::shared_ptr<detail::InFlightRequest> in_flight) {
  json::value id = ctx->request_id();
  std::optional<McpError> failure;
  std::string internal;
  std::optional<ToolResult> tool_result;
  json::value result;
  try {
    auto turn = scheduler->wait_turn(owner);  // named before co_await (GCC 12)
    co_await std::move(turn);
    if (method == "tools/call") {
      auto calling = methods::call_tool_result(registry, std::move(params), *ctx);  // named (GCC 12)
      tool_result = co_await std::move(calling);
    } else {
      auto working = run_method(registry, method, std::move(params), *ctx);  // named (GCC 12)
      result = co_await std::move(working);
    }
  } catch (const McpError& e) {
    failure.emplace(e);
  } catch (const std::exception& e) {
    internal = e.what();
  } catch (...) {
    internal = "unknown error";
  }
  ctx->finish();
  if (in_flight->cancelled) co_return detail::Reply{};
  if (failure)
    co_return detail::Reply{make_error_response(std::move(id), failure->code(), failure->what(), failure->data()), {}};
  if (!internal.empty()) {
    spdlog::warn("mcp: {} failed: {}", method, internal);
    co_return detail::Reply{
        make_error_response(std::move(id), error_code::internal_error, "Internal error: " + internal), {}};
  }
  if (tool_result) co_return render_tool_response(std::move(id), *tool_result);
  co_return detail::Reply{make_result_response(std::move(id), std::move(result)), {}};
}

}  // namespace

void Session::spawn_request(json::value id, std::string method, json::object params,
                            const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch) {
  json::value progress_token;
  if (const json::value* meta = params.if_contains("_meta"); meta && meta->is_object()) {
    if (const json::value* token = meta->get_object().if_contains("progressToken");
        token && (token->is_string() || token->is_int64() || token->is_uint64()))
      progress_token = *token;
  }
  auto in_flight = std::make_shared<detail::InFlightRequest>();
  std::string key = id_key(id);
  in_flight_.emplace(key, in_flight);
  auto self = shared_from_this();
  auto ctx = std::make_shared<SessionRequestContext>(self, std::move(id), std::move(progress_token), reply, in_flight);
  auto slot = in_flight->signal.slot();
  asio::co_spawn(core_->executor,
                 run_request(core_->registry, core_->scheduler, this, std::move(method), std::move(params),
                             std::move(ctx), in_flight),
                 asio::bind_cancellation_slot(slot, [self, key = std::move(key), reply, batch, in_flight](
                                                        std::exception_ptr, detail::Reply response) {
                   auto it = self->in_flight_.find(key);
                   if (it != self->in_flight_.end() && it->second == in_flight) self->in_flight_.erase(it);
                   if (in_flight->cancelled) response = detail::Reply{};  // cancelled: never answer
                   if (batch) {
                     batch->finish_one(std::move(response));
                     return;
                   }
                   if (reply->is_open()) {
                     if (!response.text.empty())
                       reply->send_text(std::move(response.text), response.message);
                     else if (!response.message.is_null())
                       reply->send(std::move(response.message));
                   }
                   reply->close();
                 }));
}

json::object Session::initialize(const json::object& params) {
  const json::value* requested = params.if_contains("protocolVersion");
  if (!requested || !requested->is_string())
    throw McpError(error_code::invalid_params, "Invalid params: \"protocolVersion\" must be a string");
  std::string_view wanted = requested->get_string();
  info_.protocol_version = std::string(is_supported_protocol_version(wanted) ? wanted : kLatestProtocolVersion);
  if (const json::value* caps = params.if_contains("capabilities"); caps && caps->is_object())
    info_.client_capabilities = caps->get_object();
  if (const json::value* client = params.if_contains("clientInfo"); client && client->is_object())
    info_.client_info = client->get_object();
  state_ = State::ready;

  const ServerOptions& options = core_->options;
  json::object server_info;
  server_info.emplace("name", options.name);
  server_info.emplace("version", options.version);
  if (!options.title.empty()) server_info.emplace("title", options.title);
  json::object result;
  result.reserve(4);
  result.emplace("protocolVersion", info_.protocol_version);
  result.emplace("capabilities", core_->capabilities());
  result.emplace("serverInfo", std::move(server_info));
  if (!options.instructions.empty()) result.emplace("instructions", options.instructions);
  return result;
}

void Session::handle_notification(std::string_view method, const json::object& params) {
  if (method == "notifications/cancelled") {
    const json::value* request_id = params.if_contains("requestId");
    if (!request_id || !valid_id(*request_id)) return;
    auto it = in_flight_.find(id_key(*request_id));
    if (it == in_flight_.end()) return;  // unknown or already finished: ignore
    auto request = it->second;
    request->cancelled = true;
    request->signal.emit(asio::cancellation_type::terminal);
    return;
  }
  // notifications/initialized, progress for our requests, roots/list_changed:
  // nothing to do (the session is usable as soon as initialize was answered).
}

void Session::handle_response(json::object& message) {
  const json::value& id = message["id"];
  if (!id.is_int64() && !id.is_uint64()) return;
  auto it = outgoing_.find(id.is_int64() ? id.get_int64() : static_cast<std::int64_t>(id.get_uint64()));
  if (it == outgoing_.end()) return;  // late or unknown: ignore
  auto request = it->second;
  outgoing_.erase(it);
  request->done = true;
  if (json::value* error = message.if_contains("error"); error && error->is_object())
    request->error = std::move(error->get_object());
  else
    request->result = std::move(message["result"]);
  request->timer.cancel();
}

asio::awaitable<json::value> Session::send_request(std::string method, json::object params,
                                                   std::shared_ptr<Channel> via, std::chrono::milliseconds timeout) {
  std::string_view capability;
  if (method == "sampling/createMessage")
    capability = "sampling";
  else if (method == "elicitation/create")
    capability = "elicitation";
  else if (method == "roots/list")
    capability = "roots";
  if (!capability.empty() && !info_.client_supports(capability))
    throw McpError(error_code::invalid_request,
                   "The client did not declare the \"" + std::string(capability) + "\" capability");
  if (state_ == State::shut_down) throw McpError(error_code::internal_error, "Session is closed");
  if (!via || !via->is_open()) throw McpError(error_code::internal_error, "No channel to reach the client");
  if (timeout.count() <= 0) timeout = core_->options.client_request_timeout;

  auto self = shared_from_this();  // keep the session alive while waiting
  const std::int64_t id = next_outgoing_id_++;
  auto pending = std::make_shared<detail::OutgoingRequest>(core_->executor);
  pending->timer.expires_after(timeout);
  outgoing_.emplace(id, pending);

  json::object message;
  message.reserve(4);
  message.emplace("jsonrpc", "2.0");
  message.emplace("id", id);
  message.emplace("method", method);
  message.emplace("params", std::move(params));
  via->send(json::value(std::move(message)));

  boost::system::error_code ec;
  auto token = asio::redirect_error(asio::use_awaitable, ec);
  co_await pending->timer.async_wait(token);
  outgoing_.erase(id);
  if (pending->done) {
    if (pending->error) {
      const json::object& err = *pending->error;
      int code = error_code::internal_error;
      std::string text = "client error";
      if (const json::value* c = err.if_contains("code"); c && c->is_int64()) code = static_cast<int>(c->get_int64());
      if (const json::value* m = err.if_contains("message"); m && m->is_string()) text = std::string(m->get_string());
      json::value data = err.contains("data") ? err.at("data") : json::value(nullptr);
      throw McpError(code, std::move(text), std::move(data));
    }
    co_return std::move(pending->result);
  }
  // Timed out, or the waiting handler was cancelled: tell the client to stop.
  json::object cancel;
  cancel.emplace("requestId", id);
  cancel.emplace("reason", ec ? "cancelled" : "timed out");
  if (via->is_open()) via->send(make_notification("notifications/cancelled", std::move(cancel)));
  if (ec) throw boost::system::system_error(asio::error::operation_aborted);
  throw McpError(error_code::request_timeout,
                 method + " got no response from the client within " + std::to_string(timeout.count()) + " ms");
}

// ---- SessionInfo ------------------------------------------------------------------

json::object SessionInfo::to_json() const {
  json::object out;
  out.emplace("protocolVersion", protocol_version);
  out.emplace("clientInfo", client_info);
  out.emplace("capabilities", client_capabilities);
  return out;
}

SessionInfo SessionInfo::from_json(const json::object& persisted) {
  SessionInfo info;
  const json::value* version = persisted.if_contains("protocolVersion");
  if (version && version->is_string() && is_supported_protocol_version(version->get_string()))
    info.protocol_version = std::string(version->get_string());
  else
    info.protocol_version = std::string(kLatestProtocolVersion);
  if (const json::value* c = persisted.if_contains("clientInfo"); c && c->is_object())
    info.client_info = c->get_object();
  if (const json::value* c = persisted.if_contains("capabilities"); c && c->is_object())
    info.client_capabilities = c->get_object();
  return info;
}

}  // namespace hamcp::mcp
