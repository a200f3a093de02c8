#pragma once
// Where Home Assistant is and how to talk to it, validated once at start.
// Built from the user's input (flags/env); a bad URL becomes an HaError that
// names HOMEASSISTANT_URL and the fix. The token is a Secret: never printed.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "ha/errors.hpp"
#include "ha/secret.hpp"

namespace hamcp::ha {

// Raw input, as given by flags or environment.
struct ConnectionInput {
  std::string url;                           // HOMEASSISTANT_URL
  std::string token;                         // HOMEASSISTANT_TOKEN
  std::string ca_file;                       // HOMEASSISTANT_CA_FILE
  bool insecure_tls = false;                 // HOMEASSISTANT_INSECURE_TLS
  std::chrono::milliseconds timeout{30000};  // HA_TIMEOUT
  std::string supervisor_token;              // SUPERVISOR_TOKEN (set inside an HA add-on)
  // HAMCP_SUPERVISOR_ENDPOINT "host:port" instead of supervisor:80: the add-on's tests point it at a
  // simulated Supervisor on loopback.
  std::string supervisor_endpoint;
};

// Fills the fields still empty in `input` from the environment (flags win).
void fill_from_environment(ConnectionInput& input);

struct ConnectionSettings {
  bool tls = false;
  std::string host;  // for DNS/connect (IPv6 without brackets)
  std::uint16_t port = 0;
  std::string host_header;  // Host: header / SNI source, e.g. "ha.lan:8123", "[::1]:8123"
  std::string api_prefix;   // HTTP path prefix replacing "/api", e.g. "/api" or "/core/api"
  std::string base_path;    // path before /api ("" or a reverse-proxy prefix)
  std::string ws_path;      // "/api/websocket" (or "/core/websocket" in an add-on)
  std::string display_url;  // scheme://host:port[/prefix], never with credentials
  Secret token;
  std::string ca_file;
  bool insecure_tls = false;
  bool supervisor = false;  // talking to HA through the Supervisor proxy
  Secret supervisor_token;  // add-on mode: SUPERVISOR_TOKEN, for the Supervisor's own API
  std::chrono::milliseconds request_timeout{30000};
  std::chrono::milliseconds connect_timeout{10000};

  // "/api/states" -> "<api_prefix>/states"; other paths get base_path in front.
  std::string http_target(std::string_view path) const;
  std::string ws_url() const;  // ws(s)://host:port<ws_path>
};

// Validate input (Boost.URL). Add-on mode: no URL but a SUPERVISOR_TOKEN ->
// http://supervisor/core/api and ws://supervisor/core/websocket.
std::variant<ConnectionSettings, HaError> make_connection_settings(const ConnectionInput& input);

}  // namespace hamcp::ha
