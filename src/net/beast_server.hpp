#pragma once
// The one Beast server skeleton of hamcp (issue 9), used by the MCP HTTP
// transport (mcp/http/http_listener) and the simulated Home Assistant
// (sim/server/sim_server): binding, the accept loop, connection admission
// (per-client and global caps, refused with 429/503 + Retry-After before any
// byte is parsed), idle shedding under pressure, and graceful stop. Each
// connection is a TrackedConnection (usually an HttpConnection, see
// http_connection.hpp) running as one coroutine on its own executor: a strand
// of its own, or the server's executor itself when one thread runs it
// (ServerOptions::one_thread).
//
// Threading: start() and the destructor on the owner's thread; stop() from any
// thread. The accept loop and the sweeps run on the executor given; each
// connection on its executor; ServerState is shared by all and thread-safe.

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "net/answer_batching.hpp"
#include "net/connection_admission.hpp"
#include "net/server_options.hpp"

namespace hamcp::net {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;

// What the server and its connections share. Threading: `options` and `tls`
// are fixed before the first accept; everything else is atomic or locked.
struct ServerState {
  explicit ServerState(ServerOptions o)
      : options(std::move(o)),
        admission(options.max_connections, options.max_connections_per_client),
        answers(options.one_thread) {}
  const ServerOptions options;
  ConnectionAdmission admission;
  std::unique_ptr<ssl::context> tls;       // set by start() when both TLS files are given
  std::atomic<std::size_t> body_bytes{0};  // charged for request bodies being read or handled
  std::atomic<bool> stopping{false};
  AnswerBatching answers;  // on the loop's thread; enabled with options.one_thread only
};

// How often the server closes connections whose idle wait it enforces (long
// keep-alive waits: a timer armed and cancelled per request would cost more).
inline constexpr std::chrono::milliseconds kIdleSweepPeriod{1000};

// One live connection as the server sees it. Threading: constructed on the
// connection's executor; run() and every other call happen there (the server
// posts them to conn_executor()).
class TrackedConnection {
 public:
  TrackedConnection(std::shared_ptr<ServerState> state, std::string client)
      : state_(std::move(state)), client_(std::move(client)) {}
  virtual ~TrackedConnection() { state_->admission.release(client_); }  // its admission slot
  TrackedConnection(const TrackedConnection&) = delete;
  TrackedConnection& operator=(const TrackedConnection&) = delete;

  virtual asio::awaitable<void> run() = 0;
  // Stop after the request in progress (close now when idle).
  virtual void request_stop() = 0;
  virtual void force_close() = 0;
  virtual asio::any_io_executor conn_executor() = 0;
  // Under pressure: close if waiting longer than `limit` for a request header.
  virtual void shed_if_idle(std::chrono::milliseconds limit) = 0;
  // The idle sweep (every kIdleSweepPeriod): close if waiting for the next
  // request past a deadline the connection left to the sweep.
  virtual void close_if_idle_past_deadline() {}
  const std::string& client() const { return client_; }

 protected:
  const std::shared_ptr<ServerState> state_;
  const std::string client_;
};

// The executor a new connection runs on: `executor` itself when one thread
// runs it (ServerOptions::one_thread), else a strand of its own. When the
// server runs on an io_context's own executor, the strand wraps that type: a
// strand<io_context::executor_type> fits in any_io_executor's small buffer, a
// strand<any_io_executor> does not, and then every executor copy (each async
// operation's work guard, each handler dispatch) allocates a shared target.
asio::any_io_executor connection_executor(const asio::any_io_executor& executor, bool one_thread);

class BeastServer {
 public:
  // Makes the connection for an admitted socket (on its strand); `state->tls`
  // says whether to speak TLS. The server tracks it and runs it.
  using Factory =
      std::function<std::shared_ptr<TrackedConnection>(tcp::socket, std::string client, std::shared_ptr<ServerState>)>;

  BeastServer(asio::any_io_executor executor, ServerOptions options, Factory factory);
  ~BeastServer();
  BeastServer(const BeastServer&) = delete;
  BeastServer& operator=(const BeastServer&) = delete;

  // Loads TLS files (if set), binds, starts accepting. Returns the bound port.
  // Throws std::runtime_error with the address and the reason.
  std::uint16_t start();
  // Stops accepting, asks every connection to stop (idle ones close at once);
  // requests in progress may finish until `grace` has passed, then every
  // socket closes. Thread-safe; returns at once.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));
  bool tls() const;
  std::size_t connection_count() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::net
