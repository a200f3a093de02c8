#include "mcp/http/data_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "mcp/http/session_token.hpp"

namespace hamcp::mcp::http {
namespace fs = std::filesystem;
namespace {

std::runtime_error io_error(const std::string& what, const fs::path& path) {
  return std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno) +
                            " (set --data-dir / HAMCP_DATA_DIR to a writable directory)");
}

std::string read_all(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0 && errno == ELOOP) {
    throw std::runtime_error("secret file " + path.string() +
                             " is a symbolic link, which hamcp never follows; replace it with the file itself");
  }
  if (fd < 0) throw io_error("cannot read", path);
  struct stat st {};
  std::string refusal;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    refusal = "secret file " + path.string() + " is not a regular file; remove it";
  } else if (st.st_uid != ::geteuid()) {
    refusal = "secret file " + path.string() + " belongs to uid " + std::to_string(st.st_uid) +
              ", not to this user (uid " + std::to_string(::geteuid()) + "); remove it or use another --data-dir";
  } else if ((st.st_mode & 077) != 0) {
    refusal = "secret file " + path.string() + " is readable by other users; run: chmod 600 " + path.string();
  }
  if (!refusal.empty()) {
    ::close(fd);
    throw std::runtime_error(refusal);
  }
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      throw io_error("cannot read", path);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace

fs::path resolve_data_dir(std::string_view configured) {
  fs::path dir;
  if (!configured.empty()) {
    dir = fs::path(std::string(configured));
  } else if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg != '\0') {
    dir = fs::path(xdg) / "hamcp";
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    dir = fs::path(home) / ".local" / "state" / "hamcp";
  } else {
    throw std::runtime_error("no data directory: set --data-dir or HAMCP_DATA_DIR (HOME is not set)");
  }
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) {
      throw std::runtime_error("cannot create data directory " + dir.string() + ": " + ec.message() +
                               " (set --data-dir / HAMCP_DATA_DIR to a writable directory)");
    }
    ::chmod(dir.c_str(), 0700);
  }
  check_data_dir(dir);
  return dir;
}

void check_data_dir(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) throw io_error("cannot use data directory", dir);
  if (!S_ISDIR(st.st_mode)) {
    throw std::runtime_error("data directory " + dir.string() +
                             " is not a directory (set --data-dir / HAMCP_DATA_DIR)");
  }
  if (st.st_uid != ::geteuid()) {
    throw std::runtime_error("data directory " + dir.string() + " belongs to uid " + std::to_string(st.st_uid) +
                             ", not to this user (uid " + std::to_string(::geteuid()) +
                             "); use a directory you own (--data-dir / HAMCP_DATA_DIR)");
  }
  if ((st.st_mode & 022) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw std::runtime_error("data directory " + dir.string() + " is writable by other users (mode " + mode +
                             "); run: chmod 700 " + dir.string());
  }
}

SecretFile load_or_create_secret(const fs::path& path, const std::function<std::string()>& generate) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) return SecretFile{read_all(path), false};  // a symlink is refused there

  // Write a private temp file completely, then link() it into place: link fails
  // with EEXIST if another process won the race, and a reader never sees a
  // half-written secret.
  unsigned char rnd[8];
  random_bytes(rnd, sizeof rnd);
  const fs::path tmp = path.string() + ".tmp-" + base64url_encode(rnd, sizeof rnd);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw io_error("cannot create", tmp);
  const std::string secret = generate();
  std::size_t off = 0;
  while (off < secret.size()) {
    const ssize_t n = ::write(fd, secret.data() + off, secret.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      ::unlink(tmp.c_str());
      throw io_error("cannot write", tmp);
    }
    off += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  const int rc = ::link(tmp.c_str(), path.c_str());
  const int link_errno = errno;
  ::unlink(tmp.c_str());
  if (rc == 0) return SecretFile{secret, true};
  if (link_errno != EEXIST) {
    errno = link_errno;
    throw io_error("cannot create", path);
  }
  return SecretFile{read_all(path), false};
}

}  // namespace hamcp::mcp::http
