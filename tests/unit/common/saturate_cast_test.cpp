// saturate_cast: double -> integer with no undefined behaviour, whatever the double.
#include "common/saturate_cast.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace hamcp {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(SaturateCast, InRangeTruncatesTowardZeroLikeACast) {
  EXPECT_EQ(saturate_cast<int>(42.9), 42);
  EXPECT_EQ(saturate_cast<int>(-42.9), -42);
  EXPECT_EQ(saturate_cast<std::int64_t>(-0.5), 0);
  EXPECT_EQ(saturate_cast<std::size_t>(7.0), 7u);
}

TEST(SaturateCast, BeyondTheRangeSaturatesAtItsEnds) {
  EXPECT_EQ(saturate_cast<int>(1e300), std::numeric_limits<int>::max());
  EXPECT_EQ(saturate_cast<int>(-1e300), std::numeric_limits<int>::min());
  EXPECT_EQ(saturate_cast<int>(2147483648.0), std::numeric_limits<int>::max());
  EXPECT_EQ(saturate_cast<int>(-2147483649.0), std::numeric_limits<int>::min());
  EXPECT_EQ(saturate_cast<std::int64_t>(kInf), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(saturate_cast<std::int64_t>(-kInf), std::numeric_limits<std::int64_t>::min());
  // 2^63 is the first double above int64's range (max() rounds up to it).
  EXPECT_EQ(saturate_cast<std::int64_t>(9223372036854775808.0), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(saturate_cast<std::int64_t>(-9223372036854775808.0), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(saturate_cast<std::size_t>(-1.0), 0u);
  EXPECT_EQ(saturate_cast<std::uint8_t>(300.0), 255);
}

TEST(SaturateCast, NaNGivesTheFallback) {
  EXPECT_EQ(saturate_cast<int>(kNaN), 0);
  EXPECT_EQ(saturate_cast<int>(kNaN, -1), -1);
}

}  // namespace
}  // namespace hamcp
