// main() of the Google Benchmark binaries that measure allocation-heavy work
// (the registry decode, the index's document producer): hamcp's allocator
// settings first, so that the figures are those of hamcp's process.
#include <benchmark/benchmark.h>

#include "common/allocator_settings.hpp"

int main(int argc, char** argv) {
  hamcp::apply_allocator_settings();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
