// The revocation file under load: a DELETE appends one line and never makes
// this process re-parse the file; expired lines are compacted away while the
// server runs; other processes' DELETEs and compactions are still seen, and a
// lookup touches the file only when it may have changed.
#include "mcp/http/revocation_list.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

using mcp::http::RevocationList;

std::string nonce(std::uint64_t i) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%032llx", static_cast<unsigned long long>(i));
  return buf;
}

std::int64_t now_unix() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::size_t lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

void prefill(const std::filesystem::path& file, std::uint64_t first, std::uint64_t count, std::int64_t at) {
  std::ofstream out(file, std::ios::app);
  for (std::uint64_t i = first; i < first + count; ++i) out << nonce(i) << ' ' << at << '\n';
}

// Before: every DELETE changed the file, so the next lookup parsed all of it
// again on the event loop (9.4 ms per DELETE at 10k entries).
TEST(RevocationListLoad, DeleteAppendsWithoutReparsingTheFile) {
  TempDir dir;
  const auto file = dir.path() / "revoked";
  prefill(file, 0, 10000, now_unix());
  RevocationList list(file, std::chrono::hours(24));
  EXPECT_EQ(list.full_reads(), 1u);
  for (std::uint64_t i = 0; i < 200; ++i) {
    list.revoke(nonce(100000 + i));
    EXPECT_TRUE(list.is_revoked(nonce(100000 + i)));
    EXPECT_TRUE(list.is_revoked(nonce(i)));
    EXPECT_FALSE(list.is_revoked(nonce(200000 + i)));
  }
  EXPECT_EQ(list.full_reads(), 1u) << "a DELETE made this process parse the whole file again";
  EXPECT_EQ(list.size(), 10200u);
  EXPECT_EQ(lines_of(file), 10200u);
}

TEST(RevocationListLoad, OtherProcessesAppendsAreReadIncrementally) {
  TempDir dir;
  const auto file = dir.path() / "revoked";
  prefill(file, 0, 5000, now_unix());
  RevocationList a(file, std::chrono::hours(24));
  RevocationList b(file, std::chrono::hours(24));
  for (std::uint64_t i = 0; i < 50; ++i) {
    b.revoke(nonce(9000 + i));
    EXPECT_TRUE(a.is_revoked(nonce(9000 + i)));
  }
  EXPECT_EQ(a.full_reads(), 1u) << "another process's appends are a tail read";
  EXPECT_EQ(a.size(), 5050u);
}

// Before: expired lines were dropped only when a process started, so a
// long-running server's file (and memory) grew with every DELETE ever made.
TEST(RevocationListLoad, ExpiredLinesAreCompactedWhileRunning) {
  TempDir dir;
  const auto file = dir.path() / "revoked";
  RevocationList list(file, std::chrono::seconds(60));
  const std::int64_t long_ago = now_unix() - 3600;
  prefill(file, 0, 6000, long_ago);  // written by an older run: expired
  list.is_revoked(nonce(0));         // reads them
  for (std::uint64_t i = 0; i < 200; ++i) list.revoke(nonce(50000 + i));
  EXPECT_LT(lines_of(file), 1000u) << "expired lines dominate the file: it must be rewritten";
  EXPECT_LE(list.size(), 200u);
  for (std::uint64_t i = 0; i < 200; ++i) EXPECT_TRUE(list.is_revoked(nonce(50000 + i))) << i;
  // A second instance (another process) follows the rewrite (new inode) and
  // loses nothing that is still live.
  RevocationList other(file, std::chrono::seconds(60));
  for (std::uint64_t i = 0; i < 200; ++i) EXPECT_TRUE(other.is_revoked(nonce(50000 + i))) << i;
}

TEST(RevocationListLoad, CompactionByAnotherInstanceIsFollowed) {
  TempDir dir;
  const auto file = dir.path() / "revoked";
  RevocationList watcher(file, std::chrono::seconds(60));
  RevocationList writer(file, std::chrono::seconds(60));
  prefill(file, 0, 6000, now_unix() - 3600);
  EXPECT_TRUE(watcher.is_revoked(nonce(1)));
  for (std::uint64_t i = 0; i < 200; ++i) writer.revoke(nonce(70000 + i));  // compacts
  ASSERT_LT(lines_of(file), 1000u);
  for (std::uint64_t i = 0; i < 200; ++i) EXPECT_TRUE(watcher.is_revoked(nonce(70000 + i))) << i;
  EXPECT_EQ(watcher.full_reads(), 2u) << "the rewritten file is read whole once";
}

// Before: every lookup (every request of every session) stat'ed the file.
// Now instances share a change counter, and a lookup checks the file only
// when another instance changed it (or the recheck period has passed).
TEST(RevocationListLoad, LookupsCheckTheFileOnlyAfterAnotherInstanceChangedIt) {
  TempDir dir;
  const auto file = dir.path() / "revoked";
  prefill(file, 0, 100, now_unix());
  RevocationList a(file, std::chrono::hours(24), std::chrono::hours(1));
  RevocationList b(file, std::chrono::hours(24), std::chrono::hours(1));
  EXPECT_TRUE(a.is_revoked(nonce(1)));
  const std::uint64_t checks = a.file_checks();
  for (std::uint64_t i = 0; i < 1000; ++i) EXPECT_FALSE(a.is_revoked(nonce(5000 + i)));
  EXPECT_EQ(a.file_checks(), checks) << "an unchanged file was checked again";
  b.revoke(nonce(9000));
  EXPECT_TRUE(a.is_revoked(nonce(9000))) << "another instance's revocation is honoured at the next lookup";
  EXPECT_EQ(a.file_checks(), checks + 1);
  a.revoke(nonce(9001));  // checks the file under its lock, then appends
  const std::uint64_t after_own = a.file_checks();
  for (std::uint64_t i = 0; i < 100; ++i) EXPECT_TRUE(a.is_revoked(nonce(9001)));
  EXPECT_EQ(a.file_checks(), after_own) << "its own revocation is not read back";
  EXPECT_TRUE(b.is_revoked(nonce(9001)));
}

// A change hamcp did not make (an operator's edit, an older hamcp, another
// host on a network filesystem) is seen once the recheck period has passed;
// a period of 0 checks at every lookup.
TEST(RevocationListLoad, AChangeMadeOutsideHamcpIsSeenAfterTheRecheckPeriod) {
  TempDir dir;
  const auto file = dir.path() / "revoked";
  RevocationList every_lookup(file, std::chrono::hours(24), std::chrono::milliseconds(0));
  RevocationList periodic(file, std::chrono::hours(24), std::chrono::milliseconds(50));
  EXPECT_FALSE(every_lookup.is_revoked(nonce(7)));
  EXPECT_FALSE(periodic.is_revoked(nonce(7)));
  prefill(file, 7, 1, now_unix());
  EXPECT_TRUE(every_lookup.is_revoked(nonce(7)));
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_TRUE(periodic.is_revoked(nonce(7)));
  std::filesystem::remove(file);  // revocations wiped by hand
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_FALSE(periodic.is_revoked(nonce(7)));
}

TEST(RevocationListLoad, TornLineDoesNotSwallowTheNextRevocation) {
  TempDir dir;
  const auto file = dir.path() / "revoked";
  { std::ofstream(file) << nonce(1) << " 12"; }  // a writer died mid-line
  RevocationList list(file, std::chrono::hours(24));
  list.revoke(nonce(2));
  RevocationList after_restart(file, std::chrono::hours(24));
  EXPECT_TRUE(after_restart.is_revoked(nonce(2)));
}

}  // namespace
}  // namespace hamcp::test
