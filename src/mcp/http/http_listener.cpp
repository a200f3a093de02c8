#include "mcp/http/http_listener.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <list>
#include <mutex>
#include <stdexcept>

#include "common/ascii.hpp"
#include "mcp/http/guarded_log.hpp"

namespace hamcp::mcp::http {
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {
constexpr auto kAwait = asio::as_tuple(asio::use_awaitable);
}

// What the listener needs to reach each live connection (stop, force-close).
class ConnectionBase {
 public:
  virtual ~ConnectionBase() = default;
  virtual void request_stop() = 0;  // posted to the connection's strand by the caller
  virtual void force_close() = 0;
  virtual asio::any_io_executor conn_executor() = 0;
  // Under pressure: close if waiting longer than `limit` for a request header.
  virtual void shed_if_idle(std::chrono::milliseconds limit) = 0;
  virtual const std::string& client() const = 0;
};

struct HttpListener::Impl : std::enable_shared_from_this<HttpListener::Impl> {
  asio::any_io_executor executor;
  ListenerOptions options;
  HttpHandler handler;
  tcp::acceptor acceptor;
  std::unique_ptr<ssl::context> tls;
  std::mutex mutex;
  std::list<std::weak_ptr<ConnectionBase>> connections;
  ConnectionAdmission admission;
  std::atomic<std::size_t> refusing{0};    // refusals still being written
  std::atomic<std::size_t> body_bytes{0};  // charged for bodies being read or handled
  std::atomic<std::chrono::steady_clock::rep> last_shed{0};
  std::atomic<bool> stopping{false};
  asio::steady_timer grace_timer;
  asio::steady_timer pressure_timer;

  Impl(asio::any_io_executor ex, ListenerOptions opts, HttpHandler h)
      : executor(ex),
        options(std::move(opts)),
        handler(std::move(h)),
        acceptor(ex),
        admission(options.max_connections, options.max_connections_per_client),
        grace_timer(ex),
        pressure_timer(ex) {}

  asio::awaitable<void> accept_loop();
  void admit(tcp::socket socket, const std::string& client);
  void refuse(tcp::socket socket, ConnectionAdmission::Verdict verdict, const std::string& client);
  void shed_idle();
  void start_pressure_sweeps();
  void track(const std::shared_ptr<ConnectionBase>& c) {
    std::lock_guard lock(mutex);
    connections.remove_if([](const auto& w) { return w.expired(); });
    connections.push_back(c);
  }
  std::vector<std::shared_ptr<ConnectionBase>> snapshot() {
    std::lock_guard lock(mutex);
    std::vector<std::shared_ptr<ConnectionBase>> out;
    for (auto& w : connections) {
      if (auto c = w.lock()) out.push_back(std::move(c));
    }
    return out;
  }
};

namespace {

template <class Stream>
auto& lowest(Stream& s) {
  return beast::get_lowest_layer(s);
}

template <class Stream>
class Connection final : public ConnectionBase,
                         public ResponseWriter,
                         public std::enable_shared_from_this<Connection<Stream>> {
 public:
  template <class... Args>
  Connection(std::shared_ptr<HttpListener::Impl> owner, std::string client, Args&&... args)
      : owner_(std::move(owner)), client_(std::move(client)), stream_(std::forward<Args>(args)...) {}
  ~Connection() override { owner_->admission.release(client_); }

  asio::awaitable<void> run();

  // ---- ConnectionBase
  void request_stop() override {
    stopping_ = true;
    if (idle_) force_close();
    fire_gone();
  }
  void force_close() override {
    error_code ec;
    lowest(stream_).socket().shutdown(tcp::socket::shutdown_both, ec);
    lowest(stream_).socket().close(ec);
  }
  asio::any_io_executor conn_executor() override { return stream_.get_executor(); }
  void shed_if_idle(std::chrono::milliseconds limit) override {
    if (idle_ && std::chrono::steady_clock::now() - wait_started_ >= limit) force_close();
  }
  const std::string& client() const override { return client_; }

  // ---- ResponseWriter
  asio::awaitable<void> send(HttpResponse response) override;
  asio::awaitable<bool> begin_stream(HttpResponse head) override;
  asio::awaitable<bool> write(std::string_view chunk) override;
  asio::awaitable<void> end_stream() override;
  void watch_peer(std::function<void()> on_gone) override;
  bool stopping() const override { return stopping_ || owner_->stopping; }
  asio::any_io_executor executor() const override { return const_cast<Stream&>(stream_).get_executor(); }

 private:
  void fire_gone() {
    if (auto f = std::exchange(on_gone_, nullptr)) f();
  }
  template <class Message>
  void apply_headers(Message& m, const Headers& headers) {
    for (const auto& [name, value] : headers) m.insert(name, value);
    m.set(bhttp::field::server, "hamcp");
  }
  asio::awaitable<void> send_error(unsigned status, std::string text) {
    keep_alive_ = false;
    auto r = HttpResponse::text(status, std::move(text));
    co_await send(std::move(r));
  }

  // After refusing a request whose body we did not read: stop sending, then
  // read and discard for a moment, so closing does not reset the connection
  // (a reset can destroy the error response before the client reads it).
  asio::awaitable<void> linger_close() {
    error_code ec;
    if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
      lowest(stream_).socket().shutdown(tcp::socket::shutdown_send, ec);
    }
    std::array<char, 16384> sink;
    std::size_t total = 0;
    lowest(stream_).expires_after(std::chrono::seconds(2));
    while (total < (64u << 20)) {
      auto [rec, n] = co_await stream_.async_read_some(asio::buffer(sink), kAwait);
      if (rec) break;
      total += n;
    }
    lowest(stream_).close();
  }

  // How long to wait for the next request header: shorter under pressure.
  std::chrono::milliseconds header_wait(bool first) {
    const auto& opts = owner_->options;
    const auto normal = first ? opts.header_timeout : opts.idle_timeout;
    const bool pressure = owner_->admission.under_pressure() || owner_->admission.client_under_pressure(client_);
    return pressure ? std::min(normal, opts.pressure_idle_timeout) : normal;
  }
  // A request whose framing we refuse to guess (request smuggling): a
  // Transfer-Encoding other than "chunked", several of them, or one with a
  // Content-Length. Returns the reason, empty when acceptable.
  std::string bad_framing(const bhttp::request_parser<bhttp::string_body>& parser) {
    const auto& h = parser.get();
    const auto count = h.count(bhttp::field::transfer_encoding);
    if (count == 0) return {};
    if (count > 1) return "several Transfer-Encoding headers";
    std::string_view te = h[bhttp::field::transfer_encoding];
    while (!te.empty() && (te.front() == ' ' || te.front() == '\t')) te.remove_prefix(1);
    while (!te.empty() && (te.back() == ' ' || te.back() == '\t')) te.remove_suffix(1);
    if (!beast::iequals(te, "chunked"))
      return "Transfer-Encoding '" + printable(te, 40) + "' (only chunked is supported)";
    if (h.count(bhttp::field::content_length) != 0) return "both Transfer-Encoding and Content-Length";
    return {};
  }

  std::shared_ptr<HttpListener::Impl> owner_;
  const std::string client_;
  std::chrono::steady_clock::time_point wait_started_{};
  Stream stream_;
  beast::flat_buffer buffer_;
  bool keep_alive_ = true;
  bool idle_ = false;
  bool stopping_ = false;
  bool responded_ = false;
  bool streaming_ = false;
  bool watching_ = false;
  bool peer_gone_ = false;
  std::function<void()> on_gone_;
  std::array<char, 64> watch_buf_{};
};

template <class Stream>
asio::awaitable<void> Connection<Stream>::send(HttpResponse response) {
  responded_ = true;
  bhttp::response<bhttp::string_body> res{static_cast<bhttp::status>(response.status), 11};
  apply_headers(res, response.headers);
  res.keep_alive(keep_alive_);
  res.body() = std::move(response.body);
  res.prepare_payload();
  lowest(stream_).expires_after(owner_->options.write_timeout);
  auto [ec, n] = co_await bhttp::async_write(stream_, res, kAwait);
  if (ec) {
    peer_gone_ = true;
    keep_alive_ = false;
  }
}

template <class Stream>
asio::awaitable<bool> Connection<Stream>::begin_stream(HttpResponse head) {
  responded_ = true;
  streaming_ = true;
  bhttp::response<bhttp::empty_body> res{static_cast<bhttp::status>(head.status), 11};
  apply_headers(res, head.headers);
  res.keep_alive(keep_alive_);
  res.chunked(true);
  bhttp::response_serializer<bhttp::empty_body> sr{res};
  lowest(stream_).expires_after(owner_->options.write_timeout);
  auto [ec, n] = co_await bhttp::async_write_header(stream_, sr, kAwait);
  if (ec) {
    peer_gone_ = true;
    keep_alive_ = false;
  }
  co_return !ec;
}

template <class Stream>
asio::awaitable<bool> Connection<Stream>::write(std::string_view chunk) {
  if (peer_gone_) co_return false;
  if (chunk.empty()) co_return true;  // an empty chunk would end the body
  lowest(stream_).expires_after(owner_->options.write_timeout);
  auto [ec, n] =
      co_await asio::async_write(stream_, bhttp::make_chunk(asio::buffer(chunk.data(), chunk.size())), kAwait);
  if (ec) {
    peer_gone_ = true;
    keep_alive_ = false;
    co_return false;
  }
  co_return true;
}

template <class Stream>
asio::awaitable<void> Connection<Stream>::end_stream() {
  if (peer_gone_) co_return;
  lowest(stream_).expires_after(owner_->options.write_timeout);
  auto [ec, n] = co_await asio::async_write(stream_, bhttp::make_chunk_last(), kAwait);
  if (ec) {
    peer_gone_ = true;
    keep_alive_ = false;
  }
}

template <class Stream>
void Connection<Stream>::watch_peer(std::function<void()> on_gone) {
  on_gone_ = std::move(on_gone);
  keep_alive_ = false;  // a long stream ends the connection
  if (stopping()) {
    fire_gone();
    return;
  }
  if (watching_) return;
  watching_ = true;
  // The client sends nothing while it reads a stream, so any completion here
  // (EOF, reset, stray bytes) means it is gone.
  auto self = this->shared_from_this();
  stream_.async_read_some(asio::buffer(watch_buf_), [self](error_code, std::size_t) {
    self->peer_gone_ = true;
    self->fire_gone();
  });
}

// Bytes of one request body charged to the global budget while the body is
// read and handled; given back when the request is done.
class BodyCharge {
 public:
  explicit BodyCharge(std::atomic<std::size_t>& total) : total_(total) {}
  ~BodyCharge() { total_ -= taken_; }
  BodyCharge(const BodyCharge&) = delete;
  BodyCharge& operator=(const BodyCharge&) = delete;
  bool take(std::size_t bytes, std::size_t cap) {
    if (bytes == 0) return true;
    if (!try_take(total_, bytes, cap)) return false;
    taken_ = bytes;
    return true;
  }

 private:
  std::atomic<std::size_t>& total_;
  std::size_t taken_ = 0;
};

HttpRequest to_request(bhttp::request<bhttp::string_body>& req) {
  HttpRequest out;
  out.method = std::string(req.method_string());
  out.target = std::string(req.target());
  const auto q = out.target.find('?');
  out.path = out.target.substr(0, q);
  if (q != std::string::npos) out.query = out.target.substr(q + 1);
  for (const auto& field : req) out.headers.emplace_back(ascii_lower(field.name_string()), std::string(field.value()));
  out.body = std::move(req.body());
  out.keep_alive = req.keep_alive();
  return out;
}

template <class Stream>
asio::awaitable<void> Connection<Stream>::run() {
  auto& opts = owner_->options;
  if constexpr (!std::is_same_v<Stream, beast::tcp_stream>) {
    lowest(stream_).expires_after(header_wait(true));
    wait_started_ = std::chrono::steady_clock::now();
    idle_ = true;  // nothing useful happens before the handshake: shed like an idle wait
    auto [ec] = co_await stream_.async_handshake(ssl::stream_base::server, kAwait);
    idle_ = false;
    if (ec) co_return;
  }
  bool first = true;
  while (!stopping()) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(opts.max_body_bytes);
    parser.header_limit(static_cast<std::uint32_t>(opts.max_header_bytes));
    lowest(stream_).expires_after(header_wait(first));
    wait_started_ = std::chrono::steady_clock::now();
    idle_ = true;
    auto [hec, hn] = co_await bhttp::async_read_header(stream_, buffer_, parser, kAwait);
    idle_ = false;
    if (hec == bhttp::error::body_limit) {  // Content-Length above the limit, seen with the header
      const std::string text = "Request body too large (limit " + std::to_string(opts.max_body_bytes) + " bytes)\n";
      co_await send_error(413, text);
      co_await linger_close();
      co_return;
    }
    if (hec == bhttp::error::header_limit) {
      co_await send_error(431, "Request header fields too large\n");
      break;
    }
    if (hec && hec.category() == bhttp::make_error_code(bhttp::error::bad_target).category() &&
        hec != bhttp::error::end_of_stream && hec != bhttp::error::partial_message) {
      // A request Beast refuses to frame (e.g. chunked with Content-Length): say so.
      co_await send_error(400, "Bad Request: " + hec.message() + "\n");
      break;
    }
    if (hec) {  // EOF, timeout, reset: nothing useful to answer
      spdlog::debug("http: connection closed while reading a request header: {}", hec.message());
      break;
    }
    responded_ = streaming_ = false;
    keep_alive_ = parser.get().keep_alive();
    if (const std::string bad = bad_framing(parser); !bad.empty()) {
      co_await send_error(400, "Bad Request: " + bad + "\n");
      co_await linger_close();
      co_return;
    }
    if (const auto len = parser.content_length(); len && *len > opts.max_body_bytes) {
      const std::string text = "Request body too large (limit " + std::to_string(opts.max_body_bytes) + " bytes)\n";
      co_await send_error(413, text);
      co_await linger_close();
      co_return;
    }
    BodyCharge body_charge(owner_->body_bytes);
    const std::size_t body_size = parser.chunked() ? opts.max_body_bytes : parser.content_length().value_or(0);
    if (!body_charge.take(body_size, opts.max_body_bytes_total)) {
      guarded_warn("http: refused a {}-byte request body: {} bytes of bodies in progress (limit {}, 503)", body_size,
                   owner_->body_bytes.load(), opts.max_body_bytes_total);
      keep_alive_ = false;
      auto busy = HttpResponse::text(503, "Service Unavailable: request bodies in progress exceed " +
                                              std::to_string(opts.max_body_bytes_total >> 20) +
                                              " MiB in all (limit); retry shortly, or raise --max-request-mb\n");
      busy.set("Retry-After", "1");
      co_await send(std::move(busy));
      co_await linger_close();
      co_return;
    }
    if (beast::iequals(parser.get()[bhttp::field::expect], "100-continue")) {
      bhttp::response<bhttp::empty_body> cont{bhttp::status::continue_, 11};
      lowest(stream_).expires_after(opts.write_timeout);
      auto [cec, cn] = co_await bhttp::async_write(stream_, cont, kAwait);
      if (cec) break;
    }
    lowest(stream_).expires_after(opts.body_timeout);
    auto [bec, bn] = co_await bhttp::async_read(stream_, buffer_, parser, kAwait);
    if (bec == bhttp::error::body_limit) {
      const std::string text = "Request body too large (limit " + std::to_string(opts.max_body_bytes) + " bytes)\n";
      co_await send_error(413, text);
      co_await linger_close();
      co_return;
    }
    if (bec) {
      spdlog::debug("http: connection closed while reading a request body: {}", bec.message());
      break;
    }
    lowest(stream_).expires_never();
    auto msg = parser.release();
    HttpRequest request = to_request(msg);
    bool failed = false;
    try {
      co_await owner_->handler(request, *this);
    } catch (const std::exception& e) {
      guarded_log(spdlog::level::err, "http: handler failed for {} {}: {}", printable(request.method, 16),
                  printable(request.path), printable(e.what(), 400));
      failed = true;
    }
    if (failed) {
      if (!responded_) co_await send_error(500, "Internal server error\n");
      keep_alive_ = false;
    }
    if (!responded_) co_await send_error(500, "No response\n");
    if (!keep_alive_ || peer_gone_) break;
    first = false;
  }
  // Graceful close: TLS close_notify (bounded), then TCP.
  if constexpr (!std::is_same_v<Stream, beast::tcp_stream>) {
    if (!peer_gone_) {
      lowest(stream_).expires_after(std::chrono::seconds(2));
      auto [sec] = co_await stream_.async_shutdown(kAwait);
      (void)sec;
    }
  }
  error_code ec;
  lowest(stream_).socket().shutdown(tcp::socket::shutdown_send, ec);
  lowest(stream_).close();
}

}  // namespace

asio::awaitable<void> HttpListener::Impl::accept_loop() {
  auto self = shared_from_this();
  for (;;) {
    auto [ec, socket] = co_await acceptor.async_accept(asio::make_strand(executor), kAwait);
    if (ec) {
      if (stopping || ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
      // EMFILE and friends: back off briefly instead of spinning or dying.
      guarded_warn("http: accept failed: {}", ec.message());
      shed_idle();
      asio::steady_timer t(executor, std::chrono::milliseconds(100));
      co_await t.async_wait(kAwait);
      continue;
    }
    error_code aec;
    const auto peer = socket.remote_endpoint(aec);
    if (aec) continue;  // already gone
    const std::string client = peer.address().to_string();
    const auto verdict = admission.admit(client);
    if (verdict != ConnectionAdmission::Verdict::admitted) {
      refuse(std::move(socket), verdict, client);
      continue;
    }
    admit(std::move(socket), client);
  }
}

void HttpListener::Impl::admit(tcp::socket socket, const std::string& client) {
  error_code nec;
  socket.set_option(tcp::no_delay(true), nec);
  auto conn_ex = socket.get_executor();
  if (tls) {
    using S = beast::ssl_stream<beast::tcp_stream>;
    auto c = std::make_shared<Connection<S>>(shared_from_this(), client, std::move(socket), *tls);
    track(c);
    asio::co_spawn(
        conn_ex, [c]() { return c->run(); }, asio::detached);  // the lambda keeps c alive
  } else {
    auto c = std::make_shared<Connection<beast::tcp_stream>>(shared_from_this(), client, std::move(socket));
    track(c);
    asio::co_spawn(
        conn_ex, [c]() { return c->run(); }, asio::detached);
  }
}

namespace {
std::string refusal(std::string_view status, std::string_view body) {
  return "HTTP/1.1 " + std::string(status) +
         "\r\nRetry-After: 1\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + std::string(body);
}

// Writes a refusal, then reads (and discards) for a moment before closing, so
// the close does not reset the connection before the client reads the answer.
asio::awaitable<void> write_refusal(tcp::socket accepted, std::string_view text,
                                    std::shared_ptr<HttpListener::Impl> owner) {
  // The deadline's handler shares the socket instead of pointing into this
  // frame: when the timer fires just as the last read completes, cancel() no
  // longer stops the queued handler, and it runs after this frame is gone.
  auto socket = std::make_shared<tcp::socket>(std::move(accepted));
  asio::steady_timer deadline(socket->get_executor(), std::chrono::seconds(2));
  deadline.async_wait([socket](error_code wec) {
    error_code cec;
    if (!wec) socket->close(cec);
  });
  auto [wec, wn] = co_await asio::async_write(*socket, asio::buffer(text), kAwait);
  error_code ec;
  socket->shutdown(tcp::socket::shutdown_send, ec);
  std::array<char, 4096> sink;
  for (int i = 0; !wec && i < 16; ++i) {
    auto [rec, n] = co_await socket->async_read_some(asio::buffer(sink), kAwait);
    if (rec) break;
  }
  deadline.cancel();
  socket->close(ec);
  --owner->refusing;
}
}  // namespace

void HttpListener::Impl::refuse(tcp::socket socket, ConnectionAdmission::Verdict verdict, const std::string& client) {
  static const std::string kServerFull =
      refusal("503 Service Unavailable", "Server busy: too many open connections; retry after 1 second.\n");
  static const std::string kClientFull = refusal(
      "429 Too Many Requests", "Too many open connections from your address; close idle ones, retry after 1 second.\n");
  const bool server_full = verdict == ConnectionAdmission::Verdict::server_full;
  guarded_warn("http: refused a connection from {}: {} (limit {}; --max-connections{})", client,
               server_full ? "too many connections" : "too many connections from this address",
               server_full ? admission.max_total() : admission.max_per_client(), server_full ? "" : "-per-client");
  shed_idle();
  const std::string& text = server_full ? kServerFull : kClientFull;
  // Refusals hold a descriptor for at most 2 s, and only a bounded number of them.
  if (refusing.load() >= 64) {
    error_code ec;
    socket.non_blocking(true, ec);
    asio::write(socket, asio::buffer(text), ec);
    socket.close(ec);
    return;
  }
  ++refusing;
  auto ex = socket.get_executor();
  asio::co_spawn(ex, write_refusal(std::move(socket), text, shared_from_this()), asio::detached);
}

void HttpListener::Impl::shed_idle() {
  // At most every 100 ms: a flood of refused connections must not turn into a
  // flood of sweeps.
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  auto last = last_shed.load();
  if (now - last < std::chrono::steady_clock::duration(std::chrono::milliseconds(100)).count()) return;
  if (!last_shed.compare_exchange_strong(last, now)) return;
  // Only connections of a client at three quarters of its cap, or all of them
  // when the server is: a well-behaved client elsewhere keeps its keep-alives.
  const bool global = admission.under_pressure();
  const auto limit = options.pressure_idle_timeout;
  for (auto& c : snapshot()) {
    if (!global && !admission.client_under_pressure(c->client())) continue;
    asio::post(c->conn_executor(), [c, limit] { c->shed_if_idle(limit); });
  }
}

void HttpListener::Impl::start_pressure_sweeps() {
  pressure_timer.expires_after(std::chrono::milliseconds(250));
  pressure_timer.async_wait([weak = weak_from_this()](error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->stopping) return;
    const auto& a = self->admission;
    if (a.total() * 4 >= std::min(a.max_total(), a.max_per_client()) * 3) self->shed_idle();
    self->start_pressure_sweeps();
  });
}

HttpListener::HttpListener(asio::any_io_executor executor, ListenerOptions options, HttpHandler handler)
    : impl_(std::make_shared<Impl>(executor, std::move(options), std::move(handler))) {}

HttpListener::~HttpListener() {
  error_code ec;
  impl_->stopping = true;
  impl_->acceptor.close(ec);
  impl_->pressure_timer.cancel();
}

std::uint16_t HttpListener::start() {
  auto& o = impl_->options;
  if (!o.tls_cert.empty() || !o.tls_key.empty()) {
    if (o.tls_cert.empty() || o.tls_key.empty()) {
      throw std::runtime_error("TLS needs both --tls-cert and --tls-key");
    }
    auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                     ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    error_code ec;
    ctx->use_certificate_chain_file(o.tls_cert, ec);
    if (ec) throw std::runtime_error("cannot load TLS certificate " + o.tls_cert + ": " + ec.message());
    ctx->use_private_key_file(o.tls_key, ssl::context::pem, ec);
    if (ec) throw std::runtime_error("cannot load TLS key " + o.tls_key + ": " + ec.message());
    impl_->tls = std::move(ctx);
  }
  error_code ec;
  std::string host = o.host;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost") host = "127.0.0.1";
  const auto address = asio::ip::make_address(host, ec);
  if (ec) throw std::runtime_error("invalid --host '" + o.host + "': use an IP address such as 127.0.0.1 or ::1");
  const tcp::endpoint endpoint(address, o.port);
  auto& acc = impl_->acceptor;
  acc.open(endpoint.protocol(), ec);
  if (!ec) acc.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acc.bind(endpoint, ec);
  if (!ec) acc.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " + ec.message() +
                             " (choose another --port, or stop the process using it)");
  }
  const auto port = acc.local_endpoint().port();
  asio::co_spawn(impl_->executor, impl_->accept_loop(), asio::detached);
  impl_->start_pressure_sweeps();
  return port;
}

void HttpListener::stop(std::chrono::milliseconds grace) {
  auto impl = impl_;
  if (impl->stopping.exchange(true)) return;
  asio::post(impl->executor, [impl, grace] {
    error_code ec;
    impl->acceptor.close(ec);
    impl->pressure_timer.cancel();
    for (auto& c : impl->snapshot()) {
      asio::post(c->conn_executor(), [c] { c->request_stop(); });
    }
    impl->grace_timer.expires_after(grace);
    impl->grace_timer.async_wait([impl](error_code) {
      for (auto& c : impl->snapshot()) {
        asio::post(c->conn_executor(), [c] { c->force_close(); });
      }
    });
  });
}

bool HttpListener::tls() const { return impl_->tls != nullptr; }
std::size_t HttpListener::connection_count() const { return impl_->admission.total(); }

}  // namespace hamcp::mcp::http
