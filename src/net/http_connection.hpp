#pragma once
// The per-connection half of the Beast server skeleton (beast_server.hpp): one
// coroutine reads HTTP/1.1 requests one after another (keep-alive) under the
// server's limits and hands each, complete, to on_request():
//  - header: header_timeout for the first request, idle_timeout between
//    requests (pressure_idle_timeout when the server or this client is near its
//    connection cap), max_header_bytes (431); a long idle_timeout is enforced by
//    the server's idle sweep rather than a timer armed and cancelled for every
//    request (~1k instructions and a handler each);
//  - framing: a Transfer-Encoding other than one "chunked", or with a
//    Content-Length, is refused (400; request smuggling);
//  - body: max_body_bytes (413, also before reading when Content-Length says
//    so), the global max_body_bytes_total charged before the body is read
//    (503 + Retry-After), body_timeout, Expect: 100-continue;
//  - a refused request is answered, then the connection lingers briefly
//    (reads and discards) so the close does not reset the answer away;
//  - a handler that throws or answers nothing gets a 500.
// Subclasses answer with write_response() (or take the stream with
// hand_over(), e.g. a WebSocket upgrade). Threading: everything runs on the
// connection's executor.
//
// Stream: beast::tcp_stream or beast::ssl_stream<beast::tcp_stream>; deadlines
// and closing go through the lowest layer when it offers them, so an in-memory
// stream (fuzzing) runs the same loop without timers.
#include <array>
#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <string>

#include "net/beast_server.hpp"
#include "net/guarded_log.hpp"
#include "net/stream_ops.hpp"

namespace hamcp::net {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;

template <class Stream>
class HttpConnection : public TrackedConnection, public std::enable_shared_from_this<HttpConnection<Stream>> {
 public:
  using Request = bhttp::request<bhttp::string_body>;

  template <class... Args>
  HttpConnection(std::shared_ptr<ServerState> state, std::string client, Args&&... args)
      : TrackedConnection(std::move(state), std::move(client)),
        stream_(std::forward<Args>(args)...),
        executor_(stream_.get_executor()) {}

  asio::awaitable<void> run() override;
  void request_stop() override {
    stopping_ = true;
    if (idle_) force_close();
    on_stop();
  }
  void force_close() override {
    if (!handed_over_) close_now(stream_);
  }
  // Kept apart from the stream, which a WebSocket upgrade moves away.
  asio::any_io_executor conn_executor() override { return executor_; }
  void shed_if_idle(std::chrono::milliseconds limit) override {
    if (idle_ && std::chrono::steady_clock::now() - wait_started_ >= limit) force_close();
  }
  void close_if_idle_past_deadline() override {
    if (idle_ && std::chrono::steady_clock::now() >= idle_deadline_) force_close();
  }

 protected:
  static constexpr auto kAwait = asio::as_tuple(asio::use_awaitable);

  // One complete request. Answer it with write_response() (or take the
  // stream: hand_over()). An exception, or no answer, becomes a 500.
  virtual asio::awaitable<void> on_request(Request& request) = 0;
  // The skeleton's own answers (400, 413, 431, 500, 503); the connection
  // closes after them. Default: text/plain with ServerOptions::server_name.
  virtual asio::awaitable<void> send_error(unsigned status, std::string text, bool retry_later = false);
  // request_stop() was called (server stopping): long-lived answers should end.
  virtual void on_stop() {}

  // Writes a complete response with this connection's keep-alive decision:
  // head and body in one send when the socket takes them (no completion
  // handler, no timer), else the rest under the write timeout.
  //
  // Under load (batches of requests, see answer_batching.hpp) the send waits
  // until the handlers already queued on the loop have run, so that the
  // answers of one batch leave together.
  asio::awaitable<bool> write_response(bhttp::response<bhttp::string_body>& res) {
    responded_ = true;
    res.keep_alive(keep_alive_);
    res.prepare_payload();
    std::string head;  // kept for the asynchronous rest
    render_response_head(res.base(), head);
    const std::array<asio::const_buffer, 2> parts{asio::buffer(head), asio::buffer(res.body())};
    if (state_->answers.hold_answers()) {
      auto end_of_batch = asio::post(executor_, asio::use_awaitable);  // named before co_await (GCC 12)
      co_await std::move(end_of_batch);
    }
    boost::system::error_code ec;
    const std::size_t sent = send_at_once(stream_, parts, ec).value_or(0);
    if (!ec && sent < head.size() + res.body().size()) {
      beast::buffers_suffix<std::array<asio::const_buffer, 2>> rest(parts);
      rest.consume(sent);
      expire_after(stream_, options().write_timeout);
      auto writing = asio::async_write(stream_, rest, kAwait);  // named before co_await (GCC 12)
      auto [wec, n] = co_await std::move(writing);
      ec = wec;
    }
    if (ec) mark_peer_gone();
    co_return !ec;
  }
  bool stopping() const { return stopping_ || state_->stopping; }
  // The stream now belongs to someone else (a WebSocket session): the loop
  // ends without touching it.
  void hand_over() {
    handed_over_ = true;
    responded_ = true;
  }
  const ServerOptions& options() const { return state_->options; }
  void mark_peer_gone() {
    peer_gone_ = true;
    keep_alive_ = false;
  }

  Stream stream_;
  const asio::any_io_executor executor_;
  bool keep_alive_ = true;
  bool responded_ = false;
  bool peer_gone_ = false;

 private:
  using Parser = bhttp::request_parser<bhttp::string_body>;
  enum class Step { serve, close, refused };  // refused: answered; linger, then close

  asio::awaitable<bool> handshake();
  asio::awaitable<Step> read_header(Parser& parser, bool first);
  asio::awaitable<Step> check_header(Parser& parser, BodyCharge& charge);
  asio::awaitable<Step> read_body(Parser& parser);
  asio::awaitable<void> serve(Request& request);
  asio::awaitable<void> linger_close();
  asio::awaitable<void> close_gracefully();
  asio::awaitable<void> too_large() {
    std::string text = "Request body too large (limit " + std::to_string(options().max_body_bytes) + " bytes)\n";
    co_await send_error(413, std::move(text));  // named: no temporaries in a co_await (GCC 12)
  }
  // How long to wait for the next request header: shorter under pressure.
  std::chrono::milliseconds header_wait(bool first) const {
    const auto& o = options();
    const auto normal = first ? o.header_timeout : o.idle_timeout;
    const bool pressure = state_->admission.under_pressure() || state_->admission.client_under_pressure(client_);
    return pressure ? std::min(normal, o.pressure_idle_timeout) : normal;
  }
  // `swept`: the deadline is left to the server's idle sweep, which closes the
  // connection within one sweep period after it (for waits of two periods and
  // more: the keep-alive idle_timeout, 300 s by default).
  void begin_idle(std::chrono::milliseconds wait, bool swept = false) {
    wait_started_ = std::chrono::steady_clock::now();
    if (swept) {
      expire_never(stream_);
      idle_deadline_ = wait_started_ + wait;
    } else {
      expire_after(stream_, wait);
      idle_deadline_ = std::chrono::steady_clock::time_point::max();
    }
    idle_ = true;
  }

  // Feeds the bytes already read to the parser; need_more is not an error.
  boost::system::error_code parse_buffered(Parser& parser) {
    boost::system::error_code ec;
    while (!parser.is_done() && buffer_.size() > 0) {
      const std::size_t used = parser.put(buffer_.data(), ec);
      buffer_.consume(used);
      if (ec == bhttp::error::need_more) return {};
      if (ec || used == 0) break;
    }
    return ec;
  }

  beast::flat_buffer buffer_;
  std::chrono::steady_clock::time_point wait_started_{};
  std::chrono::steady_clock::time_point idle_deadline_ = std::chrono::steady_clock::time_point::max();
  bool idle_ = false;
  bool stopping_ = false;
  bool handed_over_ = false;
};

template <class Stream>
asio::awaitable<void> HttpConnection<Stream>::run() {
  if (!co_await handshake()) co_return;
  bool first = true;
  while (!stopping()) {
    Parser parser;
    parser.body_limit(options().max_body_bytes);
    parser.header_limit(static_cast<std::uint32_t>(options().max_header_bytes));
    Step step = co_await read_header(parser, first);
    BodyCharge charge(state_->body_bytes);
    if (step == Step::serve) step = co_await check_header(parser, charge);
    if (step == Step::serve) step = co_await read_body(parser);
    if (step == Step::refused) {
      co_await linger_close();
      co_return;
    }
    if (step == Step::close) break;
    Request request = parser.release();
    if (state_->answers.begin_request()) asio::post(executor_, [state = state_] { state->answers.end_batch(); });
    co_await serve(request);
    if (handed_over_) co_return;
    if (!keep_alive_ || peer_gone_) break;
    first = false;
  }
  co_await close_gracefully();
}

template <class Stream>
asio::awaitable<bool> HttpConnection<Stream>::handshake() {
  if constexpr (is_tls_stream<Stream>::value) {
    begin_idle(header_wait(true));  // nothing useful happens before the handshake: shed like an idle wait
    auto [ec] = co_await stream_.async_handshake(ssl::stream_base::server, kAwait);
    idle_ = false;
    co_return !ec;
  }
  co_return true;
}

template <class Stream>
asio::awaitable<typename HttpConnection<Stream>::Step> HttpConnection<Stream>::read_header(Parser& parser, bool first) {
  const std::chrono::milliseconds wait = header_wait(first);
  begin_idle(wait, !first && wait >= 2 * kIdleSweepPeriod);
  auto [ec, n] = co_await bhttp::async_read_header(stream_, buffer_, parser, kAwait);
  idle_ = false;
  if (ec == bhttp::error::body_limit) {  // Content-Length above the limit, seen with the header
    co_await too_large();
    co_return Step::refused;
  }
  if (ec == bhttp::error::header_limit) {
    co_await send_error(431, "Request header fields too large\n");
    co_return Step::close;
  }
  if (ec && ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category() &&
      ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message) {
    // A request Beast refuses to frame (e.g. chunked with Content-Length): say so.
    std::string text = "Bad Request: " + ec.message() + "\n";
    co_await send_error(400, std::move(text));
    co_return Step::close;
  }
  if (ec) {  // EOF, timeout, reset: nothing useful to answer
    spdlog::debug("http: connection closed while reading a request header: {}", ec.message());
    co_return Step::close;
  }
  co_return Step::serve;
}

template <class Stream>
asio::awaitable<typename HttpConnection<Stream>::Step> HttpConnection<Stream>::check_header(Parser& parser,
                                                                                            BodyCharge& charge) {
  const auto& o = options();
  responded_ = false;
  keep_alive_ = parser.get().keep_alive();
  if (const std::string bad = bad_framing(parser.get()); !bad.empty()) {
    std::string text = "Bad Request: " + bad + "\n";
    co_await send_error(400, std::move(text));
    co_return Step::refused;
  }
  if (const auto len = parser.content_length(); len && *len > o.max_body_bytes) {
    co_await too_large();
    co_return Step::refused;
  }
  const std::size_t body_size = parser.chunked() ? o.max_body_bytes : parser.content_length().value_or(0);
  if (!charge.take(body_size, o.max_body_bytes_total)) {
    guarded_warn("http: refused a {}-byte request body: {} bytes of bodies in progress (limit {}, 503)", body_size,
                 state_->body_bytes.load(), o.max_body_bytes_total);
    std::string text = "Service Unavailable: request bodies in progress exceed " +
                       std::to_string(o.max_body_bytes_total >> 20) +
                       " MiB in all (limit); retry shortly, or raise --max-request-mb\n";
    co_await send_error(503, std::move(text), true);
    co_return Step::refused;
  }
  if (beast::iequals(parser.get()[bhttp::field::expect], "100-continue")) {
    bhttp::response<bhttp::empty_body> cont{bhttp::status::continue_, 11};
    expire_after(stream_, o.write_timeout);
    auto [ec, n] = co_await bhttp::async_write(stream_, cont, kAwait);
    if (ec) co_return Step::close;
  }
  co_return Step::serve;
}

template <class Stream>
asio::awaitable<typename HttpConnection<Stream>::Step> HttpConnection<Stream>::read_body(Parser& parser) {
  // The body usually came with the header: parse what is buffered first, and
  // read (under body_timeout) only when more is needed.
  boost::system::error_code ec = parse_buffered(parser);
  if (!ec && !parser.is_done()) {
    expire_after(stream_, options().body_timeout);
    auto [rec, n] = co_await bhttp::async_read(stream_, buffer_, parser, kAwait);
    ec = rec;
  }
  if (ec == bhttp::error::body_limit) {
    co_await too_large();
    co_return Step::refused;
  }
  if (ec) {
    spdlog::debug("http: connection closed while reading a request body: {}", ec.message());
    co_return Step::close;
  }
  expire_never(stream_);
  co_return Step::serve;
}

template <class Stream>
asio::awaitable<void> HttpConnection<Stream>::serve(Request& request) {
  bool failed = false;
  try {
    co_await on_request(request);
  } catch (const std::exception& e) {
    const std::string_view target = request.target();
    guarded_log(spdlog::level::err, "http: handler failed for {} {}: {}", printable(request.method_string(), 16),
                printable(target.substr(0, target.find('?'))), printable(e.what(), 400));
    failed = true;
  }
  if (handed_over_) co_return;
  if (failed) {
    if (!responded_) co_await send_error(500, "Internal server error\n");
    keep_alive_ = false;
  }
  if (!responded_) co_await send_error(500, "No response\n");
}

template <class Stream>
asio::awaitable<void> HttpConnection<Stream>::send_error(unsigned status, std::string text, bool retry_later) {
  keep_alive_ = false;
  bhttp::response<bhttp::string_body> res{static_cast<bhttp::status>(status), 11};
  res.set(bhttp::field::content_type, "text/plain; charset=utf-8");
  if (retry_later) res.set(bhttp::field::retry_after, "1");
  res.set(bhttp::field::server, options().server_name);
  res.body().swap(text);  // not a move: clang-tidy reads the co_await below as unsequenced with it
  co_await write_response(res);
}

// After refusing a request whose body we did not read: stop sending, then
// read and discard for a moment, so closing does not reset the connection
// (a reset can destroy the error response before the client reads it).
template <class Stream>
asio::awaitable<void> HttpConnection<Stream>::linger_close() {
  if constexpr (!is_tls_stream<Stream>::value) shutdown_send(stream_);
  std::array<char, 16384> sink;
  std::size_t total = 0;
  expire_after(stream_, std::chrono::seconds(2));
  while (total < (64u << 20)) {
    auto [ec, n] = co_await stream_.async_read_some(asio::buffer(sink), kAwait);
    if (ec) break;
    total += n;
  }
  close_now(stream_);
}

// TLS close_notify (bounded), then TCP.
template <class Stream>
asio::awaitable<void> HttpConnection<Stream>::close_gracefully() {
  if constexpr (is_tls_stream<Stream>::value) {
    if (!peer_gone_) {
      expire_after(stream_, std::chrono::seconds(2));
      auto [ec] = co_await stream_.async_shutdown(kAwait);
      (void)ec;
    }
  }
  shutdown_send(stream_);
  close_now(stream_);
}

}  // namespace hamcp::net
