#pragma once
// The HTTP/1.1 server underneath the MCP transports (Boost.Beast, kept out of
// this header): accepts connections (plain or TLS), enforces size limits and
// timeouts, keeps connections alive, and hands each request to an HttpHandler.
// Each connection runs on its own strand, so requests on different connections
// proceed in parallel and never queue behind each other.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "mcp/http/admission.hpp"
#include "mcp/http/http_types.hpp"

namespace hamcp::mcp::http {

struct ListenerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;                 // 0 = let the OS pick (tests)
  std::string tls_cert, tls_key;          // both set = HTTPS
  std::size_t max_body_bytes = 4u << 20;  // larger bodies get 413
  // Request bodies being read or handled, all connections together
  // (--max-request-mb): a body that would go beyond gets 503 + Retry-After
  // before it is read. A chunked body (length unknown) counts max_body_bytes.
  std::size_t max_body_bytes_total = 64u << 20;
  std::size_t max_header_bytes = 64u << 10;  // larger header blocks get 431
  // Connections are admitted at accept time, before any byte is parsed:
  // beyond max_connections 503, beyond max_connections_per_client (one client
  // address) 429, both with Retry-After. See admission.hpp for the default.
  std::size_t max_connections = default_max_connections();
  std::size_t max_connections_per_client = 128;
  std::chrono::milliseconds header_timeout{30000};  // first request's header (slowloris)
  std::chrono::milliseconds idle_timeout{300000};   // keep-alive wait for the next request
  std::chrono::milliseconds body_timeout{60000};    // reading a request body
  std::chrono::milliseconds write_timeout{60000};   // one write to a stalled client
  // From three quarters of either cap on, a connection that waits longer than
  // this for a request header (idle keep-alive, slowloris) is closed, so idle
  // connections cannot hold the server full for idle_timeout.
  std::chrono::milliseconds pressure_idle_timeout{1000};
};

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
