#pragma once
// Admission control of the HTTP server: limits count work, not requests.
//  - ConnectionAdmission: open connections, globally and per client address,
//    decided at accept time (before any byte is parsed or authenticated).
//  - CallBudget: JSON-RPC calls in flight (every batch item counts), per
//    session and globally, taken atomically so concurrent POSTs cannot overshoot.
// Both are thread-safe; the transports turn a refusal into 429/503 + Retry-After.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "mcp/json.hpp"

namespace hamcp::mcp::http {

// The default global connection cap: below the process's open-file limit
// (RLIMIT_NOFILE, soft), leaving room for Home Assistant connections, the data
// dir's files and logging: limit - max(64, limit/8), at most 8192, at least 8.
std::size_t default_max_connections();
std::size_t max_connections_for_fd_limit(std::size_t fd_limit);

class ConnectionAdmission {
 public:
  enum class Verdict { admitted, server_full, client_full };
  ConnectionAdmission(std::size_t max_total, std::size_t max_per_client)
      : max_total_(max_total), max_per_client_(max_per_client) {}

  // Counts a new connection from `client` (its address) unless a cap is reached.
  Verdict admit(const std::string& client);
  void release(const std::string& client);

  std::size_t total() const { return total_.load(); }
  std::size_t from(const std::string& client);
  std::size_t max_total() const { return max_total_; }
  std::size_t max_per_client() const { return max_per_client_; }
  // Three quarters of the cap: from here on idle connections are shed.
  bool under_pressure() const { return total_.load() * 4 >= max_total_ * 3; }
  bool client_under_pressure(const std::string& client);

 private:
  const std::size_t max_total_, max_per_client_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::size_t> per_client_;
  std::atomic<std::size_t> total_{0};
};

// JSON-RPC requests (method + id) in one message: 1 or 0 for an object, the
// number of request items for a batch.
std::size_t count_calls(const json::value& message);

// Takes `n` from `counter` if that keeps it at or below `cap` (atomically).
bool try_take(std::atomic<std::size_t>& counter, std::size_t n, std::size_t cap);

// Calls in flight: the global counter here, the per-session one on the session.
// A few global slots are reserved for light sessions (at most kLightCalls in
// flight once admitted): a flood spread over many busy sessions fills the rest
// and gets 503, while an idle or light session still gets its calls admitted.
class CallBudget {
 public:
  enum class Verdict { admitted, session_full, server_full };
  static constexpr std::size_t kLightCalls = 4;
  CallBudget(std::size_t max_global, std::size_t max_per_session)
      : max_global_(max_global),
        max_per_session_(max_per_session),
        reserved_(std::min(max_global / 2, std::max(kLightCalls, max_global / 16))) {}
  Verdict take(std::atomic<std::size_t>& session_in_flight, std::size_t calls);
  void give_back(std::atomic<std::size_t>& session_in_flight, std::size_t calls);
  std::size_t in_flight() const { return global_.load(); }
  std::size_t max_global() const { return max_global_; }
  std::size_t max_per_session() const { return max_per_session_; }
  std::size_t reserved_for_light_sessions() const { return reserved_; }

 private:
  const std::size_t max_global_, max_per_session_, reserved_;
  std::atomic<std::size_t> global_{0};
};

}  // namespace hamcp::mcp::http
