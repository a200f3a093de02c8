#pragma once
// hamcp's malloc settings, applied first thing in main() (src/main.cpp) and by
// the benchmarks that measure allocation-heavy work, so their figures are
// those of hamcp's process.
//
// The hamcp executable runs on mimalloc where it is linked (cmake/allocator.cmake)
// and on glibc's malloc otherwise (sanitizer builds, systems without it). The
// mimalloc functions are weak: null when the library is not loaded.

#include <cstdlib>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if __has_include(<mimalloc.h>)
#include <mimalloc.h>
#pragma weak mi_option_set
#define HAMCP_KNOWS_MIMALLOC 1
#endif

namespace hamcp {

inline void apply_allocator_settings() {
#if defined(HAMCP_KNOWS_MIMALLOC) && MI_MALLOC_VERSION < 210
  if (&mi_option_set != nullptr) {
    // Freed pages go back to the system at once, not after a delay that only
    // runs out while the program allocates: after a sync the mirror's thread
    // is idle, and the sync's garbage (the frames and DOMs of 100k entities)
    // would otherwise stay resident. Measured in bench/RESULTS-ha.md.
    mi_option_set(mi_option_page_reset, 1);
    mi_option_set(mi_option_decommit_delay, 0);
    return;
  }
#endif
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
