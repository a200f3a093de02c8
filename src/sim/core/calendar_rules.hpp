#pragma once
// The simulated local calendar's recurrence rules: a small RFC 5545 RRULE
// subset (FREQ=DAILY|WEEKLY|MONTHLY with INTERVAL, COUNT, UNTIL and, for
// WEEKLY, BYDAY without ordinals) expanded over a time range, and the
// iCalendar time texts (recurrence ids, UNTIL) HA's local_calendar uses.
// Times are UTC; DST and time zones are out of the sim's scope.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/home/home_model.hpp"

namespace hamcp::sim::calendar {

struct Rule {
  std::string freq;  // DAILY, WEEKLY, MONTHLY
  int interval = 1;
  std::optional<int> count;
  std::optional<Timestamp> until;
  std::vector<int> byday;  // 0 = Monday .. 6 = Sunday
};

// nullopt with `error` set for a rule outside the supported subset.
std::optional<Rule> parse_rrule(std::string_view text, std::string& error);

// Starts of the instances of `event` that overlap [from, to), in order
// (one for an event without rrule, if it overlaps).
std::vector<Timestamp> occurrences(const CalendarEvent& event, Timestamp from, Timestamp to);

// Whether the series (or single event) has an instance starting at `start`.
bool occurs_at(const CalendarEvent& event, Timestamp start);

// "20261204T090000" (datetime) or "20261204" (all-day): an instance's recurrence id.
std::string recurrence_id(Timestamp start, bool all_day);
// The instant of a recurrence id or iCalendar time ("…Z" accepted); nullopt if malformed.
std::optional<Timestamp> parse_ical_time(std::string_view text);

// The rule with COUNT/UNTIL replaced by UNTIL=<until> (ends a series before an instance).
std::string with_until(std::string_view rrule, Timestamp until, bool all_day);

// "2026-12-04" of an instant (UTC).
std::string date_text(Timestamp t);
// "2026-12-04T09:00:00+00:00" (Python's isoformat of a whole-second UTC datetime).
std::string datetime_text(Timestamp t);

// The instances of a calendar's events overlapping [from, to), sorted by
// start, as GET /api/calendars/<id> answers: {start:{date|dateTime}, end,
// summary, description, location, uid, recurrence_id, rrule}.
json::array events_json(const std::vector<CalendarEvent>& events, Timestamp from, Timestamp to);

}  // namespace hamcp::sim::calendar
