// Per-DELETE cost of the session revocation list at N existing entries: one
// revoke() (what DELETE does) then one is_revoked() (what the next request
// does), timed together. Builds against either revocation_list.cpp, so the
// same program measures before and after (see bench/RESULTS-hardening.md).
//
//   bench_revocation [entries=10000] [deletes=300]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mcp/http/revocation_list.hpp"

namespace {

std::string nonce(unsigned long long i) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%032llx", i);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned long long entries = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000;
  const int deletes = argc > 2 ? std::atoi(argv[2]) : 300;
  const auto dir = std::filesystem::temp_directory_path() / ("hamcp-bench-revocation-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "revoked";
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  {
    std::ofstream out(file);
    for (unsigned long long i = 0; i < entries; ++i) out << nonce(i) << ' ' << now << '\n';
  }
  hamcp::mcp::http::RevocationList list(file, std::chrono::hours(24 * 30));
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(deletes));
  for (int i = 0; i < deletes; ++i) {
    const auto start = std::chrono::steady_clock::now();
    list.revoke(nonce(1000000000ull + static_cast<unsigned long long>(i)));
    const bool seen = list.is_revoked(nonce(static_cast<unsigned long long>(i) % std::max(1ull, entries)));
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    if (!seen && entries > 0) return 1;
  }
  std::sort(us.begin(), us.end());
  std::printf("entries=%llu deletes=%d per-DELETE median=%.1f us p90=%.1f us max=%.1f us\n", entries, deletes,
              us[us.size() / 2], us[us.size() * 9 / 10], us.back());
  std::filesystem::remove_all(dir);
  return 0;
}
