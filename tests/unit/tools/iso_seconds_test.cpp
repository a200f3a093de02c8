// Entity views write their two times without fmt, gmtime_r or an allocation
// (issue 9, item 6); the text must stay exactly what the formatter of
// common/iso_time.hpp gives for whole seconds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "common/iso_time.hpp"
#include "tools/entities/entity_view.hpp"

namespace hamcp::tools {
namespace {

// What iso_seconds wrote before: the shared formatter, its ".000000" removed.
std::string reference(double epoch) {
  std::string s = common::format_iso_time(std::floor(epoch));
  s.erase(s.find('.'), 7);
  return s;
}

TEST(IsoSeconds, MatchesTheSharedFormatterAcrossItsRange) {
  const double samples[] = {0.0,
                            0.999999,
                            -0.5,
                            1.0,
                            86399.9,
                            86400.0,
                            951782400.0,   // 2000-02-29
                            1767225600.5,  // 2026-01-01
                            4107542399.0,  // 2100-02-28T23:59:59
                            -62135596800.0,
                            -62135596801.0,  // clamped to 0001-01-01
                            253402300799.0,
                            253402300800.0,  // clamped to 9999-12-31T23:59:59
                            -2208988800.0,   // 1900-01-01
                            std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity()};
  for (double t : samples) EXPECT_EQ(iso_seconds(t), reference(t)) << "epoch " << t;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> any_time(-62135596800.0, 253402300799.0);
  for (int i = 0; i < 20000; ++i) {
    const double t = any_time(rng);
    ASSERT_EQ(iso_seconds(t), reference(t)) << "epoch " << t;
  }
}

TEST(IsoSeconds, WritesIntoTheCallersBuffer) {
  IsoSecondsBuffer buffer;
  const std::string_view text = write_iso_seconds(1767225600.0, buffer);
  EXPECT_EQ(text, "2026-01-01T00:00:00+00:00");
  EXPECT_EQ(text.data(), buffer.data());
}

}  // namespace
}  // namespace hamcp::tools
