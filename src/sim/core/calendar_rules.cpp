#include "sim/core/calendar_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/iso_time.hpp"

namespace hamcp::sim::calendar {

namespace {

constexpr double kDay = 86400.0;
constexpr int kMaxSteps = 100000;  // bounds the walk of a long series

// Howard Hinnant's civil-date algorithms (days since 1970-01-01).
long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

struct Civil {
  long y;
  unsigned m, d;
};

Civil civil_from_days(long z) {
  z += 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<long>(yoe) + era * 400 + (m <= 2), m, d};
}

long day_of(Timestamp t) { return static_cast<long>(std::floor(t / kDay)); }
int weekday(long day) { return static_cast<int>(((day % 7) + 7 + 3) % 7); }  // 1970-01-01 was a Thursday

bool parse_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

bool parse_byday(std::string_view list, std::vector<int>& out) {
  static const char* kNames[] = {"MO", "TU", "WE", "TH", "FR", "SA", "SU"};
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view part = list.substr(start, comma - start);
    const auto* it = std::find_if(std::begin(kNames), std::end(kNames), [&](const char* n) { return part == n; });
    if (it == std::end(kNames)) return false;
    out.push_back(static_cast<int>(it - std::begin(kNames)));
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return !out.empty();
}

bool apply_part(Rule& rule, std::string_view key, std::string_view value) {
  int n = 0;
  if (key == "FREQ") {
    rule.freq = std::string(value);
    return value == "DAILY" || value == "WEEKLY" || value == "MONTHLY";
  }
  if (key == "INTERVAL") return parse_int(value, rule.interval) && rule.interval >= 1;
  if (key == "COUNT") return parse_int(value, n) && n >= 1 && (rule.count = n, true);
  if (key == "UNTIL") return (rule.until = parse_ical_time(value)).has_value();
  if (key == "BYDAY") return parse_byday(value, rule.byday);
  return key == "WKST";
}

// Walks the series' candidate starts in order; `visit` returns false to stop.
template <typename Visit>
void walk(const CalendarEvent& e, const Rule& rule, Visit visit) {
  const long first_day = day_of(e.start);
  const double time_of_day = e.start - static_cast<double>(first_day) * kDay;
  int produced = 0;
  auto offer = [&](long day) {
    const Timestamp t = static_cast<double>(day) * kDay + time_of_day;
    if (t < e.start) return true;
    if (rule.until && t > *rule.until) return false;
    if (rule.count && ++produced > *rule.count) return false;
    return visit(t);
  };
  const Civil c0 = civil_from_days(first_day);
  std::vector<int> days = rule.byday;
  if (days.empty()) days.push_back(weekday(first_day));
  for (int k = 0; k < kMaxSteps; ++k) {
    if (rule.freq == "DAILY") {
      if (!offer(first_day + static_cast<long>(k) * rule.interval)) return;
    } else if (rule.freq == "WEEKLY") {
      const long week = first_day - weekday(first_day) + static_cast<long>(k) * rule.interval * 7;
      for (int d : days)
        if (!offer(week + d)) return;
    } else {
      const long months = static_cast<long>(c0.m) - 1 + static_cast<long>(k) * rule.interval;
      const long y = c0.y + months / 12;
      const auto m = static_cast<unsigned>(months % 12 + 1);
      const long day = days_from_civil(y, m, c0.d);
      if (civil_from_days(day).d == c0.d && !offer(day)) return;  // months without that day are skipped
    }
  }
}

}  // namespace

std::optional<Rule> parse_rrule(std::string_view text, std::string& error) {
  Rule rule;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t semi = std::min(text.find(';', start), text.size());
    const std::string_view part = text.substr(start, semi - start);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || !apply_part(rule, part.substr(0, eq), part.substr(eq + 1))) {
      error = "Unsupported rrule part '" + std::string(part) +
              "' (the simulator supports FREQ=DAILY|WEEKLY|MONTHLY with INTERVAL, COUNT, UNTIL, BYDAY)";
      return std::nullopt;
    }
    start = semi + 1;
  }
  if (rule.freq.empty()) {
    error = "Invalid rrule: FREQ is required";
    return std::nullopt;
  }
  if (!rule.byday.empty() && rule.freq != "WEEKLY") {
    error = "Unsupported rrule: the simulator supports BYDAY only with FREQ=WEEKLY";
    return std::nullopt;
  }
  return rule;
}

std::vector<Timestamp> occurrences(const CalendarEvent& e, Timestamp from, Timestamp to) {
  std::vector<Timestamp> out;
  const double length = e.end - e.start;
  std::string error;
  const auto rule = e.rrule.empty() ? std::nullopt : parse_rrule(e.rrule, error);
  if (!rule) {
    if (e.start < to && e.end > from) out.push_back(e.start);
    return out;
  }
  walk(e, *rule, [&](Timestamp t) {
    if (t >= to) return false;
    if (t + length > from && std::find(e.excluded.begin(), e.excluded.end(), t) == e.excluded.end()) out.push_back(t);
    return true;
  });
  return out;
}

bool occurs_at(const CalendarEvent& e, Timestamp start) {
  const auto found = occurrences(e, start, start + 1);
  return std::find(found.begin(), found.end(), start) != found.end();
}

std::string recurrence_id(Timestamp start, bool all_day) {
  const long day = day_of(start);
  const Civil c = civil_from_days(day);
  char buf[80];
  if (all_day) {
    std::snprintf(buf, sizeof buf, "%04ld%02u%02u", c.y, c.m, c.d);
  } else {
    const auto secs = static_cast<long>(start - static_cast<double>(day) * kDay);
    std::snprintf(buf, sizeof buf, "%04ld%02u%02uT%02ld%02ld%02ld", c.y, c.m, c.d, secs / 3600, secs / 60 % 60,
                  secs % 60);
  }
  return buf;
}

std::optional<Timestamp> parse_ical_time(std::string_view text) {
  if (text.size() < 8 || text.find_first_not_of("0123456789TZ") != std::string_view::npos) return std::nullopt;
  std::string iso;  // "YYYYMMDD[THHMMSS[Z]]" -> "YYYY-MM-DD[THH:MM:SS]", appended piece by piece
  iso.reserve(20);
  iso.append(text.substr(0, 4)).append(1, '-').append(text.substr(4, 2)).append(1, '-').append(text.substr(6, 2));
  if (text.size() > 8) {
    std::string_view rest = text.substr(8);
    if (rest.back() == 'Z') rest.remove_suffix(1);
    if (rest.size() != 7 || rest[0] != 'T') return std::nullopt;
    iso.append(1, 'T').append(rest.substr(1, 2)).append(1, ':').append(rest.substr(3, 2)).append(1, ':');
    iso.append(rest.substr(5, 2));
  }
  return common::parse_iso_time(iso);
}

std::string with_until(std::string_view rrule, Timestamp until, bool all_day) {
  std::string out;
  std::size_t start = 0;
  while (start < rrule.size()) {
    const std::size_t semi = std::min(rrule.find(';', start), rrule.size());
    const std::string_view part = rrule.substr(start, semi - start);
    if (part.rfind("COUNT=", 0) != 0 && part.rfind("UNTIL=", 0) != 0) out += std::string(part) + ";";
    start = semi + 1;
  }
  return out + "UNTIL=" + recurrence_id(until, all_day) + (all_day ? "" : "Z");
}

std::string date_text(Timestamp t) {
  const Civil c = civil_from_days(day_of(t));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04ld-%02u-%02u", c.y, c.m, c.d);
  return buf;
}

std::string datetime_text(Timestamp t) {
  const long day = day_of(t);
  const auto secs = static_cast<long>(t - static_cast<double>(day) * kDay);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%sT%02ld:%02ld:%02ld+00:00", date_text(t).c_str(), secs / 3600, secs / 60 % 60,
                secs % 60);
  return buf;
}

namespace {

json::value optional_text(const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

json::object when(Timestamp t, bool all_day) {
  if (all_day) return {{"date", date_text(t)}};
  return {{"dateTime", datetime_text(t)}};
}

}  // namespace

json::array events_json(const std::vector<CalendarEvent>& events, Timestamp from, Timestamp to) {
  std::vector<std::pair<Timestamp, json::object>> found;
  for (const auto& e : events) {
    const bool series = !e.rrule.empty();
    for (Timestamp t : occurrences(e, from, to)) {
      const Timestamp end = t + (e.end - e.start);
      std::string rid = series ? recurrence_id(t, e.all_day) : e.recurrence_id;
      found.emplace_back(t, json::object{{"start", when(t, e.all_day)},
                                         {"end", when(end, e.all_day)},
                                         {"summary", e.summary},
                                         {"description", optional_text(e.description)},
                                         {"location", optional_text(e.location)},
                                         {"uid", e.uid},
                                         {"recurrence_id", optional_text(rid)},
                                         {"rrule", optional_text(e.rrule)}});
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  json::array out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace hamcp::sim::calendar
