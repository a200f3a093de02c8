#include "mcp/http/revocation_list.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "common/iso_time.hpp"

namespace hamcp::mcp::http {
namespace fs = std::filesystem;
namespace {

// Below this many lines a file is never rewritten: small files cost nothing.
constexpr std::uint64_t kCompactMinLines = 4096;

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

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

bool valid_nonce_hex(std::string_view s) {
  return s.size() == 32 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// "<nonce> <at>" or nothing (torn or garbage lines are skipped).
bool parse_line(std::string_view line, std::string_view& nonce, std::int64_t& at) {
  const auto space = line.find(' ');
  if (space == std::string_view::npos) return false;
  nonce = line.substr(0, space);
  std::string_view digits = line.substr(space + 1);
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), at);
  return ec == std::errc() && end == digits.data() + digits.size() && valid_nonce_hex(nonce);
}

}  // namespace

RevocationList::RevocationList(fs::path file, std::chrono::seconds retention, std::chrono::milliseconds recheck)
    : file_(std::move(file)), lock_file_(file_.string() + ".lock"), retention_(retention), recheck_(recheck) {
  std::lock_guard lock(mutex_);
  FileLock file_lock(lock_file_);
  map_change_counter();
  changes_seen_ = change_count();
  refresh_locked();
  maybe_compact_locked(true);
}

RevocationList::~RevocationList() {
  if (change_counter_ != nullptr) ::munmap(change_counter_, sizeof(std::uint64_t));
}

// Maps the counter shared by every instance using this file (the caller holds
// the file lock, so two starting processes do not both size it). Without it
// (no room, no mmap on this filesystem) every lookup stats the file.
void RevocationList::map_change_counter() {
  const fs::path path = file_.string() + ".gen";
  Fd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) return;
  if (st.st_size < static_cast<off_t>(sizeof(std::uint64_t)) && ::ftruncate(fd.get(), sizeof(std::uint64_t)) != 0)
    return;
  void* at = ::mmap(nullptr, sizeof(std::uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (at != MAP_FAILED) change_counter_ = static_cast<std::uint64_t*>(at);
}

std::uint64_t RevocationList::change_count() const {
  if (change_counter_ == nullptr) return 0;
  return std::atomic_ref<std::uint64_t>(*change_counter_).load(std::memory_order_acquire);
}

// After this instance changed the file, under the file lock: the other
// instances' next lookups read it. This one has read everything counted up
// to here (it refreshed under the same lock), so it does not read it again.
void RevocationList::bump_change_count() {
  if (change_counter_ != nullptr)
    changes_seen_ = std::atomic_ref<std::uint64_t>(*change_counter_).fetch_add(1, std::memory_order_acq_rel) + 1;
}

void RevocationList::refresh_if_changed_locked() {
  const std::uint64_t changes = change_count();
  const auto now = std::chrono::steady_clock::now();
  if (change_counter_ != nullptr && changes == changes_seen_ && now < next_recheck_) return;
  changes_seen_ = changes;
  next_recheck_ = now + recheck_;
  refresh_locked();
}

void RevocationList::refresh_locked() {
  ++file_checks_;
  struct stat st {};
  Signature sig;
  if (::stat(file_.c_str(), &st) == 0) {
    sig.inode = st.st_ino;
    sig.size = static_cast<std::uint64_t>(st.st_size);
    sig.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  }
  if (sig == seen_) return;
  const bool same_file = sig.inode == seen_.inode && sig.size >= offset_ && seen_.mtime_ns >= 0;
  seen_ = sig;
  if (sig.mtime_ns < 0) {  // no file (yet, or removed)
    revoked_.clear();
    offset_ = lines_ = 0;
    return;
  }
  if (!same_file) {  // first read, or rewritten by a compaction elsewhere
    revoked_.clear();
    offset_ = lines_ = 0;
    ++full_reads_;
  }
  read_from_locked(offset_);
}

// Reads complete lines from `offset` to the end of the file into memory.
void RevocationList::read_from_locked(std::uint64_t offset) {
  Fd fd(::open(file_.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return;
  std::string text;
  char buf[64 * 1024];
  for (;;) {
    const ssize_t n = ::pread(fd.get(), buf, sizeof buf, static_cast<off_t>(offset + text.size()));
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  std::size_t pos = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; pos = nl + 1, nl = text.find('\n', pos)) {
    std::string_view nonce;
    std::int64_t at = 0;
    if (parse_line(std::string_view(text).substr(pos, nl - pos), nonce, at)) revoked_[std::string(nonce)] = at;
    ++lines_;
  }
  offset_ = offset + pos;  // a torn last line is read again once it is complete
}

void RevocationList::revoke(const std::string& nonce_hex) {
  const std::int64_t at = common::now_unix_seconds();
  std::lock_guard lock(mutex_);
  FileLock file_lock(lock_file_);
  refresh_locked();  // other processes' lines first, so offset_ is the end of the file
  Fd fd(::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600));
  if (fd.get() < 0)
    throw std::runtime_error("cannot record revocation in " + file_.string() + ": " + std::strerror(errno));
  struct stat before {};
  ::fstat(fd.get(), &before);
  std::string line = nonce_hex + " " + std::to_string(at) + "\n";
  // A torn line left by a crashed writer must not swallow ours.
  if (static_cast<std::uint64_t>(before.st_size) > offset_) line.insert(line.begin(), '\n');
  const ssize_t n = ::write(fd.get(), line.data(), line.size());
  if (n != static_cast<ssize_t>(line.size()))
    throw std::runtime_error("cannot record revocation in " + file_.string() + ": short write");
  struct stat after {};
  if (::fstat(fd.get(), &after) == 0) {
    seen_ = {static_cast<std::uint64_t>(after.st_ino), static_cast<std::uint64_t>(after.st_size),
             static_cast<std::int64_t>(after.st_mtim.tv_sec) * 1000000000 + after.st_mtim.tv_nsec};
    offset_ = static_cast<std::uint64_t>(after.st_size);
    lines_ += line.front() == '\n' ? 2 : 1;
  }
  revoked_[nonce_hex] = at;
  maybe_compact_locked(false);
  bump_change_count();
}

// Drops expired entries from memory and, when they are most of the file,
// rewrites it from memory. Amortised O(1) per revoke: the scan runs only after
// the file has grown by as many lines as it held live entries.
void RevocationList::maybe_compact_locked(bool force) {
  if (!force && lines_ < next_compaction_check_) return;
  const std::int64_t cutoff = common::now_unix_seconds() - retention_.count();
  std::erase_if(revoked_, [cutoff](const auto& e) { return e.second < cutoff; });
  next_compaction_check_ = std::max<std::uint64_t>(kCompactMinLines, lines_ + revoked_.size());
  const bool worth_it = force ? lines_ > revoked_.size() : lines_ > 2 * revoked_.size();
  if (!worth_it || seen_.mtime_ns < 0) return;
  const fs::path tmp = file_.string() + ".compact";
  std::string text;
  text.reserve(revoked_.size() * 45);
  for (const auto& [nonce, at] : revoked_) text += nonce + " " + std::to_string(at) + "\n";
  {
    Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (fd.get() < 0) return;  // compaction is an optimisation; the old file stays valid
    const bool ok = ::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::fsync(fd.get());
    if (!ok) {
      ::unlink(tmp.c_str());
      return;
    }
  }
  if (::rename(tmp.c_str(), file_.c_str()) != 0) return;
  bump_change_count();
  struct stat st {};
  if (::stat(file_.c_str(), &st) == 0) {
    seen_ = {static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
             static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
    offset_ = static_cast<std::uint64_t>(st.st_size);
    lines_ = revoked_.size();
    next_compaction_check_ = std::max<std::uint64_t>(kCompactMinLines, 2 * lines_);
  }
}

bool RevocationList::is_revoked(const std::string& nonce_hex) {
  std::lock_guard lock(mutex_);
  refresh_if_changed_locked();
  return revoked_.count(nonce_hex) != 0;
}

std::size_t RevocationList::size() {
  std::lock_guard lock(mutex_);
  return revoked_.size();
}

std::uint64_t RevocationList::lines_in_file() {
  std::lock_guard lock(mutex_);
  return lines_;
}

std::uint64_t RevocationList::full_reads() {
  std::lock_guard lock(mutex_);
  return full_reads_;
}

std::uint64_t RevocationList::file_checks() {
  std::lock_guard lock(mutex_);
  return file_checks_;
}

}  // namespace hamcp::mcp::http
