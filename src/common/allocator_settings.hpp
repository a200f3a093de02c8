#pragma once
// hamcp's malloc settings, applied first thing in main() (src/main.cpp) and by
// the benchmarks that measure allocation-heavy work, so their figures are
// those of hamcp's process.

#include <cstdlib>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace hamcp {

inline void apply_allocator_settings() {
#if defined(__GLIBC__)
  // glibc gives each thread that allocates its own arena (up to 8 per core),
  // and free memory in one arena is not reused by another: the HA client
  // thread's arena kept ~11 MB of sync garbage at 10k entities. Our threads
  // are few and allocate little on the hot path, so one arena loses nothing.
  // A fixed mmap threshold keeps large buffers (WebSocket frames of many MB)
  // out of the heap: glibc would otherwise raise the threshold after the
  // first such buffer is freed and place the next ones among small blocks,
  // where the memory stays after they are gone. Measured in bench/RESULTS-ha.md.
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

}  // namespace hamcp
