#pragma once
// Heap figures for the memory tests (mallinfo2, glibc). Under ASan/TSan the
// sanitizer's allocator reports nothing, so those tests skip on kSanitized.
#include <malloc.h>

#include <cstddef>

namespace hamcp::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// Bytes in small blocks (malloc's arena).
inline std::size_t small_heap_in_use() {
#if defined(__GLIBC__)
  return mallinfo2().uordblks;
#else
  return 0;
#endif
}

// Small blocks plus mmap'ed ones (large tables are single large blocks).
inline std::size_t heap_in_use() {
#if defined(__GLIBC__)
  const auto info = mallinfo2();
  return info.uordblks + info.hblkhd;
#else
  return 0;
#endif
}

}  // namespace hamcp::testing
