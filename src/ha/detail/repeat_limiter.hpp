#pragma once
// Rate limit for log lines that repeat while Home Assistant stays broken. A
// bad frame used to be logged on every reconnect: 827 error lines in 34 s.
// The same message passes once per window; a different one at most once a
// second; the line that passes says how many were held back.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hamcp::ha::detail {

class RepeatLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RepeatLimiter(Clock::duration window = std::chrono::seconds(60)) : window_(window) {}

  // nullopt: stay quiet. Otherwise log now, appending the returned suffix
  // ("" or " (N similar lines suppressed)").
  std::optional<std::string> admit(std::string_view message, Clock::time_point now = Clock::now()) {
    const bool first = !last_;
    const bool changed = message != last_message_;
    const auto since = first ? Clock::duration::max() : now - *last_;
    if (!first && !(changed ? since >= std::chrono::seconds(1) : since >= window_)) {
      ++suppressed_;
      return std::nullopt;
    }
    std::string suffix;
    if (suppressed_ > 0) suffix = " (" + std::to_string(suppressed_) + " similar lines suppressed)";
    suppressed_ = 0;
    last_ = now;
    last_message_ = std::string(message);
    return suffix;
  }

 private:
  Clock::duration window_;
  std::optional<Clock::time_point> last_;
  std::string last_message_;
  std::size_t suppressed_ = 0;
};

}  // namespace hamcp::ha::detail
