// ISO timestamps of the mirror's states, for any number a Home Assistant may send.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ha/snapshot.hpp"

using namespace hamcp::ha;

TEST(SnapshotTime, FormatsOrdinaryTimestamps) {
  EXPECT_EQ(format_iso_time(0), "1970-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(format_iso_time(1767225600.25), "2026-01-01T00:00:00.250000+00:00");
}

// Found by fuzz_mirror (corpus timestamp_out_of_range): "lu": 1e300 in a subscribe_entities event
// reached a double -> time_t cast, undefined behaviour (UBSan float-cast-overflow) and a garbage
// date. Out-of-range values now clamp to the years ISO 8601 can write; NaN reads as the epoch.
TEST(SnapshotTime, ClampsTimestampsOutsideYears1To9999) {
  EXPECT_EQ(format_iso_time(1e300), "9999-12-31T23:59:59.000000+00:00");
  EXPECT_EQ(format_iso_time(-1e300), "0001-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(format_iso_time(std::numeric_limits<double>::infinity()), "9999-12-31T23:59:59.000000+00:00");
  EXPECT_EQ(format_iso_time(std::nan("")), "1970-01-01T00:00:00.000000+00:00");  // no time: the epoch
}
