#pragma once
// Revoked session ids (DELETE), shared by every hamcp process using the same
// data dir and kept across restarts.
//
// File format: one line per revocation, "<nonce-hex> <unix-seconds>\n",
// appended under an flock so concurrent processes never interleave. Each
// lookup stats the file and re-reads it when it changed, so a DELETE served by
// one process is honoured by all of them at their next request. Entries older
// than the idle expiry are dropped when a process starts: by then the token is
// expired anyway (see SessionRegistry for the expiry rule).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <unordered_map>

namespace hamcp::mcp::http {

class RevocationList {
 public:
  RevocationList(std::filesystem::path file, std::chrono::seconds retention);

  // Persists the revocation (throws std::runtime_error naming the file on I/O errors).
  void revoke(const std::string& nonce_hex);
  bool is_revoked(const std::string& nonce_hex);

 private:
  struct Signature {
    std::uint64_t inode = 0, size = 0;
    std::int64_t mtime_ns = -1;
    bool operator==(const Signature&) const = default;
  };
  void refresh_locked();
  void compact();

  std::filesystem::path file_;
  std::filesystem::path lock_file_;
  std::chrono::seconds retention_;
  std::mutex mutex_;
  Signature seen_;
  std::unordered_map<std::string, std::int64_t> revoked_;  // nonce hex -> revoked at
};

}  // namespace hamcp::mcp::http
