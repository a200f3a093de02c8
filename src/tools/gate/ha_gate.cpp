#include "tools/gate/ha_gate.hpp"

#include <algorithm>

#include "ha/supervisor_client.hpp"
#include "tools/gate/entity_filter.hpp"
#include "tools/gate/template_guard.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {
namespace {

std::string type_of(const boost::json::object& message) {
  const boost::json::value* type = message.if_contains("type");
  return type && type->is_string() ? std::string(type->get_string()) : std::string("(no type)");
}

ToolError read_only_refusal(RequestKind kind, std::string_view what) {
  const std::string request = std::string(to_string(kind)) + " " + std::string(what);
  json::object refused;
  refused.emplace("kind", to_string(kind));
  refused.emplace("request", what);
  return ToolError{"read_only",
                   "hamcp is in read-only mode and refused " + request +
                       ": it is not a known read. Nothing was sent to Home Assistant.",
                   "Reads still work. To allow writes, run hamcp without --read-only / READ_ONLY_MODE (add-on "
                   "option read_only: false) and connect to the MCP path, not /mcp/readonly.",
                   {{"refused", std::move(refused)}, {"written", false}}};
}

// A rendered template (POST /api/template, render_template) under a visibility
// filter: entities by literal ids only (template_guard.hpp), since what Jinja
// renders from an id built at run time cannot be masked afterwards.
void check_template(const boost::json::value& request, const HiddenSet& hidden) {
  const boost::json::object* o = request.if_object();
  const boost::json::value* text = o ? o->if_contains("template") : nullptr;
  if (!text || !text->is_string()) return;
  if (hidden.empty()) return;
  const auto found = unnamed_entity_access(text->get_string());
  if (!found) return;
  throw ToolException(ToolError{
      "template_not_allowed",
      "An entity visibility filter is active, and this template reads entities other than by a literal id (at \"" +
          found->at + "\"): what it renders could show hidden entities." +
          (found->why.empty() ? std::string() : " " + found->why + ".") + " Nothing was sent to Home Assistant.",
      "Name each entity literally: states('light.kitchen'), is_state('light.kitchen', 'on'), "
      "state_attr('light.kitchen', 'brightness'), states.light.kitchen. No ids built with ~ or +, no states.<domain> "
      "loops, expand() or area_entities().",
      {{"written", false}}});
}

}  // namespace

void HaGate::check(RequestKind kind, std::string_view what) const {
  if (read_only_ && !is_known_read(kind, what)) throw ToolException(read_only_refusal(kind, what));
}

HiddenSetPtr HaGate::hidden_now() const {
  static const HiddenSetPtr kNothingHidden = std::make_shared<const HiddenSet>();
  if (!visibility_ || !visibility_->active()) return kNothingHidden;
  return visibility_->hidden(client_.snapshot());
}

boost::asio::awaitable<HiddenSetPtr> HaGate::hidden_entities() {
  if (visibility_ && visibility_->exposure_stale()) {
    std::optional<std::unordered_set<std::string>> exposed;
    try {
      boost::json::object message{{"type", "homeassistant/expose_entity/list"}};
      auto listing = client_.command(std::move(message));  // named: GCC 12 coroutine temporaries
      const boost::json::value result = co_await std::move(listing);
      exposed.emplace();
      if (const auto* map = result.is_object() ? result.as_object().if_contains("exposed_entities") : nullptr;
          map && map->is_object())
        for (const auto& kv : map->as_object()) {
          const auto* on = kv.value().is_object() ? kv.value().as_object().if_contains("conversation") : nullptr;
          if (on && on->is_bool() && on->get_bool()) exposed->emplace(kv.key());
        }
    } catch (const ha::HaException&) {
      exposed.reset();  // unknown exposure hides every entity (fail closed)
    }
    visibility_->set_exposure(std::move(exposed));
  }
  co_return hidden_now();
}

void HaGate::check_visible(const boost::json::value& request) const {
  if (!visibility_ || !visibility_->active()) return;
  const HiddenSetPtr hidden = hidden_now();
  if (auto mention = hidden_named_in(request, *hidden))
    throw ToolException(entity_hidden_error(mention->path, "a hidden entity"));
  check_template(request, *hidden);
}

boost::asio::awaitable<std::shared_ptr<ha::HaClient>> HaGate::acting_client() {
  if (principal_.empty()) co_return std::shared_ptr<ha::HaClient>(std::shared_ptr<void>(), &client_);
  std::shared_ptr<ha::HaClient> client;
  if (users_) {  // a signed-in user's call never falls back to hamcp's own token
    try {
      auto opening = users_->client_for(principal_);  // named: GCC 12 coroutine temporaries
      client = co_await std::move(opening);
    } catch (const ha::HaException&) {
      client.reset();
    }
  }
  if (!client)
    throw ToolException("signed_out",
                        "Your Home Assistant sign-in has ended (revoked, or Home Assistant refused to renew it). "
                        "Nothing was sent to Home Assistant.",
                        "Sign in again through your MCP client (it starts the OAuth login).");
  co_return client;
}

boost::asio::awaitable<boost::json::value> HaGate::command(boost::json::object message,
                                                           std::optional<std::chrono::milliseconds> timeout) {
  check(RequestKind::ws_command, type_of(message));
  check_visible(message);
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  auto sending = client->command(std::move(message), timeout);  // named: GCC 12 coroutine temporaries
  co_return co_await std::move(sending);
}

boost::asio::awaitable<boost::json::value> HaGate::call_service(ha::ServiceCall call) {
  check(RequestKind::service, call.domain + "." + call.service);
  if (visibility_ && visibility_->active()) {
    const HiddenSetPtr hidden = hidden_now();
    if (auto target = hidden_service_target(call, *hidden)) throw ToolException(entity_hidden_error("target", *target));
    check_visible(call.data);
    check_visible(call.target);
  }
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  auto calling = client->call_service(std::move(call));
  co_return co_await std::move(calling);
}

boost::asio::awaitable<std::uint64_t> HaGate::subscribe(boost::json::object message,
                                                        ha::WsClient::EventHandler handler) {
  check(RequestKind::ws_subscribe, type_of(message));
  check_visible(message);
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  auto subscribing = client->subscribe(std::move(message), std::move(handler));
  const std::uint64_t handle = co_await std::move(subscribing);
  // A user's subscription is unsubscribed on the same connection (its own ids).
  if (principal_.empty() || !users_) co_return handle;
  co_return users_->remember_subscription(client, handle);
}

boost::asio::awaitable<void> HaGate::unsubscribe(std::uint64_t handle) {
  if (principal_.empty() || !users_) {
    auto unsubscribing = client_.unsubscribe(handle);  // named: GCC 12 coroutine temporaries
    co_await std::move(unsubscribing);
  } else {
    auto unsubscribing = users_->unsubscribe(handle);
    co_await std::move(unsubscribing);
  }
}

boost::asio::awaitable<ha::Response> HaGate::rest_get(std::string path, ha::RequestOptions options) {
  check(RequestKind::rest_get, path);
  check_visible(boost::json::value(path));
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  auto getting = client->rest_get(std::move(path), options);
  co_return co_await std::move(getting);
}

boost::asio::awaitable<ha::Response> HaGate::rest_post(std::string path, boost::json::value body,
                                                       ha::RequestOptions options) {
  check(RequestKind::rest_post, path);
  check_visible(boost::json::value(path));
  check_visible(body);
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  auto posting = client->rest_post(std::move(path), std::move(body), options);
  co_return co_await std::move(posting);
}

boost::asio::awaitable<ha::Response> HaGate::rest_delete(std::string path, ha::RequestOptions options) {
  check(RequestKind::rest_delete, path);
  check_visible(boost::json::value(path));
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  ha::RestClient* rest = client->rest();
  if (!rest) {
    auto failure = client->last_failure();
    throw ha::HaException(failure ? *failure : ha::make_error(ha::ErrorCause::not_connected, ""));
  }
  auto deleting = rest->del(std::move(path), options);
  co_return co_await std::move(deleting);
}

boost::asio::awaitable<boost::json::value> HaGate::rest_get_json(std::string path, ha::RequestOptions options) {
  check(RequestKind::rest_get, path);
  check_visible(boost::json::value(path));
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  auto getting = client->rest_get_json(std::move(path), options);
  co_return co_await std::move(getting);
}

boost::asio::awaitable<boost::json::value> HaGate::rest_post_json(std::string path, boost::json::value body,
                                                                  ha::RequestOptions options) {
  check(RequestKind::rest_post, path);
  check_visible(boost::json::value(path));
  check_visible(body);
  const std::shared_ptr<ha::HaClient> client = co_await acting_client();
  auto posting = client->rest_post_json(std::move(path), std::move(body), options);
  co_return co_await std::move(posting);
}

namespace {
std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}
}  // namespace

boost::asio::awaitable<boost::json::value> HaGate::supervisor(std::string method, std::string path,
                                                              boost::json::object body, boost::json::object params) {
  std::string verb = method;
  std::transform(verb.begin(), verb.end(), verb.begin(), [](unsigned char c) { return std::toupper(c); });
  check(RequestKind::supervisor, verb + " " + path);
  const std::shared_ptr<ha::HaClient> acting = co_await acting_client();
  ha::SupervisorClient client(*acting);
  auto calling = client.call(std::move(method), std::move(path), std::move(body), std::move(params));
  co_return co_await std::move(calling);
}

boost::asio::awaitable<std::string> HaGate::supervisor_log(std::string path, int lines) {
  check(RequestKind::supervisor, "GET " + path);
  const std::shared_ptr<ha::HaClient> acting = co_await acting_client();
  ha::SupervisorClient client(*acting);
  auto reading = client.log_text(std::move(path), lines);
  co_return co_await std::move(reading);
}

boost::asio::awaitable<ha::Response> HaGate::addon_http(std::string slug, std::string host, std::uint16_t port,
                                                        std::string method, std::string path, boost::json::value body) {
  check(RequestKind::supervisor, "PROXY " + upper(method) + " " + slug + " " + path);  // "PROXY GET …" reads
  check_visible(body);
  // Only hamcp's own Supervisor token reaches an add-on's API; Home Assistant
  // has no route to it for a user's token (its hassio views proxy only the
  // Supervisor's own paths, most of them admin-only). A signed-in user's call
  // must not ride on hamcp's rights: refused before anything is sent.
  if (!principal_.empty())
    throw ToolException("not_available_as_user",
                        "An add-on's own API cannot be called as a signed-in user: only hamcp's Supervisor token "
                        "reaches it, and Home Assistant offers no per-user route. Nothing was sent.",
                        "Use the add-on's own UI in Home Assistant, or an MCP client connected with hamcp's bearer "
                        "token (--auth-token) by the person who administers the add-on.");
  ha::SupervisorClient client(client_);
  if (client.route() != ha::SupervisorRoute::direct)
    throw ha::SupervisorException({ha::SupervisorFailure::Kind::unavailable, 0,
                                   "An add-on's own API is reachable only from inside an add-on (hamcp as the "
                                   "hamcp add-on, on the Supervisor's network)."});
  auto calling = client.addon_http(std::move(host), port, std::move(method), std::move(path), std::move(body));
  co_return co_await std::move(calling);
}

boost::asio::awaitable<ha::Response> HaGate::addon_ingress(std::string slug, std::string token, std::string method,
                                                           std::string path, boost::json::value body) {
  check(RequestKind::supervisor, "PROXY " + upper(method) + " " + slug + " " + path);
  check_visible(body);
  const std::shared_ptr<ha::HaClient> acting = co_await acting_client();
  ha::SupervisorClient client(*acting);
  auto calling = client.ingress_http(std::move(token), std::move(method), std::move(path), std::move(body));
  co_return co_await std::move(calling);
}

}  // namespace hamcp::tools
