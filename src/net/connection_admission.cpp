#include "net/connection_admission.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace hamcp::net {

std::size_t max_connections_for_fd_limit(std::size_t fd_limit) {
  // Each connection is one descriptor; Home Assistant (REST pool + WebSocket),
  // the listening socket, the data dir's files and stderr need the rest.
  const std::size_t headroom = std::max<std::size_t>(64, fd_limit / 8);
  if (fd_limit <= headroom + 8) return std::max<std::size_t>(8, fd_limit / 2);
  return std::min<std::size_t>(8192, fd_limit - headroom);
}

std::size_t default_max_connections() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 8192;
  return max_connections_for_fd_limit(static_cast<std::size_t>(rl.rlim_cur));
}

ConnectionAdmission::Verdict ConnectionAdmission::admit(const std::string& client) {
  std::lock_guard lock(mutex_);
  if (total_.load() >= max_total_) return Verdict::server_full;
  auto& mine = per_client_[client];
  if (mine >= max_per_client_) {
    if (mine == 0) per_client_.erase(client);
    return Verdict::client_full;
  }
  ++mine;
  ++total_;
  return Verdict::admitted;
}

void ConnectionAdmission::release(const std::string& client) {
  std::lock_guard lock(mutex_);
  auto it = per_client_.find(client);
  if (it == per_client_.end()) return;
  if (--it->second == 0) per_client_.erase(it);
  --total_;
}

std::size_t ConnectionAdmission::from(const std::string& client) {
  std::lock_guard lock(mutex_);
  auto it = per_client_.find(client);
  return it == per_client_.end() ? 0 : it->second;
}

bool ConnectionAdmission::client_under_pressure(const std::string& client) {
  return from(client) * 4 >= max_per_client_ * 3;
}

bool try_take(std::atomic<std::size_t>& counter, std::size_t n, std::size_t cap) {
  std::size_t current = counter.load();
  do {
    if (current > cap || n > cap - current) return false;
  } while (!counter.compare_exchange_weak(current, current + n));
  return true;
}

}  // namespace hamcp::net
