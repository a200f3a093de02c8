#pragma once
// Rate limit for log lines that repeat while Home Assistant stays broken. A
// bad frame used to be logged on every reconnect: 827 error lines in 34 s.
// The same message (numbers aside) passes once per window; a different one at
// most once a second; the line that passes says how many were held back.

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
    std::string shape = shape_of(message);
    const bool changed = shape != last_shape_;
    const auto since = first ? Clock::duration::max() : now - *last_;
    if (!first && !(changed ? since >= std::chrono::seconds(1) : since >= window_)) {
      ++suppressed_;
      return std::nullopt;
    }
    std::string suffix;
    if (suppressed_ > 0) suffix = " (" + std::to_string(suppressed_) + " similar lines suppressed)";
    suppressed_ = 0;
    last_ = now;
    last_shape_ = std::move(shape);
    return suffix;
  }

  // Digits removed: "too deep in a frame of 13305 bytes" and "... 13251 bytes"
  // are the same failure (the frame carries timestamps).
  static std::string shape_of(std::string_view message) {
    std::string out;
    out.reserve(message.size());
    for (char c : message)
      if (c < '0' || c > '9') out += c;
    return out;
  }

 private:
  Clock::duration window_;
  std::optional<Clock::time_point> last_;
  std::string last_shape_;
  std::size_t suppressed_ = 0;
};

}  // namespace hamcp::ha::detail
