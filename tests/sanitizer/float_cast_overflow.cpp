// Proves the sanitizer build reports float->int overflow (issue 8, weakness 10: an `offset` of
// 1e300 cast to int64 is undefined behaviour that GCC's -fsanitize=undefined does not check).
// Run with a number: casts it to long long the way an unchecked argument conversion would.
//   float_cast_overflow 12     -> prints 12, exit 0
//   float_cast_overflow 1e300  -> UBSan: "1e+300 is outside the range of representable values"
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s NUMBER\n", argv[0]);
    return 2;
  }
  const double value = std::strtod(argv[1], nullptr);  // not a constant: the cast happens at run time
  const long long cast = static_cast<long long>(value);
  std::printf("%lld\n", cast);
  return 0;
}
