#include "sim/core/time_util.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace hamcp::sim {

std::string iso_time(Timestamp t) {
  double whole = std::floor(t);
  auto secs = static_cast<std::time_t>(whole);
  long micros = std::lround((t - whole) * 1e6);
  if (micros >= 1000000) {
    ++secs;
    micros -= 1000000;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld+00:00", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
  return buf;
}

std::optional<Timestamp> parse_iso_time(std::string_view s) {
  int Y, M, D, h = 0, m = 0, sec = 0;
  std::string text(s);
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &Y, &M, &D, &consumed) != 3 || consumed != 10) return std::nullopt;
  std::size_t pos = 10;
  double frac = 0;
  long offset = 0;
  if (pos < text.size() && (text[pos] == 'T' || text[pos] == ' ')) {
    int c2 = 0;
    if (std::sscanf(text.c_str() + pos + 1, "%2d:%2d%n", &h, &m, &c2) != 2) return std::nullopt;
    pos += 1 + c2;
    if (pos < text.size() && text[pos] == ':') {
      int c3 = 0;
      if (std::sscanf(text.c_str() + pos + 1, "%2d%n", &sec, &c3) != 1) return std::nullopt;
      pos += 1 + c3;
      if (pos < text.size() && text[pos] == '.') {
        std::size_t start = pos;
        ++pos;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
        frac = std::stod("0" + text.substr(start, pos - start));
      }
    }
    if (pos < text.size()) {
      char c = text[pos];
      if (c == 'Z' || c == 'z') {
        ++pos;
      } else if (c == '+' || c == '-') {
        int oh = 0, om = 0, c4 = 0;
        if (std::sscanf(text.c_str() + pos + 1, "%2d:%2d%n", &oh, &om, &c4) == 2) {
          pos += 1 + c4;
        } else if (std::sscanf(text.c_str() + pos + 1, "%2d%2d%n", &oh, &om, &c4) == 2) {
          pos += 1 + c4;
        } else {
          return std::nullopt;
        }
        offset = (c == '+' ? 1 : -1) * (oh * 3600L + om * 60L);
      }
    }
  }
  if (pos != text.size()) return std::nullopt;
  if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60) return std::nullopt;
  std::tm tm{};
  tm.tm_year = Y - 1900;
  tm.tm_mon = M - 1;
  tm.tm_mday = D;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = sec;
  std::time_t t = timegm(&tm);
  return static_cast<double>(t - offset) + frac;
}

Timestamp now_timestamp() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration<double>(now).count();
}

}  // namespace hamcp::sim
