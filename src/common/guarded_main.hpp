#pragma once
// A program's main() that reports every failure instead of letting it escape
// (clang-tidy bugprone-exception-escape): the benchmarks and test fixtures use it.
#include <cstdio>
#include <exception>

namespace hamcp::common {

inline int guarded_main(int argc, char** argv, int (*run)(int, char**)) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: unknown error\n", argv[0]);
  }
  return 1;
}

}  // namespace hamcp::common
