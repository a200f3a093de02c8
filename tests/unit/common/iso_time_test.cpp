// ISO 8601 timestamps as Home Assistant writes them: one parser and one formatter for the HA
// client, the tools and the simulator.
#include "common/iso_time.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using hamcp::common::format_iso_time;
using hamcp::common::parse_iso_time;

namespace {
constexpr double kNewYear2026 = 1767225600.0;  // 2026-01-01T00:00:00Z
}

TEST(IsoTime, FormatsLikeHomeAssistant) {
  EXPECT_EQ(format_iso_time(0), "1970-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(format_iso_time(kNewYear2026 + 0.25), "2026-01-01T00:00:00.250000+00:00");
  EXPECT_EQ(format_iso_time(kNewYear2026 - 0.0000001), "2026-01-01T00:00:00.000000+00:00");  // rounds up
}

// Found by fuzz_mirror (corpus timestamp_out_of_range): "lu": 1e300 in a subscribe_entities event
// reached a double -> time_t cast, undefined behaviour (UBSan float-cast-overflow) and a garbage
// date. Out-of-range values clamp to the years ISO 8601 can write; NaN reads as the epoch.
TEST(IsoTime, ClampsWhatNoCalendarCanShow) {
  EXPECT_EQ(format_iso_time(1e300), "9999-12-31T23:59:59.000000+00:00");
  EXPECT_EQ(format_iso_time(-std::numeric_limits<double>::infinity()), "0001-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(format_iso_time(std::nan("")), "1970-01-01T00:00:00.000000+00:00");
}

TEST(IsoTime, ReadsEveryFormHomeAssistantAndUsersWrite) {
  EXPECT_EQ(parse_iso_time("2026-01-01T00:00:00.000000+00:00"), kNewYear2026);
  EXPECT_EQ(parse_iso_time("2026-01-01T00:00:00Z"), kNewYear2026);
  EXPECT_EQ(parse_iso_time("2026-01-01T00:00:00"), kNewYear2026);  // no zone: UTC
  EXPECT_EQ(parse_iso_time("2026-01-01 00:00"), kNewYear2026);
  EXPECT_EQ(parse_iso_time("2026-01-01"), kNewYear2026);
  EXPECT_EQ(parse_iso_time("2026-01-01T02:00:00+02:00"), kNewYear2026);
  EXPECT_EQ(parse_iso_time("2026-01-01T02:00:00+0200"), kNewYear2026);
  EXPECT_EQ(parse_iso_time("2025-12-31T19:00:00-05"), kNewYear2026);
  EXPECT_DOUBLE_EQ(*parse_iso_time("2026-01-01T00:00:00.5Z"), kNewYear2026 + 0.5);
}

TEST(IsoTime, RefusesWhatIsNotATimestamp) {
  for (const char* bad : {"", "2026", "2026-1-01", "2026-01-01T", "2026-01-01T00", "2026-13-01", "2026-01-32",
                          "2026-01-01T24:00", "2026-01-01T00:60", "2026-01-01T00:00:00.", "2026-01-01T00:00:00+",
                          "2026-01-01T00:00:00+25:00", "2026-01-01T00:00:00 trailing", "+2026-01-01", " 2026-01-01",
                          "2026-01-01T00:00:00Zjunk", "99999999999-01-01"}) {
    EXPECT_FALSE(parse_iso_time(bad).has_value()) << bad;
  }
}

TEST(IsoTime, RoundTrips) {
  for (double t : {0.0, kNewYear2026, kNewYear2026 + 0.123456, 4102444799.999999}) {
    const auto back = parse_iso_time(format_iso_time(t));
    ASSERT_TRUE(back.has_value());
    EXPECT_NEAR(*back, t, 1e-6);
  }
}
