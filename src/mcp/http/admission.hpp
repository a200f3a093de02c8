#pragma once
// Admission control of the HTTP server: limits count work, not requests.
//  - ConnectionAdmission (net/connection_admission.hpp): open connections,
//    globally and per client address, decided at accept time.
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
#include "net/connection_admission.hpp"

namespace hamcp::mcp::http {

using net::ConnectionAdmission;
using net::default_max_connections;
using net::max_connections_for_fd_limit;
using net::try_take;

// JSON-RPC requests (method + id) in one message: 1 or 0 for an object, the
// number of request items for a batch.
std::size_t count_calls(const json::value& message);

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
