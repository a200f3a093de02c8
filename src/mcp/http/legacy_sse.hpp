#pragma once
// Internal to src/mcp/http: the legacy HTTP+SSE transport (MCP 2024-11-05),
// one part of HttpServer, for clients that predate Streamable HTTP: GET on
// the SSE path opens a session's one stream, POSTs to the messages path
// deliver into it.
//
// Threading: no mutable state of its own; each handler runs as a coroutine on
// the calling connection's executor and reaches sessions only through
// SessionHost (thread-safe).

#include <memory>

#include "mcp/http/session_host.hpp"

namespace hamcp::mcp::http {

class LegacySse {
 public:
  LegacySse(std::shared_ptr<SessionHost> host, const HttpServerOptions& opts) : host_(std::move(host)), opts_(opts) {}

  asio::awaitable<void> handle_get(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_post(HttpRequest& req, ResponseWriter& w);

 private:
  // Streams the session's events until the peer leaves or the server stops.
  asio::awaitable<void> pump(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs, const std::string& key);

  const std::shared_ptr<SessionHost> host_;
  const HttpServerOptions& opts_;
};

}  // namespace hamcp::mcp::http
