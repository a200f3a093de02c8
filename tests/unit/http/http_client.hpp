#pragma once
// A small blocking HTTP/1.1 client for the transport tests (Beast stays in
// http_client.cpp). Every call is bounded by a timeout so a broken server
// fails a test instead of hanging it.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hamcp::test {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct HttpReply {
  unsigned status = 0;                         // 0 = no answer (connection failed or timed out)
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
  bool has_header(const std::string& lower_name) const { return headers.count(lower_name) != 0; }
};

struct SseEvent {
  std::string id, event, data;
};

// One keep-alive connection; requests are sent one after another.
class HttpConnection {
 public:
  explicit HttpConnection(std::uint16_t port, std::string host = "127.0.0.1");
  ~HttpConnection();
  HttpReply request(const std::string& method, const std::string& target, const HeaderList& headers,
                    const std::string& body = {}, std::chrono::milliseconds timeout = std::chrono::milliseconds(10000));
  bool is_open() const;
  // Writes raw bytes (slow/malformed clients) and returns what comes back until
  // the server closes or `timeout` passes.
  std::string raw_exchange(const std::string& bytes, std::chrono::milliseconds timeout);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One request on a fresh connection.
HttpReply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                       const HeaderList& headers, const std::string& body = {},
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(10000));

// A request whose answer is read incrementally (SSE). If the answer is not a
// stream, body() has it in full.
class SseStream {
 public:
  SseStream(std::uint16_t port, const std::string& method, const std::string& target, const HeaderList& headers,
            const std::string& body = {});
  ~SseStream();
  unsigned status() const;
  std::string header(const std::string& lower_name) const;
  // Next event (comment lines skipped); nullopt on timeout or end of stream.
  std::optional<SseEvent> next(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
  // True once the server ended the body.
  bool ended() const;
  std::string body(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
  // Number of ": comment" lines seen so far (keep-alives).
  int comments() const;
  void close();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace hamcp::test
