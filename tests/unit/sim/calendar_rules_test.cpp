// The simulated calendar's RRULE subset: expansion over a range (DAILY,
// WEEKLY with BYDAY, MONTHLY skipping short months, INTERVAL, COUNT, UNTIL,
// excluded instances), recurrence ids and ending a series with UNTIL.
#include "sim/core/calendar_rules.hpp"

#include <gtest/gtest.h>

#include "common/iso_time.hpp"

namespace hamcp::sim::calendar {
namespace {

double at(const char* iso) { return *common::parse_iso_time(iso); }

CalendarEvent series(const char* start, std::string rrule) {
  CalendarEvent e;
  e.uid = "u";
  e.summary = "s";
  e.start = at(start);
  e.end = e.start + 3600;
  e.rrule = std::move(rrule);
  return e;
}

std::vector<std::string> ids(const CalendarEvent& e, const char* from, const char* to) {
  std::vector<std::string> out;
  for (double t : occurrences(e, at(from), at(to))) out.push_back(recurrence_id(t, e.all_day));
  return out;
}

TEST(CalendarRules, WeeklyByDayWithCount) {
  auto e = series("2026-01-06T09:00:00Z", "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=3");  // a Tuesday
  EXPECT_EQ(ids(e, "2026-01-01", "2026-12-31"),
            (std::vector<std::string>{"20260106T090000", "20260108T090000", "20260113T090000"}));
}

TEST(CalendarRules, DailyIntervalUntilAndExclusions) {
  auto e = series("2026-01-01T08:00:00Z", "FREQ=DAILY;INTERVAL=2;UNTIL=20260107T080000Z");
  e.excluded.push_back(at("2026-01-03T08:00:00Z"));
  EXPECT_EQ(ids(e, "2026-01-01", "2026-02-01"),
            (std::vector<std::string>{"20260101T080000", "20260105T080000", "20260107T080000"}));
}

TEST(CalendarRules, MonthlySkipsMonthsWithoutTheDay) {
  auto e = series("2026-01-31T10:00:00Z", "FREQ=MONTHLY;COUNT=3");
  EXPECT_EQ(ids(e, "2026-01-01", "2027-01-01"),
            (std::vector<std::string>{"20260131T100000", "20260331T100000", "20260531T100000"}));
}

TEST(CalendarRules, RangeOverlapAndAllDayIds) {
  CalendarEvent e = series("2026-02-01", "FREQ=MONTHLY");
  e.all_day = true;
  e.end = e.start + 86400;
  EXPECT_EQ(ids(e, "2026-02-01T12:00:00Z", "2026-03-01T00:00:00Z"), (std::vector<std::string>{"20260201"}));
  EXPECT_TRUE(occurs_at(e, at("2026-04-01")));
  EXPECT_FALSE(occurs_at(e, at("2026-04-02")));
}

TEST(CalendarRules, UnsupportedPartsAreRefusedWithTheLimit) {
  std::string error;
  EXPECT_FALSE(parse_rrule("FREQ=YEARLY", error));
  EXPECT_NE(error.find("DAILY|WEEKLY|MONTHLY"), std::string::npos) << error;
  EXPECT_FALSE(parse_rrule("FREQ=MONTHLY;BYDAY=1MO", error));
  EXPECT_FALSE(parse_rrule("INTERVAL=2", error));
  EXPECT_TRUE(parse_rrule("FREQ=WEEKLY;WKST=MO;BYDAY=SU,MO", error));
}

TEST(CalendarRules, WithUntilEndsTheSeriesBeforeAnInstance) {
  const std::string r = with_until("FREQ=WEEKLY;COUNT=10;BYDAY=MO", at("2026-03-15T23:59:59Z"), false);
  EXPECT_EQ(r, "FREQ=WEEKLY;BYDAY=MO;UNTIL=20260315T235959Z");
  auto e = series("2026-03-02T17:00:00Z", r);
  EXPECT_EQ(ids(e, "2026-03-01", "2026-05-01"), (std::vector<std::string>{"20260302T170000", "20260309T170000"}));
  EXPECT_EQ(datetime_text(at("2026-03-02T17:00:00Z")), "2026-03-02T17:00:00+00:00");
}

}  // namespace
}  // namespace hamcp::sim::calendar
