#pragma once
// Connection admission of the Beast server skeleton (beast_server.hpp): open
// connections, globally and per client address, decided at accept time
// (before any byte is parsed or authenticated). Thread-safe; the server turns
// a refusal into 429/503 + Retry-After.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace hamcp::net {

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

// Takes `n` from `counter` if that keeps it at or below `cap` (atomically).
bool try_take(std::atomic<std::size_t>& counter, std::size_t n, std::size_t cap);

}  // namespace hamcp::net
