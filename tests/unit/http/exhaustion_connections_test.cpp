// Weakness 1 of issue 8: connection exhaustion before authentication. Idle
// keep-alive connections (or connections that never send a header) from one
// address must not lock everyone out: the per-address and global caps bound
// them, idle ones are shed under pressure, and a well-behaved client keeps
// its answers within 100 ms p99 while the attack runs.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <thread>

#include "http_fixture.hpp"
#include "latency_probe.hpp"
#include "mcp/http/admission.hpp"
#include "raw_socket.hpp"

namespace hamcp::test {
namespace {

using namespace std::chrono_literals;

// A fresh connection that asks GET /healthz; its status (0 = no answer).
unsigned fresh_healthz(std::uint16_t port, const char* source) {
  RawSocket s(port, source);
  if (!s.ok() || !s.send(healthz_request())) return 0;
  return raw_status(s.read_until("\r\n\r\n", 2000ms));
}

// Polls a fresh connection from `source` until it gets 200 (bounded).
bool eventually_served(std::uint16_t port, const char* source, std::chrono::milliseconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  for (int i = 0; i < 100 && std::chrono::steady_clock::now() < deadline; ++i) {
    if (fresh_healthz(port, source) == 200u) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

TEST(ConnectionExhaustion, KeepAlivesFromOneAddressAreCappedAndShed) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.listener.max_connections = 64;
    o.listener.max_connections_per_client = 32;
    o.listener.pressure_idle_timeout = 300ms;
  });
  const auto port = server.port();
  const std::string sid = open_session(port);
  HttpConnection good(port);  // the well-behaved client, connected before the attack
  ASSERT_EQ(good.request("POST", "/mcp", post_headers(sid), list_body(1)).status, 200u);
  LatencyProbe probe(
      [&] { return good.request("POST", "/mcp", post_headers(sid), list_body(2), 2000ms).status == 200u; });

  // The attack: 300 connections from 127.0.0.1, each one GET /healthz, then idle.
  std::vector<RawSocket> attack;
  std::size_t served = 0, refused = 0, max_open = 0;
  bool retry_after = false;
  for (int i = 0; i < 300; ++i) {
    RawSocket s(port);
    if (!s.ok() || !s.send(healthz_request())) continue;
    const std::string r = s.read_until("\r\n\r\n", 2000ms);
    if (raw_status(r) == 200u) ++served;
    if (raw_status(r) == 429u) {
      ++refused;
      retry_after = retry_after || r.find("Retry-After: 1\r\n") != std::string::npos;
    }
    max_open = std::max(max_open, server.http().connections());
    attack.push_back(std::move(s));
  }
  // Another client address is not affected by this one's cap.
  EXPECT_EQ(fresh_healthz(port, "127.0.0.2"), 200u);
  // The attacker's idle connections are shed, so its own address recovers too.
  EXPECT_TRUE(eventually_served(port, "127.0.0.1", 3000ms));
  probe.stop();

  EXPECT_GT(refused, 0u) << "the per-address cap never refused";
  EXPECT_TRUE(retry_after);
  EXPECT_LE(max_open, 33u) << "32 per address + the accepting moment";
  EXPECT_GT(served, 0u);
  EXPECT_EQ(probe.failures(), 0u);
  EXPECT_GT(probe.samples(), 10u);
  EXPECT_LT(probe.p99_ms(), 100.0);
}

TEST(ConnectionExhaustion, SilentConnectionsFillingTheServerAreShedAndRefusedWith503) {
  TempDir dir;
  TestHttpServer server(dir.path(), [](mcp::http::HttpServerOptions& o) {
    o.listener.max_connections = 16;
    o.listener.max_connections_per_client = 1000;
    o.listener.pressure_idle_timeout = 300ms;
  });
  const auto port = server.port();
  const std::string sid = open_session(port);
  HttpConnection good(port);
  ASSERT_EQ(good.request("POST", "/mcp", post_headers(sid), list_body(1)).status, 200u);
  LatencyProbe probe(
      [&] { return good.request("POST", "/mcp", post_headers(sid), list_body(2), 2000ms).status == 200u; });

  // Slowloris: 100 connections that never send a byte.
  std::vector<RawSocket> attack;
  std::size_t max_open = 0;
  for (int i = 0; i < 100; ++i) {
    attack.emplace_back(port);
    max_open = std::max(max_open, server.http().connections());
  }
  std::this_thread::sleep_for(200ms);
  max_open = std::max(max_open, server.http().connections());
  // Refused ones were told why: 503 + Retry-After, then closed.
  std::size_t busy = 0;
  for (auto& s : attack) {
    const std::string r = s.read_until("\r\n\r\n", 50ms);
    if (raw_status(r) == 503u && r.find("Retry-After: 1\r\n") != std::string::npos) ++busy;
  }
  // Silent connections do not hold the server for the 30 s header timeout.
  EXPECT_TRUE(eventually_served(port, "127.0.0.1", 3000ms));
  probe.stop();

  EXPECT_GT(busy, 0u);
  EXPECT_LE(max_open, 17u);
  EXPECT_EQ(probe.failures(), 0u);
  EXPECT_LT(probe.p99_ms(), 100.0);
}

TEST(ConnectionExhaustion, DefaultCapStaysBelowTheOpenFileLimit) {
  using mcp::http::max_connections_for_fd_limit;
  EXPECT_EQ(max_connections_for_fd_limit(1024), 896u);  // 128 descriptors left for HA, files, logs
  EXPECT_LT(max_connections_for_fd_limit(256), 256u);
  EXPECT_GE(max_connections_for_fd_limit(20), 8u);
  EXPECT_EQ(max_connections_for_fd_limit(1u << 20), 8192u);
  rlimit rl{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &rl), 0);
  if (rl.rlim_cur != RLIM_INFINITY) {
    EXPECT_LT(mcp::http::default_max_connections(), rl.rlim_cur);
  }
}

}  // namespace
}  // namespace hamcp::test
