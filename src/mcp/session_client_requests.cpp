// Requests from the server to the client (sampling, elicitation, roots) and
// the client's responses to them.
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "mcp/server.hpp"
#include "mcp/session.hpp"
#include "mcp/session_parts.hpp"

namespace hamcp::mcp {

void Session::handle_response(json::object& message) {
  const json::value& id = message["id"];
  if (!id.is_int64() && !id.is_uint64()) return;
  const std::int64_t key = id.is_int64() ? id.get_int64() : static_cast<std::int64_t>(id.get_uint64());
  auto take = [key](Session& session) -> std::shared_ptr<detail::OutgoingRequest> {
    auto it = session.outgoing_.find(key);
    if (it == session.outgoing_.end()) return nullptr;
    auto request = std::move(it->second);
    session.outgoing_.erase(it);
    return request;
  };
  auto request = take(*this);
  // A session rebuilt after an eviction gets the answer to a question an
  // older object of the same session asked: that one's task still runs (and
  // holds it); its question went out on the rebuilt one's tasks/result.
  // Server::create_session keeps the two objects' request ids apart.
  for (std::size_t i = 0; !request && !id_.empty() && i < core_->sessions.size(); ++i) {
    auto other = core_->sessions[i].lock();
    if (other && other.get() != this && other->id_ == id_) request = take(*other);
  }
  if (!request) return;  // late or unknown: ignore
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

}  // namespace hamcp::mcp
