#include "ha/connection_config.hpp"

#include <fmt/format.h>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <cstdlib>

namespace hamcp::ha {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool truthy(const std::string& v) { return v == "1" || v == "true" || v == "yes" || v == "on"; }

HaError url_error(const std::string& shown, const std::string& what) {
  HaError e = make_error(ErrorCause::invalid_url, {}, fmt::format("HOMEASSISTANT_URL \"{}\": {}", shown, what));
  return e;
}

}  // namespace

void fill_from_environment(ConnectionInput& in) {
  if (in.url.empty()) in.url = env("HOMEASSISTANT_URL");
  if (in.token.empty()) in.token = env("HOMEASSISTANT_TOKEN");
  if (in.ca_file.empty()) in.ca_file = env("HOMEASSISTANT_CA_FILE");
  if (!in.insecure_tls) in.insecure_tls = truthy(env("HOMEASSISTANT_INSECURE_TLS"));
  if (in.supervisor_token.empty()) in.supervisor_token = env("SUPERVISOR_TOKEN");
  if (in.supervisor_endpoint.empty()) in.supervisor_endpoint = env("HAMCP_SUPERVISOR_ENDPOINT");
}

std::string ConnectionSettings::http_target(std::string_view path) const {
  if (path == "/api") return api_prefix;
  if (path.substr(0, 5) == "/api/") return api_prefix + std::string(path.substr(4));
  return base_path + std::string(path);
}

std::string ConnectionSettings::ws_url() const {
  return fmt::format("{}://{}{}", tls ? "wss" : "ws", host_header, ws_path);
}

// Inside a Home Assistant add-on: the Supervisor proxies Core (at supervisor:80, or where
// HAMCP_SUPERVISOR_ENDPOINT says, for tests).
static std::optional<HaError> fill_supervisor_settings(const ConnectionInput& in, ConnectionSettings& s) {
  s.supervisor = true;
  s.tls = false;
  s.host = "supervisor";
  s.port = 80;
  s.host_header = "supervisor";
  if (const auto colon = in.supervisor_endpoint.rfind(':'); colon != std::string::npos) {
    const std::string port = in.supervisor_endpoint.substr(colon + 1);
    const bool numeric = !port.empty() && port.size() <= 5 && port.find_first_not_of("0123456789") == std::string::npos;
    if (!numeric || std::stoul(port) == 0 || std::stoul(port) > 65535) {
      return make_error(
          ErrorCause::invalid_url, {},
          "HAMCP_SUPERVISOR_ENDPOINT \"" + in.supervisor_endpoint + "\" must be host:port, e.g. 127.0.0.1:8080");
    }
    s.host = in.supervisor_endpoint.substr(0, colon);
    s.port = static_cast<std::uint16_t>(std::stoul(port));
    s.host_header = in.supervisor_endpoint;
  }
  s.base_path = "/core";
  s.api_prefix = "/core/api";
  s.ws_path = "/core/websocket";
  s.display_url = "http://" + s.host_header + "/core";
  s.token = Secret(in.token.empty() ? in.supervisor_token : in.token);
  s.supervisor_token = Secret(in.supervisor_token);
  return std::nullopt;
}

std::variant<ConnectionSettings, HaError> make_connection_settings(const ConnectionInput& in) {
  ConnectionSettings s;
  s.request_timeout = in.timeout.count() > 0 ? in.timeout : std::chrono::milliseconds(30000);
  s.connect_timeout = std::min(s.request_timeout, std::chrono::milliseconds(10000));
  s.ca_file = in.ca_file;
  s.insecure_tls = in.insecure_tls;

  if (in.url.empty() && !in.supervisor_token.empty()) {
    if (auto error = fill_supervisor_settings(in, s)) return *error;
    return s;
  }

  if (in.url.empty()) {
    return make_error(ErrorCause::invalid_url, {}, "HOMEASSISTANT_URL is not set");
  }
  // Never echo credentials that may sit in the URL itself.
  std::string shown = in.url;
  if (!in.token.empty()) shown = Secret(in.token).scrub(shown);

  auto parsed = boost::urls::parse_uri(in.url);
  if (!parsed) {
    if (in.url.find("://") == std::string::npos) {
      return url_error(shown, "missing scheme: it must start with http:// or https://");
    }
    return url_error(shown, "not a valid URL (" + parsed.error().message() + ")");
  }
  const boost::urls::url_view u = *parsed;
  const std::string scheme(u.scheme());
  if (scheme != "http" && scheme != "https") {
    if (scheme == "ws" || scheme == "wss") {
      return url_error(shown,
                       "use the http(s):// address of Home Assistant; hamcp finds the "
                       "WebSocket endpoint itself");
    }
    return url_error(shown, "missing scheme: it must start with http:// or https://");
  }
  s.tls = scheme == "https";
  if (u.has_userinfo()) {
    return url_error("<url with credentials>",
                     "user:password@ in the URL is not supported; put the token in HOMEASSISTANT_TOKEN");
  }
  if (u.host_type() == boost::urls::host_type::ipv6) {
    s.host = u.host_ipv6_address().to_string();
  } else {
    s.host = std::string(u.host_address());
  }
  if (s.host.empty()) return url_error(shown, "no host name");
  if (u.has_query() || u.has_fragment()) {
    return url_error(shown, "remove the ?query or #fragment part");
  }
  if (u.has_port()) {
    if (u.port_number() == 0) return url_error(shown, "invalid port");
    s.port = u.port_number();
  } else {
    s.port = s.tls ? 443 : 80;
  }
  const std::string host_for_header = u.host_type() == boost::urls::host_type::ipv6 ? "[" + s.host + "]" : s.host;
  const bool default_port = (s.tls && s.port == 443) || (!s.tls && s.port == 80);
  s.host_header = default_port ? host_for_header : fmt::format("{}:{}", host_for_header, s.port);

  std::string path(u.encoded_path());
  while (!path.empty() && path.back() == '/') path.pop_back();
  s.base_path = path;
  s.api_prefix = path + "/api";
  s.ws_path = path + "/api/websocket";
  s.display_url = fmt::format("{}://{}{}", scheme, s.host_header, path);

  s.token = Secret(in.token.empty() ? in.supervisor_token : in.token);
  return s;
}

}  // namespace hamcp::ha
