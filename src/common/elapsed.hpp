#pragma once
// Milliseconds between two steady-clock readings, for timing log lines.
#include <chrono>

namespace hamcp::common {

inline long long elapsed_ms(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

}  // namespace hamcp::common
