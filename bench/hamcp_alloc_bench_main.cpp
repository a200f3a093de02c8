// main() of the Google Benchmark binaries that measure allocation-heavy work
// (the registry decode, the index's document producer): hamcp's own allocator
// settings first (src/main.cpp: one arena, a fixed mmap threshold), so that
// the figures are those of hamcp's process.
#include <benchmark/benchmark.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
