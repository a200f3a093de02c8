#pragma once
// double -> integer without undefined behaviour: a C++ cast of a double outside
// the target's range (1e300, -inf) or of NaN is UB, and numbers from JSON, a
// template or a client can be anything. Values beyond the range saturate at
// its ends; NaN gives `if_nan`; anything else truncates toward zero like a cast.

#include <cmath>
#include <limits>
#include <type_traits>

namespace hamcp {

template <class Int>
inline Int saturate_cast(double value, Int if_nan = 0) noexcept {
  static_assert(std::is_integral_v<Int>);
  if (std::isnan(value)) return if_nan;
  // max() as a double rounds up to a power of two for 64-bit types, so
  // ">=" catches every value that would not fit; min() is exact.
  constexpr double upper = static_cast<double>(std::numeric_limits<Int>::max());
  constexpr double lower = static_cast<double>(std::numeric_limits<Int>::min());
  if (value >= upper) return std::numeric_limits<Int>::max();
  if (value <= lower) return std::numeric_limits<Int>::min();
  return static_cast<Int>(value);
}

}  // namespace hamcp
