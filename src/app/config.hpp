#pragma once
// Everything hamcp can be told, from flags, the environment or the config file
// (flag > env > file > default; see config_file.hpp).
// Plain data: parsing lives in main.cpp (parse_command_line, with the range
// checks of numeric_flags.cpp), use lives in the subcommands.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/settings/effective_settings.hpp"

namespace hamcp::app {

// How to reach Home Assistant. Names match the peer (ha-mcp) so users can switch
// by changing one command.
struct HaConfig {
  std::string url;                           // HOMEASSISTANT_URL; empty + SUPERVISOR_TOKEN => Supervisor proxy
  std::string token;                         // HOMEASSISTANT_TOKEN (never logged)
  std::string ca_file;                       // HOMEASSISTANT_CA_FILE: extra trusted CA for self-signed installs
  bool insecure_tls = false;                 // HOMEASSISTANT_INSECURE_TLS: skip certificate checks (loudly logged)
  std::chrono::milliseconds timeout{30000};  // HA_TIMEOUT (seconds on the command line)
};

// What one client, or all of them, may make hamcp hold (--http). Counted in
// work: connections, JSON-RPC calls (batch items included), buffered bytes.
struct HttpLimits {
  std::size_t max_connections = 0;               // HAMCP_MAX_CONNECTIONS; 0 = below the open-file limit
  std::size_t max_connections_per_client = 128;  // HAMCP_MAX_CONNECTIONS_PER_CLIENT (one address)
  std::size_t max_calls_in_flight = 1024;        // HAMCP_MAX_CALLS_IN_FLIGHT
  std::size_t max_calls_per_session = 64;        // HAMCP_MAX_CALLS_PER_SESSION (also the largest batch)
  std::size_t max_buffer_mb = 128;               // HAMCP_MAX_BUFFER_MB: buffered responses, all sessions
  std::size_t max_session_buffer_mb = 16;        // HAMCP_MAX_SESSION_BUFFER_MB: per session
  std::size_t max_sessions = 1000;               // HAMCP_MAX_SESSIONS: live sessions (idle ones are evicted)
  std::size_t max_request_mb = 64;               // HAMCP_MAX_REQUEST_MB: request bodies in progress, all connections
};

// How MCP clients reach hamcp.
struct McpConfig {
  bool http = false;                          // --http: Streamable HTTP (+ legacy SSE) instead of stdio
  std::string host = "127.0.0.1";             // MCP_HOST
  uint16_t port = 8086;                       // MCP_PORT
  std::string path = "/mcp";                  // MCP_PATH
  std::string data_dir;                       // HAMCP_DATA_DIR: session key, revocations, generated token
  std::string auth_token;                     // MCP_AUTH_TOKEN: bearer token clients must send (never logged)
  bool allow_unauthenticated_remote = false;  // explicit, loudly logged opt-out
  std::string auth_mode = "bearer";           // HAMCP_AUTH: bearer | oauth (log in through Home Assistant)
  std::string public_url;                     // HAMCP_PUBLIC_URL: https://hamcp.example as clients reach it
  std::string ha_browser_url;                 // HAMCP_HA_BROWSER_URL: HA as the user's browser reaches it
  bool stateless = false;                     // --stateless: no session ids at all
  std::string tls_cert;                       // --tls-cert / --tls-key: serve HTTPS
  std::string tls_key;
  // HAMCP_SESSION_IDLE_HOURS, kept in seconds so fractional hours count; long by
  // default: sessions must not get lost.
  std::chrono::seconds session_idle_expiry{std::chrono::hours(24 * 30)};
  // --sse-poll-after: a 2025-11-25 POST's SSE stream open this long is ended
  // with `retry:` and resumed by the client (SSE polling); 0 = never by time.
  std::chrono::seconds sse_poll_after{std::chrono::minutes(5)};
  std::vector<std::string> allowed_hosts;    // MCP_ALLOWED_HOSTS: Host names besides loopback/bound
  std::vector<std::string> allowed_origins;  // MCP_ALLOWED_ORIGINS: browser origins besides loopback
  std::string log_level = "info";            // LOG_LEVEL (stderr only)
  HttpLimits limits;
};

// `hamcp sim`: the simulated Home Assistant alone.
struct SimConfig {
  std::string host = "127.0.0.1";
  uint16_t port = 8123;
  std::string token = "sim-token";
  std::size_t entities = 0;  // 0 = the hand-made demo home; N = generated home of N entities
  uint64_t seed = 1;
  uint64_t restart_gap_ms = 50;  // how long homeassistant.restart keeps the simulated HA down
};

// `hamcp setup <client>`: the configuration an MCP client needs to start or reach hamcp.
struct SetupConfig {
  std::string client;  // claude-desktop, claude-code, cursor, vscode, codex, generic
  bool http = false;   // the client reaches `hamcp --http` at `url` instead of starting hamcp
  std::string url = "http://127.0.0.1:8086/mcp";
  std::string name = "home-assistant";  // the server's name in the client (as ha-mcp's docs use)
  bool write = false;                   // merge into the client's config file (JSON clients)
  std::string file;                     // that file, instead of the client's usual one
  std::string command;                  // the hamcp the client starts (default: this binary)
  bool demo = false;                    // the client starts `hamcp --demo` (no Home Assistant needed)
};

// What the tools may do. Names match ha-mcp where it has them.
struct GovConfig {
  bool read_only = false;                   // --read-only, READ_ONLY_MODE: every write refused
  bool redact_secrets = true;               // --no-redact-secrets, REDACT_SECRETS=false: results unmasked
  bool elicit_confirm = true;               // --no-elicit-confirm, ELICIT_CONFIRM=false: previews only, nobody asked
  std::vector<std::string> disabled_tools;  // --disable-tools, DISABLED_TOOLS: tools, ha-mcp names, families
  std::vector<std::string> enabled_tools;   // --enable-tools, HAMCP_ENABLED_TOOLS: only these (empty: all)
  // Entity visibility (tools/gate/visibility.hpp): globs, domains, area:<x>, label:<x>.
  std::vector<std::string> entities_allow;  // --entities-allow, ENTITIES_ALLOW: only these are visible
  std::vector<std::string> entities_deny;   // --entities-deny, ENTITIES_DENY: these are hidden
  bool entities_exposed_only = false;       // --entities-exposed-only, ENTITIES_EXPOSED_ONLY: only Assist's
};

struct Config {
  HaConfig ha;
  GovConfig gov;
  McpConfig mcp;
  SimConfig sim;
  SetupConfig setup;
  bool demo = false;         // --demo: run against an in-process simulated home
  bool doctor_json = false;  // `hamcp doctor --json`
  // Every setting with its value and source (flag, env, file, default), for ha_get_settings.
  std::shared_ptr<const tools::EffectiveSettings> settings;
};

}  // namespace hamcp::app
