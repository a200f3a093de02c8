// RepeatLimiter: a failure that repeats on every reconnect is logged once a
// window, with the count of what was held back; a new failure shows at once.
#include "ha/detail/repeat_limiter.hpp"

#include <gtest/gtest.h>

using hamcp::ha::detail::RepeatLimiter;
using namespace std::chrono_literals;

TEST(RepeatLimiter, SameFailureOncePerWindowWithTheCountHeldBack) {
  RepeatLimiter limiter(60s);
  const auto t0 = RepeatLimiter::Clock::now();
  ASSERT_TRUE(limiter.admit("frame too deep (13305 bytes)", t0));
  int passed = 0;
  for (int i = 1; i <= 100; ++i)  // every 300 ms for 30 s; the size varies
    if (limiter.admit("frame too deep (" + std::to_string(13000 + i) + " bytes)", t0 + i * 300ms)) ++passed;
  EXPECT_EQ(passed, 0);
  auto later = limiter.admit("frame too deep (13305 bytes)", t0 + 61s);
  ASSERT_TRUE(later);
  EXPECT_EQ(*later, " (100 similar lines suppressed)");
}

TEST(RepeatLimiter, ADifferentFailureShowsWithinASecond) {
  RepeatLimiter limiter(60s);
  const auto t0 = RepeatLimiter::Clock::now();
  ASSERT_TRUE(limiter.admit("connection refused", t0));
  EXPECT_FALSE(limiter.admit("token rejected", t0 + 100ms));  // flapping is still bounded
  auto changed = limiter.admit("token rejected", t0 + 1100ms);
  ASSERT_TRUE(changed);
  EXPECT_EQ(*changed, " (1 similar lines suppressed)");
}
