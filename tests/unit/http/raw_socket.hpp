#pragma once
// A bare TCP client for the exhaustion tests: can bind its source address
// (127.0.0.2 is another "client address" on loopback), sends raw bytes and
// reads with a deadline. Blocking POSIX calls, every one bounded.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace hamcp::test {

class RawSocket {
 public:
  RawSocket(std::uint16_t port, const char* source = "127.0.0.1") {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return;
    sockaddr_in src{};
    src.sin_family = AF_INET;
    ::inet_pton(AF_INET, source, &src.sin_addr);
    sockaddr_in dst{};
    dst.sin_family = AF_INET;
    dst.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&src), sizeof src) != 0 ||
        ::connect(fd_, reinterpret_cast<sockaddr*>(&dst), sizeof dst) != 0) {
      close();
    }
  }
  ~RawSocket() { close(); }
  RawSocket(RawSocket&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;

  bool ok() const { return fd_ >= 0; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  bool send(const std::string& bytes) {
    std::size_t off = 0;
    while (fd_ >= 0 && off < bytes.size()) {
      const auto n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<std::size_t>(n);
    }
    return fd_ >= 0;
  }
  // Reads until `until` appears (or the peer closes, or `timeout` passes).
  std::string read_until(const std::string& until, std::chrono::milliseconds timeout) {
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (fd_ >= 0 && out.find(until) == std::string::npos) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      char buf[4096];
      const auto n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
  }
  // True once the server closed the connection (read returns 0 or an error).
  bool closed_by_peer(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (fd_ < 0 || ::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
    char buf[256];
    return ::recv(fd_, buf, sizeof buf, MSG_PEEK) <= 0;
  }

 private:
  int fd_ = -1;
};

// "GET /healthz" with keep-alive: the cheapest request an attacker can hold a
// connection open with.
inline std::string healthz_request() { return "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"; }

// The status code of a raw HTTP response ("HTTP/1.1 429 ..."), 0 if none.
inline unsigned raw_status(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) return 0;
  return static_cast<unsigned>(std::stoul(response.substr(9, 3)));
}

}  // namespace hamcp::test
