#pragma once
// Internal to src/mcp/http: the MCP HTTP server's sessions and the budgets
// they draw on, shared by its parts (http_server.hpp): the router, Streamable
// HTTP (streamable_http.hpp) and legacy SSE (legacy_sse.hpp). Also the reply
// channels and run_on(), the one way transport code reaches the mcp::Server.
// Not part of the public API.

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <unordered_map>

#include "common/isolated_await.hpp"
#include "mcp/http/access_policy.hpp"
#include "mcp/http/admission.hpp"
#include "mcp/http/buffer_budget.hpp"
#include "mcp/http/event_stream.hpp"
#include "mcp/http/http_server.hpp"
#include "mcp/param_headers.hpp"

namespace hamcp::mcp::http {

template <class F>
asio::awaitable<std::invoke_result_t<F&>> call_as_coroutine(F f) {
  if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
    f();
    co_return;
  } else {
    co_return f();
  }
}

// Runs `f` on `ex` (the mcp::Server's executor) and resumes the caller with its
// result: the one way transport code touches Server and Session objects. `f`
// must own what it uses (captures by value): a cancelled caller stops waiting
// and `f` still runs (common/isolated_await.hpp says why).
template <class F>
asio::awaitable<std::invoke_result_t<F&>> run_on(asio::any_io_executor ex, F f) {
  using R = std::invoke_result_t<F&>;
  auto work = call_as_coroutine(std::move(f));
  auto isolated = common::isolated_await<R>(ex, std::move(work));
  co_return co_await std::move(isolated);
}

// The reply channel of one POST: messages go into its EventStream; close()
// completes the stream and releases the in-flight slots.
class StreamChannel final : public Channel {
 public:
  StreamChannel(std::shared_ptr<EventStream> stream, std::function<void()> on_close)
      : stream_(std::move(stream)), on_close_(std::move(on_close)) {}
  ~StreamChannel() override { release(); }
  void send(json::value message) override { stream_->push(message); }
  void send_text(std::string text, const json::value& shape) override { stream_->push_text(std::move(text), shape); }
  // A subscriptions/listen stream (2026-07-28) is a POST stream: same back-pressure.
  bool congested() const override { return stream_->congested(); }
  void close() override {
    stream_->finish();
    release();
  }
  bool release_connection() override { return stream_->request_release(); }

 private:
  void release() {
    if (auto f = std::exchange(on_close_, nullptr)) f();
  }
  std::shared_ptr<EventStream> stream_;
  std::function<void()> on_close_;
};

// Unsolicited messages (standalone GET stream, legacy SSE stream): close() is
// per exchange and must not end the stream.
class PersistentChannel final : public Channel {
 public:
  explicit PersistentChannel(std::shared_ptr<EventStream> stream) : stream_(std::move(stream)) {}
  void send(json::value message) override { stream_->push(message); }
  void send_text(std::string text, const json::value& shape) override { stream_->push_text(std::move(text), shape); }
  bool is_open() const override { return true; }
  // No reader, or one that does not read: resources/updated wait in the session.
  bool congested() const override { return stream_->congested(); }

 private:
  std::shared_ptr<EventStream> stream_;
};

// For POSTs that carry only notifications/responses: nothing is ever sent.
class NullChannel final : public Channel {
 public:
  void send(json::value) override {}
  void send_text(std::string, const json::value&) override {}
};

// The sessions of the HTTP server: signed-id sessions (SessionRegistry),
// legacy SSE sessions, the calls-in-flight budget and the response-memory
// account.
//
// Threading: thread-safe, called from any connection's executor. mcp::Server and
// mcp::Session objects are only touched on server_ex (run_on, deliver,
// shutdown_session); the registry and the legacy map have their own mutexes;
// the budgets are atomic.
class SessionHost : public std::enable_shared_from_this<SessionHost> {
 public:
  SessionHost(Server& server, asio::any_io_executor io, const HttpServerOptions& opts);

  // Loads (or creates) the session key in opts.data_dir and opens the registry.
  void open_registry();
  SessionRegistry* registry() const { return registry_.get(); }
  std::size_t calls_in_flight() const { return calls_.in_flight(); }
  std::size_t buffered_bytes() const { return buffers_->used(); }

  // Transport state with its own memory account under the global one.
  std::shared_ptr<HttpSession> new_http_session(std::string key, std::string protocol_version);
  // A fresh, uninitialized session (initialize, legacy GET). Not registered yet.
  // `read_only`: made on the read-only endpoint (Session::make_read_only).
  asio::awaitable<std::shared_ptr<HttpSession>> create_session(
      std::string key, std::string_view protocol_version = kLatestProtocolVersion, bool read_only = false,
      std::string principal = {});
  // In-memory state of a valid token, rebuilt if needed; nullptr when the
  // live-session cap refuses the rebuild (send sessions_full()).
  asio::awaitable<std::shared_ptr<HttpSession>> materialize(const SessionTokenPayload& payload,
                                                            std::shared_ptr<HttpSession> live);
  // A session for one stateless POST (no id), initialized from the request.
  asio::awaitable<std::shared_ptr<HttpSession>> stateless_session(std::string protocol_version, bool initialize,
                                                                  bool read_only = false, std::string principal = {});
  // `principal`: the OAuth user of the request (SessionInfo::principal), set on
  // the session before it reads the message; the caller checked bind_principal.
  void deliver(const std::shared_ptr<HttpSession>& hs, json::value message, std::shared_ptr<Channel> reply,
               std::string principal = {});
  // The tool's x-mcp-header annotations (SEP-2243), read on the server's
  // executor; empty for an unknown tool (the session answers that call).
  asio::awaitable<std::vector<modern::ParamHeader>> param_headers(std::string tool_name);
  // 403 for a request using a session another OAuth user owns.
  static HttpResponse other_users_session();
  void shutdown_session(std::shared_ptr<HttpSession> hs);
  // The session `key` is over for good (DELETE, a legacy SSE stream ended):
  // as shutdown_session, and Server::end_sessions ends its tasks. `hs` may be
  // nullptr (its in-memory state was evicted).
  void end_session(std::shared_ptr<HttpSession> hs, std::string key);

  // nullopt when `calls` more calls may start on `hs`; else the refusal to send
  // (413 batch too large, 429 session busy, 503 server busy).
  std::optional<HttpResponse> take_calls(HttpSession& hs, std::size_t calls);
  // The reply channel of one POST into `stream`; closing it gives `calls` back.
  std::shared_ptr<Channel> reply_channel(const std::shared_ptr<HttpSession>& hs, std::shared_ptr<EventStream> stream,
                                         std::size_t calls);
  // A closer that gives `calls` back (legacy replies).
  std::function<void()> give_back(const std::shared_ptr<HttpSession>& hs, std::size_t calls);
  // Whether one more session may become live (a new one, a rebuilt one, a
  // legacy SSE one); if not, sessions_full() is the 503 naming --max-sessions.
  bool session_room();
  HttpResponse sessions_full();

  // Legacy SSE sessions live exactly as long as their stream.
  void add_legacy(const std::string& key, std::shared_ptr<HttpSession> hs);
  void remove_legacy(const std::string& key);
  std::shared_ptr<HttpSession> find_legacy(const std::string& key);

  // Idle in-memory state eviction every opts.sweep_interval, until stop().
  void start_sweeper();
  // Ends the sweeps: posted to the timer's executor, or at once (`now`, when
  // nothing runs it concurrently: the owner's destructor).
  void stop(bool now = false);

 private:
  void sweep();

  Server& server_;
  const asio::any_io_executor server_ex_;
  // Owned by HttpServer::Impl; only read from handlers and start(), which
  // hold the Impl (a reply channel that outlives it only gives calls back).
  const HttpServerOptions& opts_;
  CallBudget calls_;
  std::shared_ptr<BufferAccount> buffers_;  // global response-memory account
  std::unique_ptr<SessionRegistry> registry_;
  std::mutex legacy_mutex_;
  std::unordered_map<std::string, std::shared_ptr<HttpSession>> legacy_;
  asio::steady_timer sweep_timer_;
  std::atomic<bool> stopping_{false};
};

}  // namespace hamcp::mcp::http
