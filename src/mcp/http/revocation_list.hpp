#pragma once
// Revoked session ids (DELETE), shared by every hamcp process using the same
// data dir and kept across restarts.
//
// File format: one line per revocation, "<nonce-hex> <unix-seconds>\n",
// appended under an flock so concurrent processes never interleave.
//
// The in-memory map is the truth for this process. When the file grew, only
// the new lines are read (another process's DELETEs), so a DELETE served by one
// process is honoured by all of them at their next request. A lookup checks
// the file only when it may have changed: every instance shares a change
// counter mapped from "<file>.gen", which a revocation or compaction bumps
// after writing, so an unchanged file costs no system call (a stat per request
// was ~6 % of an HTTP tool call). A change made by anything else (an older
// hamcp, an operator's edit, another host on a network filesystem, where a
// mapping is not shared) is seen within `recheck` (1 s), when the file is
// stat'ed anyway; 0 stats it at every lookup, as before.
//
// A DELETE appends its line and moves the read offset past it: no re-parse
// (that was 1.1 -> 9.4 ms per DELETE at 10k entries, on the event loop).
// Entries older than the idle expiry are dropped from memory and the file is
// rewritten (tmp + rename) at start and whenever expired lines make up more
// than half of it: by then those tokens are expired anyway (see
// SessionRegistry for the expiry rule). A rewrite by another process shows as
// a new inode and is read whole, once.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <unordered_map>

namespace hamcp::mcp::http {

class RevocationList {
 public:
  RevocationList(std::filesystem::path file, std::chrono::seconds retention,
                 std::chrono::milliseconds recheck = std::chrono::seconds(1));
  ~RevocationList();
  RevocationList(const RevocationList&) = delete;
  RevocationList& operator=(const RevocationList&) = delete;

  // Persists the revocation (throws std::runtime_error naming the file on I/O errors).
  void revoke(const std::string& nonce_hex);
  bool is_revoked(const std::string& nonce_hex);

  // Observability for tests and benchmarks.
  std::size_t size();             // revocations held in memory
  std::uint64_t lines_in_file();  // lines this process knows the file to hold
  std::uint64_t full_reads();     // times the whole file was parsed
  std::uint64_t file_checks();    // times a lookup or write stat'ed the file

 private:
  struct Signature {
    std::uint64_t inode = 0, size = 0;
    std::int64_t mtime_ns = -1;
    bool operator==(const Signature&) const = default;
  };
  void refresh_locked();
  void refresh_if_changed_locked();
  void map_change_counter();
  std::uint64_t change_count() const;
  void bump_change_count();
  void read_from_locked(std::uint64_t offset);
  void maybe_compact_locked(bool force);

  std::filesystem::path file_;
  std::filesystem::path lock_file_;
  std::chrono::seconds retention_;
  std::chrono::milliseconds recheck_;
  std::mutex mutex_;
  std::uint64_t* change_counter_ = nullptr;  // in the shared mapping; null: stat at every lookup
  std::uint64_t changes_seen_ = 0;           // the counter when the file was last checked
  std::chrono::steady_clock::time_point next_recheck_{};
  std::uint64_t file_checks_ = 0;
  Signature seen_;
  std::uint64_t offset_ = 0;  // bytes of the file consumed (complete lines only)
  std::uint64_t lines_ = 0;   // lines in the file up to offset_
  std::uint64_t next_compaction_check_ = 0;
  std::uint64_t full_reads_ = 0;
  std::unordered_map<std::string, std::int64_t> revoked_;  // nonce hex -> revoked at
};

}  // namespace hamcp::mcp::http
