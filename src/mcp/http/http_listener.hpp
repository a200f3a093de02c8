#pragma once
// The HTTP/1.1 server underneath the MCP transports: the shared Beast server
// skeleton (net/beast_server.hpp: accepts connections, plain or TLS, admits
// them under the connection caps, enforces size limits and timeouts, keeps
// connections alive, stops gracefully) with a connection that hands each
// request to an HttpHandler. Each connection is a coroutine of its own, so
// requests on different connections proceed concurrently and never queue
// behind each other.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "mcp/http/admission.hpp"
#include "mcp/http/http_types.hpp"
#include "net/server_options.hpp"

namespace hamcp::mcp::http {

// Host, port, TLS files, connection caps, size limits and timeouts: the
// skeleton's options (net/server_options.hpp).
using ListenerOptions = net::ServerOptions;

class HttpListener {
 public:
  HttpListener(asio::any_io_executor executor, ListenerOptions options, HttpHandler handler);
  ~HttpListener();
  HttpListener(const HttpListener&) = delete;
  HttpListener& operator=(const HttpListener&) = delete;

  // Binds and starts accepting. Returns the bound port. Throws
  // std::runtime_error with the address and the reason (and TLS file errors).
  std::uint16_t start();
  // Stops accepting, ends long-lived streams, closes idle connections; requests
  // in progress may finish until `grace` has passed, then every socket closes.
  // Thread-safe; returns at once.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));
  bool tls() const;
  std::size_t connection_count() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::mcp::http
