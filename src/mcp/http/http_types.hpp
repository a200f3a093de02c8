#pragma once
// The HTTP exchange as the MCP transports see it, free of Beast so the
// protocol logic compiles quickly and reads plainly. The Beast listener
// (http_listener.cpp) parses requests into HttpRequest and implements
// ResponseWriter on its socket.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp/json.hpp"

namespace hamcp::mcp::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // as sent: "/mcp?x=1"
  std::string path;    // "/mcp"
  std::string query;   // "x=1"
  Headers headers;     // names lower-cased, in arrival order
  std::string body;
  bool keep_alive = true;
  // The OAuth user who sent it (set once the access token is checked); empty: none.
  std::string principal;

  // First value of a header (name lower-case), nullopt if absent.
  std::optional<std::string_view> header(std::string_view lower_name) const;
  // Value of one query parameter (not percent-decoded: our ids need none).
  std::optional<std::string> query_param(std::string_view name) const;
};

struct HttpResponse {
  unsigned status = 200;
  Headers headers;
  std::string body;

  HttpResponse& set(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
  }
  static HttpResponse json(unsigned status, const json::value& body);
  static HttpResponse text(unsigned status, std::string body);
  // {"jsonrpc":"2.0","error":{"code":code,"message":message},"id":null}
  static HttpResponse rpc_error(unsigned status, int code, std::string_view message);
};

// Where a handler writes its answer: either one complete response, or a
// streamed (chunked) body such as SSE. Implemented by the connection; every
// call happens on the connection's executor, from the handler's coroutine.
class ResponseWriter {
 public:
  virtual ~ResponseWriter() = default;
  virtual asio::awaitable<void> send(HttpResponse response) = 0;
  // Sends the status line and headers of a chunked body. False if the peer is gone.
  virtual asio::awaitable<bool> begin_stream(HttpResponse head) = 0;
  // One piece of the body. False once the peer is gone (then stop writing).
  virtual asio::awaitable<bool> write(std::string_view chunk) = 0;
  virtual asio::awaitable<void> end_stream() = 0;
  // Long-lived streams (GET SSE): start watching for the peer closing the
  // connection; `on_gone` runs on the connection's executor when it does. The
  // connection is closed after such a stream instead of being kept alive.
  virtual void watch_peer(std::function<void()> on_gone) = 0;
  // True once the server is shutting down: long streams should end.
  virtual bool stopping() const = 0;
  // The connection's executor (for timers of the handler).
  virtual asio::any_io_executor executor() const = 0;
};

using HttpHandler = std::function<asio::awaitable<void>(HttpRequest&, ResponseWriter&)>;

struct Accepts {
  bool json = false, sse = false;
};
// Parses an Accept header. Absent = anything (HTTP semantics).
Accepts parse_accept(std::optional<std::string_view> accept);
// Whether a Content-Type (or Accept item) names `type` (lower case), parameters
// and blanks aside, in any letter case: "Application/JSON; charset=utf-8".
bool is_media_type(std::string_view content_type, std::string_view type);
// The head of an SSE response (200, text/event-stream, no caching or buffering).
HttpResponse sse_head();

}  // namespace hamcp::mcp::http
