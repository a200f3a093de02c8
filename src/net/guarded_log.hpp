#pragma once
// Log lines of a network server that carry client-supplied text (Host, Origin, paths) are written
// before authentication, so a client controls both their size and their rate.
// printable() bounds the size; GuardedLog bounds the rate. Every pre-auth log
// line of the HTTP server goes through guarded_warn().

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace hamcp::net {

// `value` as one safe log token: control and non-ASCII bytes escaped (\xNN),
// quotes and backslashes escaped, cut after `max_chars` input bytes with a
// note of the full size ("…(+59880 bytes)").
std::string printable(std::string_view value, std::size_t max_chars = 120);

// A token bucket: at most `burst` lines at once, refilled at `per_second`.
// Lines refused are counted and reported by the next line let through.
class GuardedLog {
 public:
  using Clock = std::chrono::steady_clock;
  GuardedLog(double per_second, double burst) : rate_(per_second), burst_(burst), tokens_(burst) {}
  // True when a line may be written now; `suppressed` receives how many were
  // refused since the last line let through.
  bool allow(std::size_t& suppressed, Clock::time_point now = Clock::now());

 private:
  std::mutex mutex_;
  const double rate_, burst_;
  double tokens_;
  Clock::time_point last_{};
  std::size_t suppressed_ = 0;
};

// The process-wide limiter of the HTTP server's pre-auth warnings (10 lines/s,
// bursts of 20).
GuardedLog& pre_auth_log();

// A log line through pre_auth_log(). Arguments that come from the client must
// be passed through printable() by the caller.
template <class... Args>
void guarded_log(spdlog::level::level_enum level, spdlog::format_string_t<Args...> fmt, Args&&... args) {
  std::size_t suppressed = 0;
  if (!pre_auth_log().allow(suppressed)) return;
  if (suppressed > 0) spdlog::log(level, "http: {} similar log lines suppressed (rate limit)", suppressed);
  spdlog::log(level, fmt, std::forward<Args>(args)...);
}

template <class... Args>
void guarded_warn(spdlog::format_string_t<Args...> fmt, Args&&... args) {
  guarded_log(spdlog::level::warn, fmt, std::forward<Args>(args)...);
}

}  // namespace hamcp::net
