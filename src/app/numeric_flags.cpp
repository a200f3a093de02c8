#include "app/numeric_flags.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace hamcp::app {
namespace {

std::string range_message(const NumericFlag& f, std::string_view text) {
  std::string who(f.flag);
  if (!f.env.empty()) who += fmt::format(" (or {})", f.env);
  std::string shown(text.substr(0, 40));
  if (text.size() > 40) shown += "…";
  return fmt::format("{} must be {} from {} to {}, got \"{}\"; e.g. {} {}", who, f.what, f.min, f.max, shown, f.flag,
                     f.example);
}

}  // namespace

double parse_numeric_flag(const NumericFlag& flag, std::string_view text) {
  // from_chars: no locale, no leading '+' or spaces, no hex; "nan"/"inf" parse
  // but fail the range check below.
  double value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (text.empty() || ec != std::errc() || end != last || !std::isfinite(value) || value < flag.min || value > flag.max)
    throw std::invalid_argument(range_message(flag, text));
  return value;
}

std::uint64_t parse_whole_flag(const NumericFlag& flag, std::string_view text) {
  const double value = parse_numeric_flag(flag, text);
  if (value != std::floor(value)) throw std::invalid_argument(range_message(flag, text));
  return static_cast<std::uint64_t>(value);  // in [min, max], both far below 2^53
}

std::chrono::milliseconds seconds_to_duration(double seconds) {
  return std::chrono::milliseconds(std::llround(seconds * 1000.0));
}

std::chrono::seconds hours_to_duration(double hours) { return std::chrono::seconds(std::llround(hours * 3600.0)); }

}  // namespace hamcp::app
