#pragma once
// Internal to src/mcp/http: the state shared by the HTTP server's routing
// (http_server.cpp), Streamable HTTP (streamable_http.cpp) and legacy SSE
// (legacy_sse.cpp). Not part of the public API.

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
  void close() override {
    stream_->finish();
    release();
  }

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

 private:
  std::shared_ptr<EventStream> stream_;
};

// For POSTs that carry only notifications/responses: nothing is ever sent.
class NullChannel final : public Channel {
 public:
  void send(json::value) override {}
  void send_text(std::string, const json::value&) override {}
};

struct Accepts {
  bool json = false, sse = false;
};
// Parses an Accept header. Absent = anything (HTTP semantics).
Accepts parse_accept(std::optional<std::string_view> accept);
// Media type without parameters, lower-case: "application/json".
std::string media_type(std::string_view content_type);

struct HttpServer::Impl : std::enable_shared_from_this<HttpServer::Impl> {
  Impl(Server& s, asio::any_io_executor io, HttpServerOptions o);

  Server& server;
  asio::any_io_executor io;
  asio::any_io_executor server_ex;
  HttpServerOptions opts;
  OriginPolicy origin_policy;
  CallBudget calls;
  std::shared_ptr<BufferAccount> buffers;  // global response-memory account
  std::unique_ptr<SessionRegistry> registry;
  std::unique_ptr<HttpListener> listener;
  std::uint16_t port = 0;
  std::atomic<bool> stopping{false};
  asio::steady_timer sweep_timer;

  std::mutex legacy_mutex;
  std::unordered_map<std::string, std::shared_ptr<HttpSession>> legacy;

  // ---- routing (http_server.cpp)
  asio::awaitable<void> handle(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_healthz(HttpRequest& req, ResponseWriter& w);
  // Transport state with its own memory account under the global one.
  std::shared_ptr<HttpSession> new_http_session(std::string key, std::string protocol_version);
  // nullopt when `calls` more calls may start on `hs`; else the refusal to send
  // (413 batch too large, 429 session busy, 503 server busy).
  std::optional<HttpResponse> take_calls(HttpSession& hs, std::size_t calls);
  // Whether one more session may become live (a new one, a rebuilt one, a
  // legacy SSE one); if not, sessions_full() is the 503 naming --max-sessions.
  bool session_room();
  HttpResponse sessions_full();
  void start_sweeper();
  void sweep();

  // ---- Streamable HTTP (streamable_http.cpp)
  asio::awaitable<void> handle_post(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_get(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_delete(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_stateless_post(HttpRequest& req, ResponseWriter& w, json::value message,
                                              bool is_initialize, bool has_requests, Accepts accepts);
  // A fresh, uninitialized session (initialize). Not registered yet.
  asio::awaitable<std::shared_ptr<HttpSession>> create_session(std::string key);
  // In-memory state of a valid token, rebuilt if needed; nullptr when the
  // live-session cap refuses the rebuild (send refuse_new_session()).
  asio::awaitable<std::shared_ptr<HttpSession>> materialize(const SessionTokenPayload& payload,
                                                            std::shared_ptr<HttpSession> live);
  void deliver(const std::shared_ptr<HttpSession>& hs, json::value message, std::shared_ptr<Channel> reply);
  void shutdown_session(std::shared_ptr<HttpSession> hs);
  // Writes one POST's answer: JSON for a lone response, SSE otherwise.
  asio::awaitable<void> respond(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                const std::shared_ptr<EventStream>& stream, Accepts accepts);
  asio::awaitable<void> respond_initialize(ResponseWriter& w, std::shared_ptr<HttpSession> hs,
                                           const std::shared_ptr<EventStream>& stream, Accepts accepts,
                                           const json::object& params, SessionTokenPayload payload);
  // Streams `stream` from `cursor` as SSE until it finishes, the peer leaves or
  // the server stops. `until_finished` false = the standalone stream (never ends).
  asio::awaitable<void> pump_sse(ResponseWriter& w, const std::shared_ptr<HttpSession>& hs,
                                 const std::shared_ptr<EventStream>& stream, std::uint64_t cursor,
                                 std::shared_ptr<Waiter> waiter, std::shared_ptr<std::atomic<bool>> gone,
                                 bool mark_delivered);
  bool wants_priming(const HttpSession& hs) const;

  // ---- legacy HTTP+SSE (legacy_sse.cpp)
  asio::awaitable<void> handle_legacy_get(HttpRequest& req, ResponseWriter& w);
  asio::awaitable<void> handle_legacy_post(HttpRequest& req, ResponseWriter& w);
};

HttpResponse sse_head();

}  // namespace hamcp::mcp::http
