#include "ha/supervisor_client.hpp"

#include <algorithm>
#include <boost/asio/this_coro.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace hamcp::ha {
namespace json = boost::json;

namespace {

std::string query_string(const json::object& params) {
  std::string q;
  for (const auto& [key, value] : params) {
    q += q.empty() ? "?" : "&";
    q += std::string(key);
    if (value.is_string() && !value.get_string().empty()) q += "=" + std::string(value.get_string());
    if (value.is_int64()) q += "=" + std::to_string(value.get_int64());
  }
  return q;
}

// The Supervisor's envelope, or its plain-text error.
json::value unwrap(const Response& r) {
  json::value parsed;
  if (r.content_type.rfind("application/json", 0) == 0) {
    boost::system::error_code ec;
    parsed = json::parse(r.body, ec);
  }
  const json::object* envelope = parsed.if_object();
  if (r.ok() && envelope) {
    const json::value* data = envelope->if_contains("data");
    return data ? *data : json::value(json::object{});
  }
  const json::value* message = envelope ? envelope->if_contains("message") : nullptr;
  SupervisorFailure f;
  f.status = r.status;
  f.kind = (r.status == 401 || r.status == 403) ? SupervisorFailure::Kind::forbidden : SupervisorFailure::Kind::refused;
  f.message = message && message->is_string() ? std::string(message->get_string()) : r.body.substr(0, 300);
  throw SupervisorException(std::move(f));
}

// journald lines of one syslog identifier: "<date> <host> <identifier>[pid]: …" or "<identifier>: …".
std::string lines_of(const std::string& text, const std::string& identifier) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(pos, nl - pos);
    if (line.find(" " + identifier + "[") != std::string::npos ||
        line.find(" " + identifier + ":") != std::string::npos)
      out += line + "\n";
    pos = nl + 1;
  }
  return out;
}

}  // namespace

SupervisorFailure no_supervisor() {
  return {SupervisorFailure::Kind::unavailable, 0,
          "No Supervisor here (HA Container/Core): add-ons need HA OS or Supervised."};
}

SupervisorRoute SupervisorClient::route() const {
  const ConnectionSettings* s = ha_.settings();
  return s && s->supervisor && !s->supervisor_token.empty() ? SupervisorRoute::direct : SupervisorRoute::core_proxy;
}

boost::asio::awaitable<json::value> SupervisorClient::call(std::string method, std::string path, json::object body,
                                                           json::object params) {
  if (route() == SupervisorRoute::direct) {
    auto calling = call_direct(std::move(method), std::move(path), std::move(body), std::move(params));
    co_return co_await std::move(calling);
  }
  auto calling = call_proxy(std::move(method), std::move(path), std::move(body), std::move(params));
  co_return co_await std::move(calling);
}

boost::asio::awaitable<json::value> SupervisorClient::call_direct(std::string method, std::string path,
                                                                  json::object body, json::object params) {
  ConnectionSettings settings = *ha_.settings();
  settings.base_path.clear();
  settings.token = settings.supervisor_token;
  auto executor = co_await boost::asio::this_coro::executor;
  RestClient rest(executor, settings);
  const std::string target = path + query_string(params);
  auto sending = rest.send(std::move(method), target, json::value(std::move(body)));
  Response r = co_await std::move(sending);
  co_return unwrap(r);
}

boost::asio::awaitable<json::value> SupervisorClient::call_proxy(std::string method, std::string path,
                                                                 json::object body, json::object params) {
  json::object message{{"type", "supervisor/api"}, {"endpoint", path}, {"method", method}};
  if (!body.empty()) message.emplace("data", std::move(body));
  if (!params.empty()) message.emplace("params", std::move(params));
  message.emplace("timeout", 60);  // install/update can take a while; HA's default is 10 s
  try {
    auto sending = ha_.command(std::move(message), std::chrono::milliseconds(65000));
    json::value result = co_await std::move(sending);
    co_return result;
  } catch (const HaException& e) {
    const HaError& err = e.error();
    if (err.cause != ErrorCause::command_failed) throw;
    if (err.ha_code == "unknown_command") throw SupervisorException(no_supervisor());
    SupervisorFailure f;
    f.kind = err.ha_code == "unauthorized" ? SupervisorFailure::Kind::forbidden : SupervisorFailure::Kind::refused;
    f.message = err.detail;
    throw SupervisorException(std::move(f));
  }
}

boost::asio::awaitable<std::string> SupervisorClient::log_text(std::string path, int lines) {
  if (route() == SupervisorRoute::core_proxy) {
    auto reading = log_via_core(std::move(path), lines);
    co_return co_await std::move(reading);
  }
  ConnectionSettings settings = *ha_.settings();
  settings.base_path.clear();
  settings.token = settings.supervisor_token;
  auto executor = co_await boost::asio::this_coro::executor;
  RestClient rest(executor, settings);
  auto getting = rest.get(path + "?no_colors&lines=" + std::to_string(lines));
  Response r = co_await std::move(getting);
  if (!r.ok()) unwrap(r);  // throws the Supervisor's error
  co_return r.body;
}

boost::asio::awaitable<Response> SupervisorClient::addon_http(std::string host, std::uint16_t port, std::string method,
                                                              std::string path, json::value body) {
  ConnectionSettings settings = *ha_.settings();
  settings.tls = false;
  settings.host = host;
  settings.port = port;
  settings.host_header = host + ":" + std::to_string(port);
  settings.base_path.clear();
  settings.api_prefix = "/api";
  settings.token = Secret();  // the add-on's API is not given hamcp's tokens
  auto executor = co_await boost::asio::this_coro::executor;
  RestClient rest(executor, settings);
  rest.set_retry_policy(RetryPolicy{1, std::chrono::milliseconds(0), std::chrono::milliseconds(0)});
  auto sending = rest.send(std::move(method), std::move(path), std::move(body));
  co_return co_await std::move(sending);
}

boost::asio::awaitable<std::string> SupervisorClient::log_via_core(std::string path, int lines) {
  // HA proxies only some log paths (hassio/http.py PATHS_ADMIN): a host
  // service's lines are picked out of the host log.
  std::string identifier;
  const std::string host_prefix = "/host/logs/identifiers/";
  if (path.rfind(host_prefix, 0) == 0) {
    identifier = path.substr(host_prefix.size());
    path = "/host/logs";
    lines = std::max(lines * 20, 1000);
  }
  auto getting = ha_.rest_get("/api/hassio" + path + "?no_colors&lines=" + std::to_string(lines));
  Response r = co_await std::move(getting);
  if (r.status == 404 && r.body.find("\"result\"") == std::string::npos) throw SupervisorException(no_supervisor());
  if (!r.ok()) unwrap(r);
  co_return identifier.empty() ? r.body : lines_of(r.body, identifier);
}

}  // namespace hamcp::ha
