#pragma once
// MCP over stdio: newline-delimited JSON-RPC on a pair of file descriptors
// (stdin/stdout by default). One session for the process lifetime.
//
// - Only protocol messages are written to the output fd, through one ordered
//   queue (all on the server's executor), batched into as few writes as possible.
// - Requests run concurrently (the Session spawns one coroutine per request).
// - A malformed line is answered with -32700 (or -32600) and id null; a line
//   longer than max_line_bytes is answered with -32600 and skipped; reading goes on.
// - EOF on input: in-flight requests get eof_grace to finish, then are
//   cancelled; run() returns once the output is flushed. stop() (SIGTERM/SIGINT)
//   cancels at once.

#include <chrono>
#include <cstddef>
#include <memory>

#include "mcp/json.hpp"
#include "mcp/server.hpp"

namespace hamcp::mcp {

struct StdioOptions {
  int input_fd = 0;   // dup()ed: the caller keeps its own descriptor
  int output_fd = 1;  // dup()ed
  std::size_t max_line_bytes = std::size_t{16} * 1024 * 1024;
  std::chrono::milliseconds eof_grace{2000};
};

class StdioTransport {
 public:
  StdioTransport(Server& server, StdioOptions options = {});
  ~StdioTransport();
  StdioTransport(const StdioTransport&) = delete;
  StdioTransport& operator=(const StdioTransport&) = delete;

  // Serves until EOF or stop(); returns after the session is shut down and all
  // queued output is written (or the output is gone).
  asio::awaitable<void> run();
  // Cancel in-flight work and finish run(). Safe to call from a signal_set handler.
  void stop();

  const std::shared_ptr<Session>& session() const { return session_; }

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
  std::shared_ptr<Session> session_;
};

}  // namespace hamcp::mcp
