// SupervisorClient::ingress_http: an add-on's ingress UI/API the way HA's
// frontend reaches it (hassio/ingress.py, supervisor/api/ingress.py). The
// Supervisor makes sessions only for Home Assistant (require_home_assistant),
// so the session always comes through HA's WebSocket command supervisor/api,
// on both routes. A session lives 15 minutes and each validation extends it:
// one is kept per HA connection and validated before reuse.
#include <boost/asio/this_coro.hpp>
#include <map>
#include <mutex>

#include "ha/supervisor_client.hpp"

namespace hamcp::ha {
namespace json = boost::json;

namespace {

// The kept session per HA connection (keyed by the client's address; a stale
// entry only costs one refused validation).
std::mutex& sessions_mutex() {
  static std::mutex m;
  return m;
}
std::map<const void*, std::string>& sessions() {
  static std::map<const void*, std::string> kept;
  return kept;
}

std::string kept_session(const void* key) {
  std::lock_guard lock(sessions_mutex());
  auto it = sessions().find(key);
  return it == sessions().end() ? std::string() : it->second;
}

void keep_session(const void* key, std::string session) {
  std::lock_guard lock(sessions_mutex());
  if (session.empty())
    sessions().erase(key);
  else
    sessions()[key] = std::move(session);
}

// Where HA's HTTP server answers /api/hassio_ingress/: through the Supervisor's
// Core proxy the cookie would be dropped, so inside an add-on HA is reached on
// the Supervisor's network (homeassistant:8123) or at a test endpoint.
ConnectionSettings ingress_settings(const ConnectionSettings& ha, SupervisorRoute route) {
  ConnectionSettings s = ha;
  s.token = Secret();  // the add-on is not given hamcp's token: the session cookie is the credential
  if (route == SupervisorRoute::direct) {
    s.base_path.clear();
    s.api_prefix = "/api";
    if (s.host == "supervisor") {
      s.tls = false;
      s.host = "homeassistant";
      s.port = 8123;
      s.host_header = "homeassistant:8123";
    }
  }
  return s;
}

}  // namespace

boost::asio::awaitable<std::string> SupervisorClient::ingress_session(bool fresh) {
  const void* key = &ha_;
  std::string session = fresh ? std::string() : kept_session(key);
  if (!session.empty()) {
    try {
      auto validating = call_proxy("post", "/ingress/validate_session", json::object{{"session", session}}, {});
      co_await std::move(validating);
      co_return session;
    } catch (const SupervisorException& e) {
      if (e.failure().kind == SupervisorFailure::Kind::unavailable) throw;
      session.clear();  // expired or unknown: make a new one
    }
  }
  auto creating = call_proxy("post", "/ingress/session", {}, {});
  const json::value made = co_await std::move(creating);
  const json::object* o = made.if_object();
  const json::value* s = o ? o->if_contains("session") : nullptr;
  if (!s || !s->is_string() || s->get_string().empty())
    throw SupervisorException({SupervisorFailure::Kind::refused, 0, "The Supervisor gave no ingress session."});
  session = std::string(s->get_string());
  keep_session(key, session);
  co_return session;
}

boost::asio::awaitable<Response> SupervisorClient::ingress_request(const std::string& target, const std::string& method,
                                                                   const json::value& body,
                                                                   const std::string& session) {
  auto executor = co_await boost::asio::this_coro::executor;
  RestClient rest(executor, ingress_settings(*ha_.settings(), route()));
  rest.set_retry_policy(RetryPolicy{1, std::chrono::milliseconds(0), std::chrono::milliseconds(0)});
  rest.set_cookie(Secret("ingress_session=" + session));
  auto sending = rest.send(method, target, body);
  Response r = co_await std::move(sending);
  r.body = Secret(session).scrub(std::move(r.body));
  co_return r;
}

boost::asio::awaitable<Response> SupervisorClient::ingress_http(std::string token, std::string method, std::string path,
                                                                json::value body) {
  if (!ha_.settings()) throw SupervisorException(no_supervisor());
  const std::string target = "/api/hassio_ingress/" + token + path;
  auto opening = ingress_session(false);
  std::string session = co_await std::move(opening);
  auto sending = ingress_request(target, method, body, session);
  Response r = co_await std::move(sending);
  if (r.status != 401) co_return r;
  // Refused before it reached the add-on (the Supervisor checks the cookie
  // first), so even a POST may go once more, with a new session.
  keep_session(&ha_, {});
  auto renewing = ingress_session(true);
  session = co_await std::move(renewing);
  auto resending = ingress_request(target, method, body, session);
  Response again = co_await std::move(resending);
  co_return again;
}

}  // namespace hamcp::ha
