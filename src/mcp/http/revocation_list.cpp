#include "mcp/http/revocation_list.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hamcp::mcp::http {
namespace fs = std::filesystem;
namespace {

std::int64_t now_unix() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Holds an exclusive flock on the lock file for its lifetime.
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
    if (fd_ < 0) throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~FileLock() { ::close(fd_); }  // closing releases the lock
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

bool valid_nonce_hex(const std::string& s) {
  if (s.size() != 32) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::unordered_map<std::string, std::int64_t> parse(const fs::path& file) {
  std::unordered_map<std::string, std::int64_t> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string nonce;
    std::int64_t at = 0;
    if (fields >> nonce >> at && valid_nonce_hex(nonce)) out[nonce] = at;  // skip torn/garbage lines
  }
  return out;
}

}  // namespace

RevocationList::RevocationList(fs::path file, std::chrono::seconds retention)
    : file_(std::move(file)), lock_file_(file_.string() + ".lock"), retention_(retention) {
  compact();
  std::lock_guard lock(mutex_);
  refresh_locked();
}

void RevocationList::compact() {
  FileLock lock(lock_file_);
  if (!fs::exists(file_)) return;
  auto entries = parse(file_);
  const std::int64_t cutoff = now_unix() - retention_.count();
  std::size_t dropped = std::erase_if(entries, [cutoff](const auto& e) { return e.second < cutoff; });
  if (dropped == 0) return;
  const fs::path tmp = file_.string() + ".compact";
  {
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;  // compaction is an optimisation; the old file stays valid
    std::string text;
    for (const auto& [nonce, at] : entries) text += nonce + " " + std::to_string(at) + "\n";
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::fsync(fd);
    ::close(fd);
    if (!ok) {
      ::unlink(tmp.c_str());
      return;
    }
  }
  ::rename(tmp.c_str(), file_.c_str());
}

void RevocationList::refresh_locked() {
  struct stat st {};
  Signature sig;
  if (::stat(file_.c_str(), &st) == 0) {
    sig.inode = st.st_ino;
    sig.size = static_cast<std::uint64_t>(st.st_size);
    sig.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  }
  if (sig == seen_) return;
  seen_ = sig;
  if (sig.mtime_ns < 0) {
    revoked_.clear();
    return;
  }
  revoked_ = parse(file_);
}

void RevocationList::revoke(const std::string& nonce_hex) {
  const std::int64_t at = now_unix();
  {
    FileLock lock(lock_file_);
    const int fd = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("cannot record revocation in " + file_.string() + ": " + std::strerror(errno));
    const std::string line = nonce_hex + " " + std::to_string(at) + "\n";
    const ssize_t n = ::write(fd, line.data(), line.size());
    ::close(fd);
    if (n != static_cast<ssize_t>(line.size())) {
      throw std::runtime_error("cannot record revocation in " + file_.string() + ": short write");
    }
  }
  std::lock_guard lock(mutex_);
  revoked_[nonce_hex] = at;
}

bool RevocationList::is_revoked(const std::string& nonce_hex) {
  std::lock_guard lock(mutex_);
  refresh_locked();
  return revoked_.count(nonce_hex) != 0;
}

}  // namespace hamcp::mcp::http
