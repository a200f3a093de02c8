// A Session's lifecycle and the routing of its messages: parsing JSON-RPC,
// answering cheap methods inline, handing the rest to session_calls.cpp.
#include "mcp/session.hpp"

#include <algorithm>

#include "mcp/errors.hpp"
#include "mcp/methods.hpp"
#include "mcp/modern_era.hpp"
#include "mcp/server.hpp"
#include "mcp/session_parts.hpp"

namespace hamcp::mcp {

using detail::id_key;
using detail::valid_id;

Session::Session(std::shared_ptr<detail::ServerCore> core, std::string id)
    : core_(std::move(core)),
      id_(std::move(id)),
      log_level_(core_->options.default_log_level),
      updates_(core_->options.max_pending_updates),
      last_activity_(std::chrono::steady_clock::now()) {
  info_.read_only = core_->options.read_only;
}

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
  if (listen_) {
    // A subscriptions/listen stream carries only what the client opted in to,
    // each tagged with the subscription it belongs to.
    if (!listen_->wants(method)) return;
    json::object meta;
    meta.emplace(modern::kMetaSubscriptionId, listen_->id);
    params["_meta"] = std::move(meta);
  }
  send_unsolicited(make_notification(method, std::move(params)));
}

void Session::log(LogLevel level, json::value data, std::string_view logger) {
  if (level < log_level_ || silent_logs_ || listen_) return;
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
  auto listeners = std::move(listeners_);
  listeners_.clear();
  for (auto& listener : listeners) listener->shutdown();
  for (auto& weak : modern_children_)
    if (auto child = weak.lock()) child->shutdown();
  modern_children_.clear();
  updates_.clear();
}

namespace {
// resources/subscribe and resources/unsubscribe on a session's set; the
// refusal to send back (invalid params), if any.
std::optional<std::string> change_subscription(std::string_view method, const json::object& params,
                                               std::unordered_set<std::string>& subscriptions, UpdateQueue& updates,
                                               const ServerOptions& options) {
  const json::value* uri = params.if_contains("uri");
  if (!uri || !uri->is_string() || uri->get_string().empty())
    return std::string("Invalid params: \"uri\" must be a non-empty string");
  if (method == "resources/subscribe") {
    // Owed updates are a subset of the subscriptions: capping these at the
    // pending bound means an update is never dropped, only coalesced.
    const std::size_t limit = std::min(options.max_subscriptions, options.max_pending_updates);
    if (subscriptions.size() >= limit && !subscriptions.count(std::string(uri->get_string())))
      return "Invalid params: this session already watches " + std::to_string(limit) +
             " resources (the limit); unsubscribe from some first";
    subscriptions.emplace(uri->get_string());
  } else {
    subscriptions.erase(std::string(uri->get_string()));
    updates.forget(uri->get_string());
  }
  return std::nullopt;
}

std::optional<LogLevel> requested_log_level(const json::object& params) {
  const json::value* level = params.if_contains("level");
  if (level && level->is_string()) return parse_log_level(level->get_string());
  return std::nullopt;
}

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
      // Counted before it runs: a call that never suspends is answered inside handle_one.
      ++batch->pending;
      if (!handle_one(std::move(item), reply, batch)) --batch->pending;
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
  // 2025-03-26 (the revision with batches): initialize MUST NOT be batched.
  // This member gets the error; the others get their own answers.
  if (batch && id && method == "initialize")
    return invalid("Invalid Request: initialize must not be part of a JSON-RPC batch; send it as a message of its own");
  if (id && modern::is_modern_request(method, params))
    return handle_modern(std::move(reply_id), method, std::move(params), reply, batch);
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
  if (method.starts_with("tasks/")) return handle_task_method(std::move(id), method, params, reply, batch);

  const Registry& registry = core_->registry;
  const std::size_t page = core_->options.page_size;
  try {
    if (method == "logging/setLevel") return result(set_log_level(params));
    if (method == "tools/list") {
      if (!registry.has_tools()) return error(error_code::method_not_found, "Method not found: tools/list");
      return result(methods::list_tools(registry, params, page, info_.read_only, info_.protocol_version));
    }
    if (method == "resources/list" || method == "resources/templates/list" || method == "resources/subscribe" ||
        method == "resources/unsubscribe") {
      if (!registry.has_resources())
        return error(error_code::method_not_found, "Method not found: " + std::string(method));
      if (method == "resources/list") return result(methods::list_resources(registry, params, page));
      if (method == "resources/templates/list") return result(methods::list_resource_templates(registry, params, page));
      const std::size_t before = subscriptions_.size();
      if (std::optional<std::string> refused =
              change_subscription(method, params, subscriptions_, updates_, core_->options))
        return error(error_code::invalid_params, *refused);
      if (!subscriptions_.empty()) core_->resources_watched->store(true);
      if (subscriptions_.size() != before) {
        const std::string_view op = method == "resources/subscribe" ? "subscribe" : "unsubscribe";
        note_state_changed(json::object{{op, params.at("uri")}});
      }
      return result(json::object());
    }
    if (method == "prompts/list") {
      if (!registry.has_prompts()) return error(error_code::method_not_found, "Method not found: prompts/list");
      return result(methods::list_prompts(registry, params, page));
    }
  } catch (const McpError& e) {
    return error(e.code(), e.what(), e.data());
  }

  if (method == "tools/call" && registry.has_task_tools() && call_as_task(id, params, reply, batch)) return false;
  bool async = (method == "tools/call" && registry.has_tools()) ||
               (method == "resources/read" && registry.has_resources()) ||
               (method == "prompts/get" && registry.has_prompts()) ||
               (method == "completion/complete" && registry.has_completion()) ||
               registry.find_extension_method(method) != nullptr;
  if (!async) return error(error_code::method_not_found, "Method not found: " + std::string(method));
  spawn_request(std::move(id), std::string(method), std::move(params), reply, batch);
  return true;
}

json::object Session::set_log_level(const json::object& params) {
  const std::optional<LogLevel> parsed = requested_log_level(params);
  if (!parsed)
    throw McpError(error_code::invalid_params,
                   "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, "
                   "emergency");
  const bool changed = log_level_ != *parsed;
  log_level_ = *parsed;
  if (changed) note_state_changed(json::object{{"logLevel", to_string(log_level_)}});
  return json::object();
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
    if (it == in_flight_.end()) {
      cancel_modern(id_key(*request_id));  // a 2026-era request (stdio), or unknown: ignored
      return;
    }
    auto request = it->second;
    request->cancelled = true;
    request->signal.emit(asio::cancellation_type::terminal);
    return;
  }
  // notifications/initialized, progress for our requests, roots/list_changed:
  // nothing to do (the session is usable as soon as initialize was answered).
}
// ---- SessionInfo ------------------------------------------------------------------

json::object SessionInfo::to_json() const {
  json::object out;
  out.emplace("protocolVersion", protocol_version);
  out.emplace("clientInfo", client_info);
  out.emplace("capabilities", client_capabilities);
  if (read_only) out.emplace("readOnly", true);
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
  if (const json::value* r = persisted.if_contains("readOnly"); r && r->is_bool()) info.read_only = r->get_bool();
  return info;
}

}  // namespace hamcp::mcp
