// `hamcp --http`: Streamable HTTP (+ legacy SSE) on the composition root.
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "app/commands.hpp"
#include "app/ha_login.hpp"
#include "app/home.hpp"
#include "app/runtime.hpp"
#include "ha/ha_client.hpp"
#include "mcp/http/access_policy.hpp"
#include "mcp/http/data_dir.hpp"
#include "mcp/http/generated_token.hpp"
#include "mcp/http/http_server.hpp"
#include "mcp/http/oauth/oauth_server.hpp"

namespace hamcp::app {
namespace http = mcp::http;

namespace {

// The bearer token for this bind, per the safe-by-default policy. Returns
// false (after logging why) when the server must not start.
bool resolve_auth_token(const McpConfig& mcp, const std::filesystem::path& data_dir, std::string& token) {
  token = mcp.auth_token;
  switch (http::auth_requirement(mcp.host, !token.empty(), mcp.allow_unauthenticated_remote)) {
    case http::AuthRequirement::kOptional:
      if (!token.empty()) spdlog::info("http: clients must send the configured bearer token");
      return true;
    case http::AuthRequirement::kConfiguredToken:
      spdlog::info("http: {} is not a loopback address; clients must send the configured bearer token", mcp.host);
      return true;
    case http::AuthRequirement::kUnauthenticatedRemote:
      spdlog::warn(
          "http: SERVING {} WITHOUT AUTHENTICATION (--allow-unauthenticated-remote): anyone who can "
          "reach this address controls your Home Assistant",
          mcp.host);
      return true;
    case http::AuthRequirement::kGenerateToken: {
      auto generated = http::load_or_generate_token(data_dir);
      if (generated.token.empty()) {
        spdlog::error("http: {} is empty; delete it or pass --auth-token", generated.path.string());
        return false;
      }
      http::announce_token(generated, mcp.host, stderr, ::isatty(STDERR_FILENO) == 1);
      token = std::move(generated.token);
      return true;
    }
  }
  return false;
}

// The listener, session and admission settings of `mcp` (data dir and token are set before).
void fill_options(const McpConfig& mcp, http::HttpServerOptions& options) {
  options.listener.host = mcp.host;
  options.listener.port = mcp.port;
  options.listener.tls_cert = mcp.tls_cert;
  options.listener.tls_key = mcp.tls_key;
  options.path = mcp.path.empty() || mcp.path.front() != '/' ? "/" + mcp.path : mcp.path;
  options.stateless = mcp.stateless;
  options.allowed_hosts = mcp.allowed_hosts;
  options.allowed_origins = mcp.allowed_origins;
  options.sse_poll_after = mcp.sse_poll_after;
  options.sessions.idle_expiry = std::chrono::duration_cast<std::chrono::seconds>(mcp.session_idle_expiry);
  const HttpLimits& limits = mcp.limits;
  if (limits.max_connections != 0) options.listener.max_connections = limits.max_connections;
  options.listener.max_connections_per_client = limits.max_connections_per_client;
  options.max_requests_global = limits.max_calls_in_flight;
  options.max_requests_per_session = limits.max_calls_per_session;
  options.max_buffered_bytes = limits.max_buffer_mb << 20;
  options.max_session_buffered_bytes = limits.max_session_buffer_mb << 20;
  options.sessions.max_in_memory = limits.max_sessions;
  options.listener.max_body_bytes_total = limits.max_request_mb << 20;
  spdlog::info(
      "http: limits: {} connections ({} per client address), {} calls in flight ({} per session), "
      "{} MiB of buffered responses ({} per session), {} sessions, {} MiB of request bodies",
      options.listener.max_connections, options.listener.max_connections_per_client, options.max_requests_global,
      options.max_requests_per_session, limits.max_buffer_mb, limits.max_session_buffer_mb, limits.max_sessions,
      limits.max_request_mb);
}

// --auth oauth: hamcp is the authorization server; its login step is Home
// Assistant's own (HaLogin). A configured bearer token is then not accepted.
bool enable_oauth(const McpConfig& mcp, Runtime& runtime, http::HttpServerOptions& options) {
  const ha::HaClient* client = runtime.ha();
  if (client == nullptr || client->settings() == nullptr) {
    spdlog::error("http: --auth oauth needs Home Assistant's URL (HOMEASSISTANT_URL) for the login");
    return false;
  }
  if (mcp.public_url.empty() && !http::is_loopback_host(mcp.host))
    spdlog::warn("http: --auth oauth without --public-url: the issuer is taken from each request's Host header");
  auto login =
      std::make_shared<HaLogin>(runtime.io().get_executor(), *client->settings(), mcp.ha_browser_url, options.data_dir);
  // Tool calls act as the signed-in user: their own HA token, their own rights.
  std::weak_ptr<HaLogin> weak_login = login;
  auto tokens = [weak_login](std::string user) -> boost::asio::awaitable<std::optional<std::string>> {
    auto held = weak_login.lock();
    if (!held) co_return std::nullopt;
    auto getting = held->access_token(std::move(user));  // named: GCC 12 coroutine temporaries
    co_return co_await std::move(getting);
  };
  std::shared_ptr<home::UserConnections> users = runtime.home()->act_as_users(std::move(tokens));
  login->on_grant_ended([weak_users = std::weak_ptr<home::UserConnections>(users)](const std::string& user) {
    if (auto held = weak_users.lock()) held->close(user);
  });
  options.oauth = std::make_shared<http::oauth::OAuthServer>(options.data_dir, std::move(login));
  options.public_url = mcp.public_url;
  options.auth_token.clear();
  spdlog::info("http: OAuth mode: MCP clients log in through Home Assistant ({})", client->settings()->display_url);
  return true;
}

}  // namespace

int serve_http(const Config& config) {
  configure_logging(config.mcp.log_level);
  ::signal(SIGPIPE, SIG_IGN);
  const McpConfig& mcp = config.mcp;

  http::HttpServerOptions options;
  try {
    options.data_dir = http::resolve_data_dir(mcp.data_dir);
    if (mcp.auth_mode != "oauth" && !resolve_auth_token(mcp, options.data_dir, options.auth_token)) return 1;
  } catch (const std::exception& e) {
    spdlog::error("http: {}", e.what());
    return 1;
  }
  fill_options(mcp, options);

  std::unique_ptr<Runtime> runtime_holder;
  try {
    runtime_holder = std::make_unique<Runtime>(config);
  } catch (const std::invalid_argument& e) {  // e.g. --disable-tools names no tool
    spdlog::error("{}", e.what());
    return 2;
  }
  Runtime& runtime = *runtime_holder;
  if (mcp.auth_mode == "oauth" && !enable_oauth(mcp, runtime, options)) return 1;
  options.listener.one_thread = true;  // runtime.io() is run by this thread alone (below)
  http::HttpServer server(runtime.server(), runtime.io().get_executor(), options);
  try {
    server.start();
  } catch (const std::exception& e) {
    spdlog::error("http: {}", e.what());
    return 1;
  }
  spdlog::info("hamcp {} serving MCP (Streamable HTTP{}) on {}", HAMCP_VERSION, mcp.stateless ? ", stateless" : "",
               server.url());
  if (!mcp.stateless) {
    spdlog::info("http: legacy SSE clients: {} ; sessions signed with {}/session.key",
                 server.url().substr(0, server.url().size() - options.path.size()) + options.legacy_sse_path,
                 options.data_dir.string());
  }

  // Graceful shutdown: stop accepting, end streams, give requests in progress a
  // few seconds, then cancel whatever is left.
  constexpr auto kGrace = std::chrono::seconds(5);
  boost::asio::signal_set signals(runtime.io(), SIGINT, SIGTERM);
  boost::asio::steady_timer drain(runtime.io());
  const auto deadline = std::make_shared<std::chrono::steady_clock::time_point>();
  std::function<void()> wait_drained = [&] {
    if (server.connections() == 0 || std::chrono::steady_clock::now() >= *deadline) {
      runtime.server().shutdown();
      runtime.io().stop();
      return;
    }
    drain.expires_after(std::chrono::milliseconds(50));
    drain.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) wait_drained();
    });
  };
  signals.async_wait([&](const boost::system::error_code& ec, int signal_number) {
    if (ec) return;
    spdlog::info("http: signal {}, shutting down", signal_number);
    *deadline = std::chrono::steady_clock::now() + kGrace + std::chrono::milliseconds(200);
    server.stop(kGrace);
    wait_drained();
  });
  runtime.io().run();
  return 0;
}

}  // namespace hamcp::app
