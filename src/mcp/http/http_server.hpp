#pragma once
// hamcp's MCP-over-HTTP server: Streamable HTTP (2025-11-25) on `path`, the
// legacy HTTP+SSE transport (2024-11-05) on `legacy_sse_path`, and /healthz.
//
// Sessions never strand a client: ids are signed tokens (see
// session_registry.hpp) so they survive restarts and are shared by every
// process using the same data dir; an `initialize` carrying a stale id simply
// gets a new one; GET without a stream answers 405, never 404.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "mcp/http/http_listener.hpp"
#include "mcp/http/oauth_provider.hpp"
#include "mcp/http/session_registry.hpp"
#include "mcp/server.hpp"

namespace hamcp::mcp::http {

struct HttpServerOptions {
  ListenerOptions listener;  // host, port, TLS, size limits, timeouts
  std::string path = "/mcp";
  bool get_stream = true;  // false: GET on `path` answers 405
  bool legacy_sse = true;
  std::string legacy_sse_path = "/sse";
  std::string legacy_messages_path = "/messages";
  bool stateless = false;          // no session ids; a fresh session per request
  std::filesystem::path data_dir;  // resolved (see data_dir.hpp); holds session.key, revoked
  std::string auth_token;          // empty = no bearer token required (never logged)
  // OAuth mode (--auth oauth): hamcp is the authorization server; access
  // tokens it issued are required instead of `auth_token`.
  std::shared_ptr<OAuthProvider> oauth;
  std::string public_url;                  // "https://hamcp.example" as clients reach it; empty = from the Host header
  std::vector<std::string> allowed_hosts;  // besides loopback names and the bound address
  std::vector<std::string> allowed_origins;  // besides origins whose host is allowed
  SessionRegistry::Options sessions;         // idle expiry, memory cap
  ReplayLimits replay;
  // JSON-RPC calls in flight, every batch item counted (legacy /messages too).
  // Beyond: 429 (session) / 503 (server) + Retry-After. A batch of more calls
  // than the per-session cap can never run: 413 naming the limit.
  std::size_t max_requests_per_session = 64;
  std::size_t max_requests_global = 1024;
  // Bytes of buffered responses (SSE replay, streams kept for resumption).
  // Oldest finished streams are evicted first; an answer that still does not
  // fit is replaced by an error response saying so.
  std::size_t max_session_buffered_bytes = 16u << 20;
  std::size_t max_buffered_bytes = 128u << 20;
  std::chrono::milliseconds sse_keepalive{15000};     // comment line on idle streams
  std::chrono::milliseconds sse_switch_after{10000};  // silent request: switch to SSE to keep alive
  // SSE polling (2025-11-25): a POST's SSE stream still open after this long
  // is ended with `retry: sse_retry` and resumed by the client with
  // Last-Event-ID (0 = never by time; a tool may still ask for it).
  std::chrono::milliseconds sse_poll_after{std::chrono::minutes(5)};
  std::chrono::milliseconds sse_retry{1000};
  std::chrono::seconds sweep_interval{60};  // idle in-memory state eviction
};

// The read-only endpoint beside `path` (/mcp -> /mcp/readonly): a session
// made there refuses every write, for its whole life (kSessionReadOnly).
inline std::string read_only_path(const HttpServerOptions& o) {
  return o.path + (!o.path.empty() && o.path.back() == '/' ? "readonly" : "/readonly");
}

class HttpServer {
 public:
  // `io_executor` runs the sockets (an io_context, possibly on several
  // threads); the mcp::Server is only ever called on server.executor().
  HttpServer(Server& server, asio::any_io_executor io_executor, HttpServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Loads/creates the session key, binds, starts serving. Returns the port.
  // Throws std::runtime_error with a clear message (port in use, bad TLS files,
  // unwritable data dir).
  std::uint16_t start();
  // Graceful: stop accepting, end streams, let requests finish within `grace`.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));

  // What the listener runs for each request (routing, access checks, the
  // transports); usable once start() has returned. Also how the HTTP fuzz
  // target serves requests over an in-memory stream (tests/fuzz/fuzz_http.cpp).
  HttpHandler handler() const;

  std::uint16_t port() const;
  std::string url() const;  // e.g. http://127.0.0.1:8086/mcp
  std::size_t sessions_in_memory() const;
  std::size_t connections() const;      // open HTTP connections
  std::size_t calls_in_flight() const;  // JSON-RPC calls being worked on
  std::size_t buffered_bytes() const;   // response bytes held in memory (accounted)

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::mcp::http
