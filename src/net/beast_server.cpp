#include "net/beast_server.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <list>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "net/guarded_log.hpp"

namespace hamcp::net {
using boost::system::error_code;

namespace {
constexpr auto kAwait = asio::as_tuple(asio::use_awaitable);
}

asio::any_io_executor connection_executor(const asio::any_io_executor& executor, bool one_thread) {
  if (one_thread) return executor;
  if (const auto* io = executor.target<asio::io_context::executor_type>()) return asio::make_strand(*io);
  return asio::make_strand(executor);
}

// Threading: the acceptor, timers and sweeps on `executor`; the connection
// list and counters are shared with the connections' strands (mutex, atomics).
struct BeastServer::Impl : std::enable_shared_from_this<BeastServer::Impl> {
  asio::any_io_executor executor;
  std::shared_ptr<ServerState> state;
  Factory factory;
  tcp::acceptor acceptor;
  std::mutex mutex;
  std::list<std::weak_ptr<TrackedConnection>> connections;
  std::atomic<std::size_t> refusing{0};  // refusals still being written
  std::atomic<std::chrono::steady_clock::rep> last_shed{0};
  asio::steady_timer grace_timer;
  asio::steady_timer pressure_timer;

  Impl(asio::any_io_executor ex, ServerOptions opts, Factory f)
      : executor(ex),
        state(std::make_shared<ServerState>(std::move(opts))),
        factory(std::move(f)),
        acceptor(ex),
        grace_timer(ex),
        pressure_timer(ex) {}

  asio::awaitable<void> accept_loop();
  void admit(tcp::socket socket, const std::string& client);
  void refuse(tcp::socket socket, ConnectionAdmission::Verdict verdict, const std::string& client);
  void shed_idle();
  void start_pressure_sweeps();
  void sweep_idle();
  unsigned sweep_ticks = 0;  // pressure sweeps so far (250 ms each): every fourth is an idle sweep
  void load_tls();
  void listen();
  void track(const std::shared_ptr<TrackedConnection>& c) {
    std::lock_guard lock(mutex);
    connections.remove_if([](const auto& w) { return w.expired(); });
    connections.push_back(c);
  }
  std::vector<std::shared_ptr<TrackedConnection>> snapshot() {
    std::lock_guard lock(mutex);
    std::vector<std::shared_ptr<TrackedConnection>> out;
    for (auto& w : connections) {
      if (auto c = w.lock()) out.push_back(std::move(c));
    }
    return out;
  }
};

asio::awaitable<void> BeastServer::Impl::accept_loop() {
  auto self = shared_from_this();
  for (;;) {
    auto [ec, socket] =
        co_await acceptor.async_accept(connection_executor(executor, state->options.one_thread), kAwait);
    if (ec) {
      if (state->stopping || ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
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
    const auto verdict = state->admission.admit(client);
    if (verdict != ConnectionAdmission::Verdict::admitted) {
      refuse(std::move(socket), verdict, client);
      continue;
    }
    admit(std::move(socket), client);
  }
}

void BeastServer::Impl::admit(tcp::socket socket, const std::string& client) {
  error_code nec;
  socket.set_option(tcp::no_delay(true), nec);
  auto conn_ex = socket.get_executor();
  auto c = factory(std::move(socket), client, state);  // owns the admission slot from here
  track(c);
  asio::co_spawn(
      conn_ex, [c]() { return c->run(); }, asio::detached);  // the lambda keeps c alive
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
                                    std::shared_ptr<BeastServer::Impl> owner) {
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

void BeastServer::Impl::refuse(tcp::socket socket, ConnectionAdmission::Verdict verdict, const std::string& client) {
  static const std::string kServerFull =
      refusal("503 Service Unavailable", "Server busy: too many open connections; retry after 1 second.\n");
  static const std::string kClientFull = refusal(
      "429 Too Many Requests", "Too many open connections from your address; close idle ones, retry after 1 second.\n");
  const bool server_full = verdict == ConnectionAdmission::Verdict::server_full;
  const auto& admission = state->admission;
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

void BeastServer::Impl::shed_idle() {
  // At most every 100 ms: a flood of refused connections must not turn into a
  // flood of sweeps.
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  auto last = last_shed.load();
  if (now - last < std::chrono::steady_clock::duration(std::chrono::milliseconds(100)).count()) return;
  if (!last_shed.compare_exchange_strong(last, now)) return;
  // Only connections of a client at three quarters of its cap, or all of them
  // when the server is: a well-behaved client elsewhere keeps its keep-alives.
  auto& admission = state->admission;
  const bool global = admission.under_pressure();
  const auto limit = state->options.pressure_idle_timeout;
  for (auto& c : snapshot()) {
    if (!global && !admission.client_under_pressure(c->client())) continue;
    asio::post(c->conn_executor(), [c, limit] { c->shed_if_idle(limit); });
  }
}

void BeastServer::Impl::sweep_idle() {
  for (auto& c : snapshot()) asio::post(c->conn_executor(), [c] { c->close_if_idle_past_deadline(); });
}

void BeastServer::Impl::start_pressure_sweeps() {
  pressure_timer.expires_after(std::chrono::milliseconds(250));
  pressure_timer.async_wait([weak = weak_from_this()](error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->state->stopping) return;
    const auto& a = self->state->admission;
    if (a.total() * 4 >= std::min(a.max_total(), a.max_per_client()) * 3) self->shed_idle();
    if (++self->sweep_ticks % 4 == 0) self->sweep_idle();  // kIdleSweepPeriod
    self->start_pressure_sweeps();
  });
}

void BeastServer::Impl::load_tls() {
  const auto& o = state->options;
  if (o.tls_cert.empty() && o.tls_key.empty()) return;
  if (o.tls_cert.empty() || o.tls_key.empty()) throw std::runtime_error("TLS needs both --tls-cert and --tls-key");
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  error_code ec;
  ctx->use_certificate_chain_file(o.tls_cert, ec);
  if (ec) throw std::runtime_error("cannot load TLS certificate " + o.tls_cert + ": " + ec.message());
  ctx->use_private_key_file(o.tls_key, ssl::context::pem, ec);
  if (ec) throw std::runtime_error("cannot load TLS key " + o.tls_key + ": " + ec.message());
  state->tls = std::move(ctx);
}

void BeastServer::Impl::listen() {
  const auto& o = state->options;
  error_code ec;
  std::string host = o.host;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost") host = "127.0.0.1";
  const auto address = asio::ip::make_address(host, ec);
  if (ec) throw std::runtime_error("invalid --host '" + o.host + "': use an IP address such as 127.0.0.1 or ::1");
  const tcp::endpoint endpoint(address, o.port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    error_code ignored;
    acceptor.close(ignored);
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " + ec.message() +
                             " (choose another --port, or stop the process using it)");
  }
}

BeastServer::BeastServer(asio::any_io_executor executor, ServerOptions options, Factory factory)
    : impl_(std::make_shared<Impl>(executor, std::move(options), std::move(factory))) {}

BeastServer::~BeastServer() {
  error_code ec;
  impl_->state->stopping = true;
  impl_->acceptor.close(ec);
  impl_->pressure_timer.cancel();
}

std::uint16_t BeastServer::start() {
  impl_->load_tls();
  impl_->listen();
  const auto port = impl_->acceptor.local_endpoint().port();
  asio::co_spawn(impl_->executor, impl_->accept_loop(), asio::detached);
  impl_->start_pressure_sweeps();
  return port;
}

void BeastServer::stop(std::chrono::milliseconds grace) {
  auto impl = impl_;
  if (impl->state->stopping.exchange(true)) return;
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

bool BeastServer::tls() const { return impl_->state->tls != nullptr; }
std::size_t BeastServer::connection_count() const { return impl_->state->admission.total(); }

}  // namespace hamcp::net
