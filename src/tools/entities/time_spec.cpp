#include "tools/entities/time_spec.hpp"

#include <cctype>
#include <cstdlib>

#include "common/iso_time.hpp"
#include "mcp/echo.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

double time_argument(Args& args, const char* key, const char* fallback, double now) {
  std::string text = args.str(key, fallback);
  if (const json::value* v = args.get(key); v && v->is_number()) text = std::to_string(v->to_number<double>()) + "h";
  auto parsed = parse_time_spec(text, now);
  if (auto* err = std::get_if<std::string>(&parsed))
    throw ToolException(bad_argument(key, *err, "Example: \"24h\", \"7d\" or \"2026-01-01T00:00:00Z\"."));
  return std::get<double>(parsed);
}

std::optional<double> parse_duration(std::string_view text) {
  double total = 0;
  std::size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    std::size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    if (i == start || i >= text.size()) return std::nullopt;  // number without unit
    const double n = std::strtod(std::string(text.substr(start, i - start)).c_str(), nullptr);
    double unit = 0;
    switch (std::tolower(static_cast<unsigned char>(text[i]))) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      case 'w':
        unit = 7 * 86400;
        break;
      default:
        return std::nullopt;
    }
    ++i;
    total += n * unit;
    any = true;
  }
  if (!any) return std::nullopt;
  return total;
}

namespace {

std::variant<double, std::string> parse_unchecked(std::string_view text, double now) {
  if (text.empty()) return std::string("empty time; use e.g. \"24h\" (24 hours ago), \"7d\" or an ISO time");
  if (text == "now") return now;
  std::string_view rel = text;
  if (rel.front() == '-') rel.remove_prefix(1);
  if (auto d = parse_duration(rel)) return now - *d;
  if (auto t = common::parse_iso_time(text)) return *t;  // ISO date or date-time
  // Epoch seconds.
  char* end = nullptr;
  const std::string s(text);
  const double epoch = std::strtod(s.c_str(), &end);
  if (end && *end == '\0' && epoch > 1e8) return epoch;
  return "cannot read \"" + mcp::echo_excerpt(text) +
         "\" as a time; use a relative time like \"24h\", \"30m\", \"7d\" (that long ago) or ISO "
         "8601 like \"2026-01-01T08:00:00+01:00\"";
}

}  // namespace

std::variant<double, std::string> parse_time_spec(std::string_view text, double now) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  auto parsed = parse_unchecked(text, now);
  // "1e300h" ago or year 99999 is no time Home Assistant (or an ISO string) can hold.
  constexpr double kFirst = 0.0;            // 1970-01-01T00:00:00Z
  constexpr double kLast = 253402300799.0;  // 9999-12-31T23:59:59Z
  if (const double* t = std::get_if<double>(&parsed); t && !(*t >= kFirst && *t <= kLast))
    return "\"" + mcp::echo_excerpt(text) +
           "\" is outside 1970-01-01 .. 9999-12-31; use a relative time like \"24h\" or a " + "date in that range";
  return parsed;
}

}  // namespace hamcp::tools
