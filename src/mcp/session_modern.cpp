// The 2026-07-28 era inside a Session: each modern request is checked against
// its own _meta and served by a child Session built from it (stateless: no
// initialize, no negotiated state), with server/discover and
// subscriptions/listen, and answers shaped for the era (modern_era.hpp).
#include "mcp/errors.hpp"
#include "mcp/modern_era.hpp"
#include "mcp/server.hpp"
#include "mcp/session.hpp"
#include "mcp/session_parts.hpp"

namespace hamcp::mcp {

using detail::id_key;

bool Session::Listen::wants(std::string_view method) const {
  if (method == "notifications/tools/list_changed") return tools;
  if (method == "notifications/prompts/list_changed") return prompts;
  if (method == "notifications/resources/list_changed") return resources;
  // resources/updated: only the URIs listed, which notify_resource_updated checks.
  return method == "notifications/resources/updated";
}

json::object Session::server_info() const {
  const ServerOptions& options = core_->options;
  json::object info;
  info.emplace("name", options.name);
  info.emplace("version", options.version);
  if (!options.title.empty()) info.emplace("title", options.title);
  return info;
}

json::object Session::discover_result() const {
  json::object result;
  result.emplace("supportedVersions", modern::supported_versions());
  json::object capabilities = core_->capabilities();
  capabilities.erase("tasks");  // 2026-07-28: tasks are the io.modelcontextprotocol/tasks extension
  result.emplace("capabilities", std::move(capabilities));
  if (!core_->options.instructions.empty()) result.emplace("instructions", core_->options.instructions);
  return result;
}

std::shared_ptr<Session> Session::modern_child(const modern::RequestMeta& meta) {
  std::shared_ptr<Session> child(new Session(core_, id_));
  child->modern_ = true;
  child->state_ = State::ready;
  child->info_.protocol_version = meta.protocol_version;
  child->info_.client_info = meta.client_info;
  child->info_.client_capabilities = meta.client_capabilities;
  child->info_.read_only = info_.read_only;
  child->info_.principal = info_.principal;
  child->silent_logs_ = !meta.log_level.has_value();
  if (meta.log_level) child->log_level_ = *meta.log_level;
  std::erase_if(modern_children_, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  modern_children_.push_back(child);
  return child;
}

bool Session::handle_modern(json::value id, std::string_view method, json::object params,
                            const std::shared_ptr<Channel>& reply, const std::shared_ptr<Batch>& batch) {
  auto shaped = std::make_shared<modern::ShapingChannel>(reply, std::string(method), server_info());
  auto error = [&](int code, std::string_view message, json::value data = nullptr) {
    if (batch)
      respond(reply, batch, make_error_response(id, code, message, std::move(data)));
    else if (shaped->is_open())
      shaped->send(make_error_response(id, code, message, std::move(data)));
    return false;
  };
  if (batch) return error(error_code::invalid_request, "Invalid Request: 2026-07-28 requests cannot be batched");
  if (state_ == State::shut_down) return error(error_code::invalid_request, "Session is closed");
  try {
    modern::check_request_meta(params);
  } catch (const McpError& e) {
    return error(e.code(), e.what(), e.data());
  }
  if (modern::is_removed_method(method))
    return error(error_code::method_not_found,
                 "Method not found: " + std::string(method) + " is not part of MCP 2026-07-28");
  if (method == "server/discover") {
    if (shaped->is_open()) shaped->send(make_result_response(std::move(id), discover_result()));
    return false;
  }
  auto child = modern_child(modern::read_request_meta(params));
  if (method == "subscriptions/listen") {
    const bool open = child->start_listen(std::move(id), params, shaped);
    if (open) listeners_.push_back(child);
    return open;
  }
  return child->handle_request(std::move(id), method, std::move(params), shaped, nullptr);
}

bool Session::start_listen(json::value id, const json::object& params, const std::shared_ptr<Channel>& reply) {
  const json::value* wanted = params.if_contains("notifications");
  if (!wanted || !wanted->is_object()) {
    if (reply->is_open())
      reply->send(make_error_response(id, error_code::invalid_params,
                                      "Invalid params: \"notifications\" must be an object (SubscriptionFilter: "
                                      "toolsListChanged, promptsListChanged, resourcesListChanged, "
                                      "resourceSubscriptions)"));
    return false;
  }
  const json::object& filter = wanted->get_object();
  auto flag = [&](std::string_view key) {
    const json::value* v = filter.if_contains(key);
    return v && v->is_bool() && v->get_bool();
  };
  const Registry& registry = core_->registry;
  Listen listen;
  listen.id = id;
  listen.tools = flag("toolsListChanged") && registry.has_tools();
  listen.prompts = flag("promptsListChanged") && registry.has_prompts();
  listen.resources = flag("resourcesListChanged") && registry.has_resources();
  json::object honored;
  if (listen.tools) honored.emplace("toolsListChanged", true);
  if (listen.prompts) honored.emplace("promptsListChanged", true);
  if (listen.resources) honored.emplace("resourcesListChanged", true);
  if (const json::value* uris = filter.if_contains("resourceSubscriptions");
      uris && uris->is_array() && registry.has_resources()) {
    json::array granted;
    for (const json::value& uri : uris->get_array()) {
      if (!uri.is_string() || uri.get_string().empty()) continue;
      subscriptions_.emplace(uri.get_string());
      granted.emplace_back(uri);
    }
    if (!subscriptions_.empty()) core_->resources_watched->store(true);
    honored.emplace("resourceSubscriptions", std::move(granted));
  }
  listen_ = std::move(listen);
  standalone_ = reply;
  // Listed with the server, so Server::notify_* reach this stream; the parent
  // keeps it alive until the client cancels it or the parent shuts down.
  std::erase_if(core_->sessions, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  core_->sessions.push_back(shared_from_this());
  json::object ack;
  ack.emplace("notifications", std::move(honored));
  json::object meta;
  meta.emplace(modern::kMetaSubscriptionId, id);
  ack.emplace("_meta", std::move(meta));
  send_unsolicited(make_notification("notifications/subscriptions/acknowledged", std::move(ack)));
  return true;  // the reply stays open: this is a long-lived stream
}

bool Session::cancel_modern(const std::string& key) {
  std::erase_if(modern_children_, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  for (auto& weak : modern_children_) {
    auto child = weak.lock();
    if (!child) continue;
    if (child->listen_ && id_key(child->listen_->id) == key) {
      // Cancelling a listen ends the stream; nothing more is sent on it.
      std::erase(listeners_, child);
      child->shutdown();
      child->standalone_.reset();
      return true;
    }
    auto it = child->in_flight_.find(key);
    if (it == child->in_flight_.end()) continue;
    auto request = it->second;
    request->cancelled = true;
    request->signal.emit(asio::cancellation_type::terminal);
    return true;
  }
  return false;
}

namespace {
constexpr std::string_view kAnswersKey = "hamcp.answers";

std::string_view capability_for(std::string_view method) {
  if (method == "sampling/createMessage") return "sampling";
  if (method == "elicitation/create") return "elicitation";
  if (method == "roots/list") return "roots";
  return {};
}
}  // namespace

void SessionRequestContext::set_round_trip(const json::object& params) {
  if (const json::value* v = params.if_contains("inputResponses"); v && v->is_object()) {
    input_responses_ = v->get_object();
    for (const auto& [key, answer] : v->get_object()) answers_[key] = answer;
  }
  const json::value* state = params.if_contains("requestState");
  if (!state || !state->is_string()) return;
  request_state_ = std::string(state->get_string());
  // Answers of earlier rounds, when this server's own round trips wrote the state.
  boost::system::error_code ec;
  json::value parsed = json::parse(request_state_, ec);
  if (ec || !parsed.is_object()) return;
  const json::value* earlier = parsed.get_object().if_contains(kAnswersKey);
  if (!earlier || !earlier->is_object()) return;
  for (const auto& [key, answer] : earlier->get_object())
    if (!answers_.contains(key)) answers_[key] = answer;
}

asio::awaitable<json::value> SessionRequestContext::ask_in_round_trips(std::string method, json::object params) {
  if (std::string_view capability = capability_for(method);
      !capability.empty() && !session_->info_.client_supports(capability)) {
    json::object missing;
    missing.emplace(capability, json::object());
    json::object data;
    data.emplace("requiredCapabilities", std::move(missing));
    throw McpError(error_code::missing_client_capability,
                   "Missing required client capability: this request needs \"" + std::string(capability) +
                       "\" in _meta[\"io.modelcontextprotocol/clientCapabilities\"]",
                   std::move(data));
  }
  // A handler asks the same questions in the same order on every retry, so
  // the n-th question of a run has the same key each time.
  const std::string key = "input_" + std::to_string(++asked_);
  if (const json::value* answer = answers_.if_contains(key)) co_return *answer;
  json::object question;
  question.emplace("method", method);
  question.emplace("params", std::move(params));
  json::object requests;
  requests.emplace(key, std::move(question));
  std::string state;
  if (!answers_.empty()) {
    json::object carried;
    carried.emplace(kAnswersKey, answers_);
    state = json::serialize(carried);
  }
  throw InputRequired(std::move(requests), std::move(state));
}

}  // namespace hamcp::mcp
