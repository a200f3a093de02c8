#include "ha/errors.hpp"

#include <fmt/format.h>

namespace hamcp::ha {

std::string_view to_string(ErrorCause cause) noexcept {
  switch (cause) {
    case ErrorCause::invalid_url:
      return "invalid_url";
    case ErrorCause::missing_token:
      return "missing_token";
    case ErrorCause::invalid_ca_file:
      return "invalid_ca_file";
    case ErrorCause::dns_failure:
      return "dns_failure";
    case ErrorCause::connection_refused:
      return "connection_refused";
    case ErrorCause::timeout:
      return "timeout";
    case ErrorCause::network_unreachable:
      return "network_unreachable";
    case ErrorCause::macos_local_network:
      return "macos_local_network";
    case ErrorCause::tls_to_plain_port:
      return "tls_to_plain_port";
    case ErrorCause::plain_to_tls_port:
      return "plain_to_tls_port";
    case ErrorCause::certificate_untrusted:
      return "certificate_untrusted";
    case ErrorCause::hostname_mismatch:
      return "hostname_mismatch";
    case ErrorCause::tls_failure:
      return "tls_failure";
    case ErrorCause::unauthorized:
      return "unauthorized";
    case ErrorCause::forbidden:
      return "forbidden";
    case ErrorCause::not_found:
      return "not_found";
    case ErrorCause::bad_request:
      return "bad_request";
    case ErrorCause::server_error:
      return "server_error";
    case ErrorCause::ha_starting:
      return "ha_starting";
    case ErrorCause::connection_lost:
      return "connection_lost";
    case ErrorCause::protocol_error:
      return "protocol_error";
    case ErrorCause::command_failed:
      return "command_failed";
    case ErrorCause::not_connected:
      return "not_connected";
    case ErrorCause::internal:
      return "internal";
  }
  return "internal";
}

HaError make_error(ErrorCause cause, std::string target, std::string detail) {
  HaError e;
  e.cause = cause;
  e.target = std::move(target);
  e.detail = std::move(detail);
  return e;
}

std::string HaError::explanation() const {
  const std::string& t = target.empty() ? std::string("Home Assistant") : target;
  switch (cause) {
    case ErrorCause::invalid_url:
      return "HOMEASSISTANT_URL is missing or not a valid http(s) URL";
    case ErrorCause::missing_token:
      return "no Home Assistant access token was given (HOMEASSISTANT_TOKEN is empty)";
    case ErrorCause::invalid_ca_file:
      return "the CA file in HOMEASSISTANT_CA_FILE could not be read as PEM certificates";
    case ErrorCause::dns_failure:
      return fmt::format("the host name of {} could not be resolved (DNS lookup failed)", t);
    case ErrorCause::connection_refused:
      return fmt::format("connection refused by {}: the host is up but nothing listens on that port", t);
    case ErrorCause::timeout:
      return fmt::format("{} did not answer in time", t);
    case ErrorCause::network_unreachable:
      return fmt::format("no network route to {}", t);
    case ErrorCause::macos_local_network:
      return fmt::format(
          "connecting to the local-network address {} failed on macOS. macOS 'Local Network' privacy "
          "silently blocks LAN connections from programs started by apps such as Claude Desktop, and "
          "shows no permission prompt for them: the same URL usually works from Terminal",
          t);
    case ErrorCause::tls_to_plain_port:
      return fmt::format(
          "{} was reached with https://, but this port speaks plain HTTP (TLS handshake "
          "failed: the answer was not TLS)",
          t);
    case ErrorCause::plain_to_tls_port:
      return fmt::format(
          "{} was reached with http://, but this port speaks TLS (HTTPS): the answer "
          "was not HTTP",
          t);
    case ErrorCause::certificate_untrusted:
      return fmt::format("the TLS certificate of {} is not trusted (self-signed or from an unknown CA)", t);
    case ErrorCause::hostname_mismatch:
      return fmt::format("the TLS certificate of {} was issued for a different host name", t);
    case ErrorCause::tls_failure:
      return fmt::format("the TLS handshake with {} failed", t);
    case ErrorCause::unauthorized:
      return "Home Assistant rejected the access token (401): it is wrong, expired or was revoked";
    case ErrorCause::forbidden:
      return "Home Assistant refused the request (403): the token's user may not do this, or the "
             "client IP was banned after failed logins (ip_ban_enabled)";
    case ErrorCause::not_found:
      return fmt::format("{} answered 404 Not Found: the base URL or path is wrong", t);
    case ErrorCause::bad_request:
      return "Home Assistant rejected the request data (400)";
    case ErrorCause::server_error:
      return fmt::format("Home Assistant reported an internal error (HTTP {})", http_status);
    case ErrorCause::ha_starting:
      return "Home Assistant is starting or stopping and not ready to serve requests yet";
    case ErrorCause::connection_lost:
      return fmt::format("the connection to {} was lost", t);
    case ErrorCause::protocol_error:
      return fmt::format("{} sent something that is not valid Home Assistant protocol", t);
    case ErrorCause::command_failed:
      return fmt::format("Home Assistant rejected the command ({})", ha_code.empty() ? "error" : ha_code);
    case ErrorCause::not_connected:
      return "not connected to Home Assistant yet (hamcp keeps retrying in the background)";
    case ErrorCause::internal:
      return "internal error in hamcp";
  }
  return "unknown error";
}

std::string HaError::fix() const {
  switch (cause) {
    case ErrorCause::invalid_url:
      return "set HOMEASSISTANT_URL (or --ha-url) to the address you open Home Assistant at in a "
             "browser, e.g. http://homeassistant.local:8123 or http://192.168.1.10:8123";
    case ErrorCause::missing_token:
      return "create a long-lived access token in Home Assistant (your Profile -> Security -> "
             "Long-lived access tokens -> Create token) and set HOMEASSISTANT_TOKEN to it";
    case ErrorCause::invalid_ca_file:
      return "point HOMEASSISTANT_CA_FILE (--ha-ca-file) at a readable PEM file holding the CA or "
             "self-signed certificate of your Home Assistant";
    case ErrorCause::dns_failure:
      return "check the spelling of the host in HOMEASSISTANT_URL; if .local names do not resolve "
             "here, use the IP address instead";
    case ErrorCause::connection_refused:
      return "check the port in HOMEASSISTANT_URL (Home Assistant's default is 8123) and that Home "
             "Assistant is running";
    case ErrorCause::timeout:
      return "check that the host is up and reachable from this machine (firewall, VPN); raise "
             "HA_TIMEOUT if Home Assistant is just slow";
    case ErrorCause::network_unreachable:
      return "check the network connection and the address in HOMEASSISTANT_URL";
    case ErrorCause::macos_local_network:
      return "allow the app in System Settings -> Privacy & Security -> Local Network if it is "
             "listed; otherwise forward Home Assistant to localhost, which macOS does not restrict: "
             "run `ssh -N -L 8123:localhost:8123 user@<ha-host>` and set "
             "HOMEASSISTANT_URL=http://localhost:8123";
    case ErrorCause::tls_to_plain_port:
      return "this port speaks plain HTTP: use http:// instead of https:// in HOMEASSISTANT_URL";
    case ErrorCause::plain_to_tls_port:
      return "this port speaks TLS: use https:// instead of http:// in HOMEASSISTANT_URL";
    case ErrorCause::certificate_untrusted:
      return "set HOMEASSISTANT_CA_FILE (--ha-ca-file) to the PEM certificate of your Home Assistant "
             "(or its CA); or, on a network you trust, set HOMEASSISTANT_INSECURE_TLS=1 to skip the "
             "check";
    case ErrorCause::hostname_mismatch:
      return "use the host name the certificate was issued for in HOMEASSISTANT_URL; or set "
             "HOMEASSISTANT_CA_FILE to a certificate that covers this name; or, on a network you "
             "trust, HOMEASSISTANT_INSECURE_TLS=1";
    case ErrorCause::tls_failure:
      return "check that the URL's scheme matches the server (https:// only if Home Assistant or "
             "its proxy serves TLS on that port)";
    case ErrorCause::unauthorized:
      return "create a new long-lived access token in Home Assistant (your Profile -> Security -> "
             "Long-lived access tokens -> Create token) and set HOMEASSISTANT_TOKEN to it";
    case ErrorCause::forbidden:
      return "use a token of an administrator user; if you had failed logins, remove this IP from "
             "ip_bans.yaml in the Home Assistant config directory and restart it";
    case ErrorCause::not_found:
      return "set HOMEASSISTANT_URL to the root address of Home Assistant without any path: hamcp "
             "adds /api itself (e.g. http://host:8123, not http://host:8123/api); include a path "
             "only if a reverse proxy serves Home Assistant under one";
    case ErrorCause::bad_request:
      return "check the request's fields against the error detail";
    case ErrorCause::server_error:
      return "look at the Home Assistant log (Settings -> System -> Logs) for the cause";
    case ErrorCause::ha_starting:
      return "wait until Home Assistant has finished starting; hamcp retries read requests "
             "automatically";
    case ErrorCause::connection_lost:
      return "hamcp reconnects automatically; retry the request";
    case ErrorCause::protocol_error:
      return "check that HOMEASSISTANT_URL points at Home Assistant itself and not at another "
             "service or a proxy that rewrites its answers";
    case ErrorCause::command_failed:
      return "check the command's arguments against the error message";
    case ErrorCause::not_connected:
      return "run `hamcp doctor` to see why Home Assistant cannot be reached";
    case ErrorCause::internal:
      return "please report this as a bug";
  }
  return {};
}

bool HaError::retryable() const noexcept {
  switch (cause) {
    case ErrorCause::timeout:
    case ErrorCause::server_error:
    case ErrorCause::ha_starting:
    case ErrorCause::connection_lost:
    case ErrorCause::not_connected:
    case ErrorCause::connection_refused:   // HA restarting looks like this
    case ErrorCause::network_unreachable:  // Wi-Fi roaming, VPN coming up
      return true;
    default:
      return false;
  }
}

std::string HaError::message() const {
  std::string out = explanation();
  if (!detail.empty()) out += fmt::format(" [{}]", detail);
  const std::string f = fix();
  if (!f.empty()) out += ". Fix: " + f;
  return out;
}

boost::json::object HaError::to_json() const {
  boost::json::object o;
  o["cause"] = to_string(cause);
  o["explanation"] = explanation();
  o["fix"] = fix();
  o["retryable"] = retryable();
  if (!target.empty()) o["target"] = target;
  if (!detail.empty()) o["detail"] = detail;
  if (http_status != 0) o["http_status"] = http_status;
  if (!ha_code.empty()) o["ha_code"] = ha_code;
  return o;
}

}  // namespace hamcp::ha
