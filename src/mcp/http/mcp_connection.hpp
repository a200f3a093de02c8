#pragma once
// The MCP connection on the Beast server skeleton (net/http_connection.hpp):
// turns each request into an HttpRequest for the HttpHandler and implements
// ResponseWriter (complete responses and chunked streams such as SSE) on its
// stream. A header (a template over the stream) so that the listener
// instantiates it for TCP and TLS, and the HTTP fuzz target for an in-memory
// stream (tests/fuzz/memory_stream.hpp): the same request path either way.

#include <array>
#include <boost/beast/ssl.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "common/ascii.hpp"
#include "mcp/http/http_types.hpp"
#include "net/http_connection.hpp"

namespace hamcp::mcp::http::detail {
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using boost::system::error_code;

inline HttpRequest to_request(bhttp::request<bhttp::string_body>& req) {
  HttpRequest out;
  out.method = std::string(req.method_string());
  out.target = std::string(req.target());
  const auto q = out.target.find('?');
  out.path = out.target.substr(0, q);
  if (q != std::string::npos) out.query = out.target.substr(q + 1);
  out.headers.reserve(16);
  for (const auto& field : req) out.headers.emplace_back(ascii_lower(field.name_string()), std::string(field.value()));
  out.body = std::move(req.body());
  out.keep_alive = req.keep_alive();
  return out;
}

// Threading: the connection's executor (net::HttpConnection), and so is every
// ResponseWriter call (the handler's coroutine runs there).
template <class Stream>
class Connection final : public net::HttpConnection<Stream>, public ResponseWriter {
  using Base = net::HttpConnection<Stream>;

 public:
  template <class... Args>
  Connection(std::shared_ptr<const HttpHandler> handler, Args&&... args)
      : Base(std::forward<Args>(args)...), handler_(std::move(handler)) {}

  // ---- ResponseWriter
  asio::awaitable<void> send(HttpResponse response) override;
  asio::awaitable<bool> begin_stream(HttpResponse head) override;
  asio::awaitable<bool> write(std::string_view chunk) override;
  asio::awaitable<void> end_stream() override;
  void watch_peer(std::function<void()> on_gone) override;
  bool stopping() const override { return Base::stopping(); }
  asio::any_io_executor executor() const override { return this->executor_; }

 private:
  asio::awaitable<void> on_request(typename Base::Request& request) override {
    HttpRequest converted = to_request(request);
    co_await (*handler_)(converted, *this);
  }
  asio::awaitable<void> send_error(unsigned status, std::string text, bool retry_later) override {
    this->keep_alive_ = false;
    auto r = HttpResponse::text(status, std::move(text));
    if (retry_later) r.set("Retry-After", "1");
    return send(std::move(r));  // not a coroutine itself: `text` is gone before send() starts
  }
  void on_stop() override { fire_gone(); }
  void fire_gone() {
    if (auto f = std::exchange(on_gone_, nullptr)) f();
  }
  template <class Message>
  void apply_headers(Message& m, const Headers& headers) {
    for (const auto& [name, value] : headers) m.insert(name, value);
    m.set(bhttp::field::server, this->options().server_name);
  }
  // A failed write: the peer is gone.
  bool wrote(const error_code& ec) {
    if (ec) this->mark_peer_gone();
    return !ec;
  }

  std::shared_ptr<const HttpHandler> handler_;
  bool watching_ = false;
  std::function<void()> on_gone_;
  std::array<char, 64> watch_buf_{};
};

template <class Stream>
asio::awaitable<void> Connection<Stream>::send(HttpResponse response) {
  bhttp::response<bhttp::string_body> res{static_cast<bhttp::status>(response.status), 11};
  apply_headers(res, response.headers);
  res.body() = std::move(response.body);
  co_await this->write_response(res);
}

template <class Stream>
asio::awaitable<bool> Connection<Stream>::begin_stream(HttpResponse head) {
  this->responded_ = true;
  bhttp::response<bhttp::empty_body> res{static_cast<bhttp::status>(head.status), 11};
  apply_headers(res, head.headers);
  res.keep_alive(this->keep_alive_);
  res.chunked(true);
  bhttp::response_serializer<bhttp::empty_body> sr{res};
  net::expire_after(this->stream_, this->options().write_timeout);
  auto [ec, n] = co_await bhttp::async_write_header(this->stream_, sr, Base::kAwait);
  co_return wrote(ec);
}

template <class Stream>
asio::awaitable<bool> Connection<Stream>::write(std::string_view chunk) {
  if (this->peer_gone_) co_return false;
  if (chunk.empty()) co_return true;  // an empty chunk would end the body
  net::expire_after(this->stream_, this->options().write_timeout);
  auto [ec, n] = co_await asio::async_write(this->stream_, bhttp::make_chunk(asio::buffer(chunk.data(), chunk.size())),
                                            Base::kAwait);
  co_return wrote(ec);
}

template <class Stream>
asio::awaitable<void> Connection<Stream>::end_stream() {
  if (this->peer_gone_) co_return;
  net::expire_after(this->stream_, this->options().write_timeout);
  auto [ec, n] = co_await asio::async_write(this->stream_, bhttp::make_chunk_last(), Base::kAwait);
  wrote(ec);
}

template <class Stream>
void Connection<Stream>::watch_peer(std::function<void()> on_gone) {
  on_gone_ = std::move(on_gone);
  this->keep_alive_ = false;  // a long stream ends the connection
  if (stopping()) {
    fire_gone();
    return;
  }
  if (watching_) return;
  watching_ = true;
  // The client sends nothing while it reads a stream, so any completion here
  // (EOF, reset, stray bytes) means it is gone.
  auto self = std::static_pointer_cast<Connection>(this->shared_from_this());
  this->stream_.async_read_some(asio::buffer(watch_buf_), [self](error_code, std::size_t) {
    self->peer_gone_ = true;
    self->fire_gone();
  });
}

}  // namespace hamcp::mcp::http::detail
