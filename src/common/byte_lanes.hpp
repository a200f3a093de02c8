#pragma once
// Eight bytes at a time with portable word arithmetic (no SIMD flags: hamcp
// runs on baseline CPUs). A test gives 0x80 in exactly the byte lanes where
// it holds, with no false lanes from borrows, so lanes can be counted and the
// first one found. Lane i is byte i of the word on little-endian machines
// (kLanesInOrder); elsewhere only "some lane holds" may be relied on.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hamcp::lanes {

inline constexpr std::uint64_t kEach = 0x0101010101010101ULL;
inline constexpr bool kLanesInOrder = std::endian::native == std::endian::little;

inline std::uint64_t load(const char* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
// The lanes whose byte is zero.
inline std::uint64_t zero(std::uint64_t v) noexcept {
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  return ~(((v & kLow7) + kLow7) | v | kLow7);
}
// The lanes whose byte is `b`.
inline std::uint64_t equal(std::uint64_t w, unsigned char b) noexcept { return zero(w ^ (kEach * b)); }
// The lanes whose byte is below 0x20 (a control character).
inline std::uint64_t control(std::uint64_t w) noexcept { return zero(w & (kEach * 0xE0)); }
inline std::size_t count(std::uint64_t lanes) noexcept {
  return static_cast<std::size_t>(((lanes >> 7) * kEach) >> 56);
}
// The index of the first lane (kLanesInOrder only); `lanes` is not 0.
inline std::size_t first(std::uint64_t lanes) noexcept { return static_cast<std::size_t>(std::countr_zero(lanes) / 8); }

}  // namespace hamcp::lanes
