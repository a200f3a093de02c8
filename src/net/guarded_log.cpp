#include "net/guarded_log.hpp"

#include <algorithm>
#include <utility>

namespace hamcp::net {

std::string printable(std::string_view value, std::size_t max_chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string_view shown = value.substr(0, max_chars);
  std::string out;
  out.reserve(shown.size() + 24);
  for (const char ch : shown) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += ch;
    }
  }
  if (value.size() > shown.size()) out += "…(+" + std::to_string(value.size() - shown.size()) + " bytes)";
  return out;
}

bool GuardedLog::allow(std::size_t& suppressed, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (last_ != Clock::time_point{}) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + std::max(0.0, elapsed) * rate_);
  }
  last_ = now;
  if (tokens_ < 1.0) {
    ++suppressed_;
    return false;
  }
  tokens_ -= 1.0;
  suppressed = std::exchange(suppressed_, 0);
  return true;
}

GuardedLog& pre_auth_log() {
  static GuardedLog log(10.0, 20.0);
  return log;
}

}  // namespace hamcp::net
