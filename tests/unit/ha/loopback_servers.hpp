#pragma once
// Tiny loopback servers that reproduce the ways a Home Assistant URL can be
// wrong: plain HTTP, TLS (self-signed, generated here), a port that never
// answers, a closed port. 127.0.0.1 with OS-assigned ports only.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hamcp::ha::testing {

struct StubRequest {
  std::string method;
  std::string target;
  std::string authorization;
  std::string body;
};
struct StubResponse {
  int status = 200;
  std::string body = R"({"message":"API running."})";
  std::string content_type = "application/json";
  bool close = false;
};
using StubHandler = std::function<StubResponse(const StubRequest&)>;

// A self-signed certificate + key, PEM, written to temp files.
struct TestCertificate {
  std::string cert_file;
  std::string key_file;
  std::string cert_pem;
};
TestCertificate make_self_signed(const std::vector<std::string>& dns_names, const std::vector<std::string>& ips);

// HTTP/1.1 server (keep-alive) on 127.0.0.1:0, plain or TLS.
class StubHttpServer {
 public:
  explicit StubHttpServer(StubHandler handler, const TestCertificate* tls = nullptr);
  ~StubHttpServer();
  std::uint16_t port() const;
  std::size_t requests() const;
  std::size_t connections() const;
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Accepts connections and never answers.
class SilentServer {
 public:
  SilentServer();
  ~SilentServer();
  std::uint16_t port() const;
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// A port where nothing listens (bound, then closed).
std::uint16_t closed_port();

}  // namespace hamcp::ha::testing
