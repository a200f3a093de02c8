#pragma once
// Limits and timeouts of the Beast server skeleton (beast_server.hpp), shared
// by the MCP HTTP transport (--max-connections and friends) and the simulator.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "net/connection_admission.hpp"

namespace hamcp::net {

struct ServerOptions {
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
  // address) 429, both with Retry-After. See connection_admission.hpp.
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
  // The Server header of the skeleton's own answers (413, 431, 400, 500).
  std::string server_name = "hamcp";
  // The executor's io_context is run by one thread (hamcp's runtime): a
  // connection's handlers can never run at once, so it runs on that executor
  // itself, and no handler goes through a strand's queue and lock (~5 % of
  // an HTTP tool call). False (any other executor): a strand per connection.
  bool one_thread = false;
};

}  // namespace hamcp::net
