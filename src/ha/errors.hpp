#pragma once
// Typed reasons why talking to Home Assistant failed, each with a plain
// explanation and the fix a user can apply. Every failure the HA layer reports
// is one of these, so tools, `hamcp doctor` and logs all say the same thing.
// No HaError ever contains the access token (see Secret::scrub).

#include <boost/json/object.hpp>
#include <exception>
#include <string>
#include <string_view>

namespace hamcp::ha {

enum class ErrorCause {
  invalid_url,            // HOMEASSISTANT_URL missing or malformed
  missing_token,          // no HOMEASSISTANT_TOKEN
  invalid_ca_file,        // HOMEASSISTANT_CA_FILE unreadable / not PEM
  dns_failure,            // host name does not resolve
  connection_refused,     // nothing listens on that port
  timeout,                // no answer in time
  network_unreachable,    // no route to host
  macos_local_network,    // macOS Local Network privacy blocks a LAN address
  tls_to_plain_port,      // https:// against a plain-HTTP port
  plain_to_tls_port,      // http:// against a TLS port
  certificate_untrusted,  // self-signed / unknown CA
  hostname_mismatch,      // certificate is for another name
  tls_failure,            // other TLS handshake failure
  unauthorized,           // 401 / auth_invalid: token wrong or expired
  forbidden,              // 403: token valid but not allowed (or IP banned)
  not_found,              // 404: wrong base URL or path
  bad_request,            // 400: HA rejected the request data
  server_error,           // 5xx
  ha_starting,            // 503 / core state not RUNNING
  connection_lost,        // established connection dropped
  protocol_error,         // the peer sent something that is not valid HA protocol
  command_failed,         // HA answered a WebSocket command with success:false
  not_connected,          // no connection (yet); the client keeps retrying
  internal,               // a bug in hamcp
};

std::string_view to_string(ErrorCause cause) noexcept;

struct HaError {
  ErrorCause cause = ErrorCause::internal;
  std::string target;   // URL or host:port involved (never credentials)
  std::string detail;   // technical detail: library message, HTTP body excerpt
  int http_status = 0;  // when the cause came from an HTTP status
  std::string ha_code;  // WebSocket error code (command_failed), e.g. "not_found"

  std::string explanation() const;  // what happened, in plain words
  std::string fix() const;          // what the user can do
  bool retryable() const noexcept;  // may the same request succeed later unchanged?
  // One line for logs and tool errors: "<explanation> [<detail>] Fix: <fix>".
  std::string message() const;
  boost::json::object to_json() const;
};

HaError make_error(ErrorCause cause, std::string target, std::string detail = {});

class HaException : public std::exception {
 public:
  explicit HaException(HaError error) : error_(std::move(error)), what_(error_.message()) {}
  const HaError& error() const noexcept { return error_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  HaError error_;
  std::string what_;
};

}  // namespace hamcp::ha
