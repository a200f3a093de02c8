#include "app/main.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/commands.hpp"
#include "app/config_file.hpp"
#include "app/numeric_flags.hpp"

namespace hamcp::app {
namespace {

// A range-checked number, or CLI11's error (printed with the usage hint, exit 106).
double checked(const NumericFlag& flag, const std::string& text) {
  try {
    return parse_numeric_flag(flag, text);
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError(e.what());
  }
}

std::uint64_t checked_whole(const NumericFlag& flag, const std::string& text) {
  try {
    return parse_whole_flag(flag, text);
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError(e.what());
  }
}

void add_ha_options(CLI::App& cmd, HaConfig& ha) {
  cmd.add_option("--ha-url", ha.url, "Home Assistant base URL, e.g. http://localhost:8123")
      ->envname("HOMEASSISTANT_URL");
  cmd.add_option("--ha-token", ha.token, "Home Assistant long-lived access token")->envname("HOMEASSISTANT_TOKEN");
  cmd.add_option("--ha-ca-file", ha.ca_file, "PEM file of an extra CA to trust (self-signed HA)")
      ->envname("HOMEASSISTANT_CA_FILE");
  cmd.add_flag("--ha-insecure-tls", ha.insecure_tls, "Do not verify Home Assistant's TLS certificate (not recommended)")
      ->envname("HOMEASSISTANT_INSECURE_TLS");
  auto* timeout = cmd.add_option_function<std::string>(
      "--ha-timeout",
      [&ha](const std::string& text) { ha.timeout = seconds_to_duration(checked(kHaTimeoutFlag, text)); },
      "Seconds to wait for one Home Assistant request, 0.1-3600 (default 30)");
  timeout->envname("HA_TIMEOUT");
}

// Limits of --http, in units of work (see HttpLimits).
void add_http_limit_options(CLI::App& app, HttpLimits& limits) {
  app.add_option("--max-connections", limits.max_connections,
                 "Open HTTP connections in all (default 0 = the open-file limit minus room for Home Assistant)")
      ->envname("HAMCP_MAX_CONNECTIONS")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1000000}));
  app.add_option("--max-connections-per-client", limits.max_connections_per_client,
                 "Open HTTP connections from one client address (default 128)")
      ->envname("HAMCP_MAX_CONNECTIONS_PER_CLIENT")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  app.add_option("--max-calls-in-flight", limits.max_calls_in_flight,
                 "JSON-RPC calls in progress in all, batch items counted (default 1024)")
      ->envname("HAMCP_MAX_CALLS_IN_FLIGHT")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  app.add_option("--max-calls-per-session", limits.max_calls_per_session,
                 "JSON-RPC calls in progress per session, and the largest batch (default 64)")
      ->envname("HAMCP_MAX_CALLS_PER_SESSION")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("--max-buffer-mb", limits.max_buffer_mb, "MiB of buffered responses (SSE replay) in all (default 128)")
      ->envname("HAMCP_MAX_BUFFER_MB")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}));
  app.add_option("--max-session-buffer-mb", limits.max_session_buffer_mb,
                 "MiB of buffered responses per session (default 16)")
      ->envname("HAMCP_MAX_SESSION_BUFFER_MB")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}));
  app.add_option("--max-sessions", limits.max_sessions,
                 "Live sessions; at the cap an idle one is evicted for a new one, and when all are busy new "
                 "ones get 503 (default 1000)")
      ->envname("HAMCP_MAX_SESSIONS")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  app.add_option("--max-request-mb", limits.max_request_mb,
                 "MiB of request bodies being read or handled, all connections together (default 64)")
      ->envname("HAMCP_MAX_REQUEST_MB")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}));
}

CLI::App* add_sim_command(CLI::App& app, SimConfig& sim_config) {
  CLI::App* sim = app.add_subcommand("sim", "Run the simulated Home Assistant alone (tests, benchmarks)");
  sim->add_option("--host", sim_config.host, "Address to bind (loopback only by default)");
  sim->add_option_function<std::string>(
      "--port",
      [&sim_config](const std::string& text) {
        sim_config.port = static_cast<std::uint16_t>(checked_whole(kSimPortFlag, text));
      },
      "Port to bind, 0-65535 (0 = pick one and print it)");
  sim->add_option("--token", sim_config.token, "Access token clients must present");
  sim->add_option_function<std::string>(
      "--entities",
      [&sim_config](const std::string& text) { sim_config.entities = checked_whole(kSimEntitiesFlag, text); },
      "Generate a home of N entities, 0-1000000 (0 = demo home)");
  sim->add_option("--seed", sim_config.seed, "Seed of the generated home");
  sim->add_option_function<std::string>(
      "--restart-gap-ms",
      [&sim_config](const std::string& text) { sim_config.restart_gap_ms = checked_whole(kSimRestartGapFlag, text); },
      "How long a restart keeps the simulated HA down, 0-600000 ms (default 50)");
  return sim;
}

CLI::App* add_setup_command(CLI::App& app, Config& config) {
  SetupConfig& setup = config.setup;
  CLI::App* cmd = app.add_subcommand("setup", "Print (or --write) an MCP client's configuration for hamcp");
  cmd->add_option("client", setup.client, "claude-desktop, claude-code, cursor, vscode, codex or generic")->required();
  cmd->add_flag("--http", setup.http, "The client reaches `hamcp --http` at --url instead of starting hamcp");
  cmd->add_option("--url", setup.url, "MCP endpoint of `hamcp --http` (default http://127.0.0.1:8086/mcp)");
  cmd->add_option("--name", setup.name, "The server's name in the client (default home-assistant)");
  cmd->add_flag("--write", setup.write, "Merge into the client's config file (keeps the rest, old file as .bak)");
  cmd->add_option("--file", setup.file, "Config file for --write instead of the client's usual one");
  cmd->add_option("--command", setup.command, "hamcp binary the client starts (default: this one)");
  cmd->add_flag("--demo", setup.demo, "The client starts `hamcp --demo` (simulated home)");
  add_ha_options(*cmd, config.ha);
  cmd->add_option("--auth-token", config.mcp.auth_token, "Bearer token of `hamcp --http` (default: the generated one)")
      ->envname("MCP_AUTH_TOKEN");
  cmd->add_option("--data-dir", config.mcp.data_dir, "Data dir of `hamcp --http`, where a generated token is")
      ->envname("HAMCP_DATA_DIR");
  return cmd;
}

}  // namespace

void add_gov_options(CLI::App& app, GovConfig& gov) {
  app.add_flag("--read-only", gov.read_only,
               "Refuse every write to Home Assistant; write tools leave tools/list (HTTP: also per session at "
               "<path>/readonly)")
      ->envname("READ_ONLY_MODE");
  app.add_flag("--redact-secrets,!--no-redact-secrets", gov.redact_secrets,
               "Mask passwords, API keys and tokens in every tool result (default on)")
      ->envname("REDACT_SECRETS");
  app.add_flag("--elicit-confirm,!--no-elicit-confirm", gov.elicit_confirm,
               "Ask the user (MCP elicitation) before a destructive call without confirm=true, when the client "
               "can be asked (default on; off: a preview only)")
      ->envname("ELICIT_CONFIRM");
  app.add_option("--disable-tools", gov.disabled_tools,
                 "Switch off tools: hamcp or ha-mcp tool names, or families (entities, config, helpers...); "
                 "comma list")
      ->envname("DISABLED_TOOLS")
      ->delimiter(',');
  app.add_option("--enable-tools", gov.enabled_tools, "Offer only these tools or families (comma list; default all)")
      ->envname("HAMCP_ENABLED_TOOLS")
      ->delimiter(',');
  app.add_option("--entities-allow", gov.entities_allow,
                 "Show and act on only these entities: entity-id globs (light.*), domains (lock), area:<id|name>, "
                 "label:<id|name>; comma list")
      ->envname("ENTITIES_ALLOW")
      ->delimiter(',');
  app.add_option("--entities-deny", gov.entities_deny,
                 "Hide these entities from every tool (same rules as --entities-allow; deny wins)")
      ->envname("ENTITIES_DENY")
      ->delimiter(',');
  app.add_flag("--entities-exposed-only", gov.entities_exposed_only,
               "Hide every entity not exposed to Assist (Settings > Voice assistants > Expose)")
      ->envname("ENTITIES_EXPOSED_ONLY");
}

// How hamcp serves MCP: transport, binding, authentication, sessions, browsers.
void add_mcp_options(CLI::App& app, McpConfig& mcp) {
  app.add_flag("--http", mcp.http, "Serve Streamable HTTP (and the legacy SSE endpoints)");
  app.add_option("--host", mcp.host, "Address to bind with --http (default 127.0.0.1)")->envname("MCP_HOST");
  app.add_option_function<std::string>(
         "--port",
         [&mcp](const std::string& text) { mcp.port = static_cast<std::uint16_t>(checked_whole(kPortFlag, text)); },
         "Port to bind with --http, 0-65535 (default 8086)")
      ->envname("MCP_PORT");
  app.add_option("--path", mcp.path, "MCP endpoint path with --http (default /mcp)")->envname("MCP_PATH");
  app.add_option("--data-dir", mcp.data_dir, "Directory for the session key, revocations and generated token")
      ->envname("HAMCP_DATA_DIR");
  app.add_option("--auth-token", mcp.auth_token, "Bearer token MCP clients must present")->envname("MCP_AUTH_TOKEN");
  app.add_option("--auth", mcp.auth_mode,
                 "bearer (a token, default) or oauth (OAuth 2.1; users log in through Home Assistant)")
      ->check(CLI::IsMember({"bearer", "oauth"}))
      ->envname("HAMCP_AUTH");
  app.add_option("--public-url", mcp.public_url, "hamcp's URL as clients reach it (OAuth issuer)")
      ->envname("HAMCP_PUBLIC_URL");
  app.add_option("--ha-browser-url", mcp.ha_browser_url,
                 "Home Assistant's URL as users' browsers reach it (--auth oauth)")
      ->envname("HAMCP_HA_BROWSER_URL");
  app.add_flag("--allow-unauthenticated-remote", mcp.allow_unauthenticated_remote,
               "Serve a non-loopback address without a bearer token (dangerous)");
  app.add_flag("--stateless", mcp.stateless, "Streamable HTTP without sessions");
  app.add_option("--tls-cert", mcp.tls_cert, "PEM certificate: serve HTTPS")->envname("MCP_TLS_CERT");
  app.add_option("--tls-key", mcp.tls_key, "PEM private key for --tls-cert")->envname("MCP_TLS_KEY");
  app.add_option_function<std::string>(
         "--session-idle-hours",
         [&mcp](const std::string& text) {
           mcp.session_idle_expiry = hours_to_duration(checked(kSessionIdleHoursFlag, text));
         },
         "Hours an idle session stays valid, 0.01-87600, fractions allowed (default 720)")
      ->envname("HAMCP_SESSION_IDLE_HOURS");
  app.add_option_function<int>(
         "--sse-poll-after", [&mcp](int seconds) { mcp.sse_poll_after = std::chrono::seconds(seconds); },
         "Seconds a long call's SSE stream stays open before hamcp ends it with retry: and the client "
         "resumes it (MCP 2025-11-25 SSE polling; 0 = never, default 300)")
      ->check(CLI::Range(0, 86400))
      ->envname("HAMCP_SSE_POLL_AFTER");
  app.add_option("--allowed-host", mcp.allowed_hosts,
                 "Extra Host name clients may use with --http (repeatable; '*' = any)")
      ->envname("MCP_ALLOWED_HOSTS")
      ->delimiter(',');
  app.add_option("--allowed-origin", mcp.allowed_origins,
                 "Extra browser Origin allowed with --http, e.g. https://example.org (repeatable; '*' = any)")
      ->envname("MCP_ALLOWED_ORIGINS")
      ->delimiter(',');
  app.add_option("--log-level", mcp.log_level, "stderr log level: debug, info, warn, error")->envname("LOG_LEVEL");
}

// The examples --help ends with.
constexpr const char* kExamples =
    "Examples:\n"
    "  hamcp --demo                      stdio, against the embedded simulated home\n"
    "  hamcp --demo --http               HTTP on 127.0.0.1:8086/mcp, simulated home\n"
    "  HOMEASSISTANT_URL=http://localhost:8123 HOMEASSISTANT_TOKEN=... hamcp\n"
    "  hamcp doctor                      explain why Home Assistant cannot be reached\n"
    "  hamcp sim --port 8123 --token t   the simulated Home Assistant alone\n"
    "  hamcp setup claude-code           configure an MCP client (claude-desktop, cursor, vscode, codex, generic)\n"
    "\n"
    "Settings: flag > environment variable > config file > default. The config file is <data dir>/hamcp.toml\n"
    "when present (or --config FILE / HAMCP_CONFIG); its keys are the long flag names, e.g.\n"
    "  ha-url = \"http://localhost:8123\"\n"
    "  read-only = true\n"
    "A token in it needs chmod 600. ha_get_settings shows each setting's value and source.";

std::variant<Command, int> parse_command_line(int argc, char** argv, Config& config) {
  CLI::App app{
      "hamcp: a fast, safe Model Context Protocol server for Home Assistant.\n"
      "Serves MCP over stdio by default; --http serves Streamable HTTP (and legacy SSE)."};
  app.set_version_flag("--version", std::string("hamcp ") + HAMCP_VERSION);
  app.footer(kExamples);

  add_ha_options(app, config.ha);
  add_mcp_options(app, config.mcp);
  app.add_flag("--demo", config.demo, "Run against an embedded simulated Home Assistant");
  add_gov_options(app, config.gov);
  add_http_limit_options(app, config.mcp.limits);

  CLI::App* sim = add_sim_command(app, config.sim);

  CLI::App* doctor = app.add_subcommand("doctor", "Check the connection to Home Assistant, step by step");
  add_ha_options(*doctor, config.ha);
  doctor->add_flag("--json", config.doctor_json, "Print the report as JSON");
  CLI::App* setup = add_setup_command(app, config);
  CLI::App* example = app.add_subcommand("config", "Print an example hamcp.toml: every setting, commented out");
  const std::shared_ptr<ConfigFileState> file = add_config_file(app, default_config_path(argc, argv));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // CLI11 prints help/version to stdout, errors to stderr
  }
  if (example->parsed()) {
    std::cout << example_config(app);
    return 0;
  }
  config.settings = std::make_shared<const tools::EffectiveSettings>(effective_settings(app, *file));

  if (sim->parsed()) return Command::sim;
  if (doctor->parsed()) return Command::doctor;
  if (setup->parsed()) return Command::setup;
  return config.mcp.http ? Command::serve_http : Command::serve_stdio;
}

int run(int argc, char** argv) {
  Config config;
  const std::variant<Command, int> parsed = parse_command_line(argc, argv, config);
  if (const int* exit_code = std::get_if<int>(&parsed)) return *exit_code;
  switch (std::get<Command>(parsed)) {
    case Command::sim:
      return run_sim(config.sim);
    case Command::doctor:
      return run_doctor(config);
    case Command::setup:
      return run_setup(config);
    case Command::serve_http:
      return serve_http(config);
    case Command::serve_stdio:
      break;
  }
  return serve_stdio(config);
}

}  // namespace hamcp::app
