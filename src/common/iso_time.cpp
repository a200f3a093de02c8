#include "common/iso_time.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

namespace hamcp::common {

std::string format_iso_time(double t) {
  constexpr double kFirst = -62135596800.0;  // 0001-01-01T00:00:00Z
  constexpr double kLast = 253402300799.0;   // 9999-12-31T23:59:59Z
  t = std::isnan(t) ? 0.0 : std::clamp(t, kFirst, kLast);
  const auto whole = static_cast<std::time_t>(std::floor(t));
  auto micros = static_cast<long>(std::llround((t - static_cast<double>(whole)) * 1e6));
  std::time_t secs = whole;
  if (micros >= 1000000) {
    micros -= 1000000;
    ++secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}+00:00", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
}

namespace {

// Reads exactly `width` ASCII digits at `pos` (no sign, no spaces: what sscanf's %d would allow).
bool read_digits(std::string_view s, std::size_t& pos, int width, int& out) {
  if (pos + static_cast<std::size_t>(width) > s.size()) return false;
  int value = 0;
  for (int i = 0; i < width; ++i) {
    const char c = s[pos + static_cast<std::size_t>(i)];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  pos += static_cast<std::size_t>(width);
  out = value;
  return true;
}

bool at(std::string_view s, std::size_t pos, char c) { return pos < s.size() && s[pos] == c; }

// ".123456" -> 0.123456 (any number of digits, at least one).
bool read_fraction(std::string_view s, std::size_t& pos, double& out) {
  const std::size_t start = ++pos;
  double scale = 0.1;
  out = 0;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    out += (s[pos] - '0') * scale;
    scale /= 10;
    ++pos;
  }
  return pos > start;
}

// 'Z', "+hh:mm", "+hhmm", "+hh" -> seconds east of UTC.
bool read_zone(std::string_view s, std::size_t& pos, long& offset) {
  if (at(s, pos, 'Z') || at(s, pos, 'z')) {
    ++pos;
    return true;
  }
  if (!at(s, pos, '+') && !at(s, pos, '-')) return false;
  const long sign = s[pos] == '+' ? 1 : -1;
  ++pos;
  int hours = 0, minutes = 0;
  if (!read_digits(s, pos, 2, hours)) return false;
  if (at(s, pos, ':')) ++pos;
  if (pos < s.size() && !read_digits(s, pos, 2, minutes)) return false;
  if (hours > 23 || minutes > 59) return false;
  offset = sign * (hours * 3600L + minutes * 60L);
  return true;
}

}  // namespace

std::optional<double> parse_iso_time(std::string_view s) {
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  double fraction = 0;
  long offset = 0;
  if (!read_digits(s, pos, 4, year) || !at(s, pos++, '-') || !read_digits(s, pos, 2, month) || !at(s, pos++, '-') ||
      !read_digits(s, pos, 2, day)) {
    return std::nullopt;
  }
  if (at(s, pos, 'T') || at(s, pos, 't') || at(s, pos, ' ')) {
    ++pos;
    if (!read_digits(s, pos, 2, hour) || !at(s, pos++, ':') || !read_digits(s, pos, 2, minute)) return std::nullopt;
    if (at(s, pos, ':') && !read_digits(s, ++pos, 2, second)) return std::nullopt;
    if (at(s, pos, '.') && !read_fraction(s, pos, fraction)) return std::nullopt;
    if (pos < s.size() && !read_zone(s, pos, offset)) return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<double>(timegm(&tm) - offset) + fraction;
}

double now_epoch_seconds() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration<double>(now).count();
}

std::int64_t now_unix_seconds() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::seconds>(now).count();
}

}  // namespace hamcp::common
