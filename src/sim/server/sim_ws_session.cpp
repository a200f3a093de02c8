// SimServer's WebSocket sessions: the upgrade, the read loop feeding a
// WsConnection, and a writer that coalesces queued frames into arrays the way
// HA's message batching does (when the client asked for it) and applies the
// injected delay.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <vector>

#include "sim/server/sim_server_impl.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim {

namespace websocket = beast::websocket;  // asio, beast, http: sim_server_impl.hpp
using tcp = asio::ip::tcp;

namespace {

struct WsSession : Closable, std::enable_shared_from_this<WsSession> {
  websocket::stream<beast::tcp_stream> ws;
  asio::steady_timer wake;
  std::mutex mu;
  std::deque<std::pair<std::string, bool>> queue;  // (frame, raw: never coalesced)
  bool close_requested = false;
  bool dead = false;
  std::shared_ptr<WsConnection> conn;

  explicit WsSession(beast::tcp_stream stream)
      : ws(std::move(stream)), wake(ws.get_executor(), asio::steady_timer::time_point::max()) {}

  void push(std::string frame, bool raw) {
    {
      std::lock_guard lock(mu);
      queue.emplace_back(std::move(frame), raw);
    }
    std::weak_ptr<WsSession> weak = weak_from_this();
    asio::post(ws.get_executor(), [weak] {
      if (auto self = weak.lock()) self->wake.cancel();
    });
  }
  void push_raw(std::string frame) override { push(std::move(frame), true); }
  bool is_websocket() const override { return true; }
  bool authenticated() const override { return conn && conn->authenticated(); }
  void close_now() override {
    dead = true;
    boost::system::error_code ec;
    beast::get_lowest_layer(ws).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(ws).socket().close(ec);
    wake.cancel();
  }
};

asio::awaitable<void> ws_writer(std::shared_ptr<WsSession> s, SimServer::Impl* impl) {
  for (;;) {
    std::deque<std::pair<std::string, bool>> batch;
    {
      std::lock_guard lock(s->mu);
      batch.swap(s->queue);
    }
    if (s->dead) co_return;
    if (batch.empty()) {
      if (s->close_requested) {
        boost::system::error_code ec;
        websocket::close_reason reason(websocket::close_code::normal);
        co_await s->ws.async_close(reason, asio::redirect_error(asio::use_awaitable, ec));
        co_return;
      }
      s->wake.expires_at(asio::steady_timer::time_point::max());
      boost::system::error_code ec;
      co_await s->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    int delay = impl->delay_ms.load();
    if (delay > 0) {
      asio::steady_timer t(s->ws.get_executor(), std::chrono::milliseconds(delay));
      boost::system::error_code ec;
      co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    bool coalesce = s->conn && s->conn->coalesce();
    std::vector<std::string> frames;
    std::string group;
    std::size_t grouped = 0;
    auto flush_group = [&] {
      if (grouped == 1)
        frames.push_back(group.substr(1));
      else if (grouped > 1)
        frames.push_back(group + "]");
      group.clear();
      grouped = 0;
    };
    for (auto& [frame, raw] : batch) {
      if (raw || !coalesce) {
        flush_group();
        frames.push_back(std::move(frame));
        continue;
      }
      group += grouped == 0 ? "[" : ",";
      group += frame;
      ++grouped;
    }
    flush_group();
    for (auto& frame : frames) {
      if (s->dead) co_return;
      if (frame.empty()) continue;  // the closer's wake-up marker
      boost::system::error_code ec;
      s->ws.text(true);
      co_await s->ws.async_write(asio::buffer(frame), asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        s->dead = true;
        co_return;
      }
    }
  }
}

}  // namespace

asio::awaitable<void> SimServer::Impl::ws_session(beast::tcp_stream stream, http::request<http::string_body> req) {
  auto s = std::make_shared<WsSession>(std::move(stream));
  beast::get_lowest_layer(s->ws).expires_never();
  s->ws.set_option(websocket::stream_base::timeout{std::chrono::seconds(30), websocket::stream_base::none(), false});
  s->ws.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, kSimServerHeader); }));
  s->ws.auto_fragment(false);
  s->ws.read_message_max(std::size_t{16} * 1024 * 1024);
  conns.insert(s.get());
  ++websockets;
  boost::system::error_code ec;
  co_await s->ws.async_accept(req, asio::redirect_error(asio::use_awaitable, ec));
  if (!ec) {
    std::weak_ptr<WsSession> weak = s;
    s->conn = std::make_shared<WsConnection>(
        core,
        [weak](std::string frame) {
          if (auto self = weak.lock()) self->push(std::move(frame), false);
        },
        [weak] {
          if (auto self = weak.lock()) {
            self->close_requested = true;
            self->push_raw(std::string());  // wakes the writer; empty frames are skipped below
          }
        });
    s->push(s->conn->auth_required(), true);
    asio::co_spawn(ioc, ws_writer(s, this), asio::detached);
    for (;;) {
      beast::flat_buffer buffer;
      co_await s->ws.async_read(buffer, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || s->dead) break;
      std::string text = beast::buffers_to_string(buffer.data());
      s->conn->on_message(text);
    }
    s->conn->shutdown();
  }
  s->dead = true;
  s->wake.cancel();
  conns.erase(s.get());
  --websockets;
}

}  // namespace hamcp::sim
