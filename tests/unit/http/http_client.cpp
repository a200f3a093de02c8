#include "http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace hamcp::test {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

// Runs the io_context until the started operation completes or `timeout`
// passes; on timeout the socket's operations are cancelled (not closed).
template <class Start>
error_code run_op(asio::io_context& ioc, tcp::socket& socket, std::chrono::milliseconds timeout, Start start) {
  error_code result = asio::error::timed_out;
  bool done = false;
  start([&](error_code ec, std::size_t) {
    result = ec;
    done = true;
  });
  ioc.restart();
  ioc.run_for(timeout);
  if (!done) {
    error_code ignored;
    socket.cancel(ignored);
    ioc.restart();
    ioc.run();
    result = asio::error::timed_out;
  }
  return result;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

template <class Message>
std::map<std::string, std::string> header_map(const Message& m) {
  std::map<std::string, std::string> out;
  for (const auto& f : m) out[lower(std::string(f.name_string()))] = std::string(f.value());
  return out;
}

http::request<http::string_body> make_request(const std::string& method, const std::string& target,
                                              const HeaderList& headers, const std::string& body, std::uint16_t port) {
  http::request<http::string_body> req;
  req.method_string(method);
  req.target(target);
  req.version(11);
  bool has_host = false;
  for (const auto& [k, v] : headers) {
    if (lower(k) == "host") has_host = true;
    req.insert(k, v);
  }
  if (!has_host) req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  req.body() = body;
  if (!body.empty() || method == "POST") req.prepare_payload();
  return req;
}

}  // namespace

struct HttpConnection::Impl {
  asio::io_context ioc;
  tcp::socket socket{ioc};
  beast::flat_buffer buffer;
  std::uint16_t port = 0;
  bool open = false;
};

HttpConnection::HttpConnection(std::uint16_t port, std::string host) : impl_(std::make_unique<Impl>()) {
  impl_->port = port;
  error_code ec;
  impl_->socket.connect(tcp::endpoint(asio::ip::make_address(host), port), ec);
  impl_->open = !ec;
}

HttpConnection::~HttpConnection() = default;

bool HttpConnection::is_open() const { return impl_->open; }

HttpReply HttpConnection::request(const std::string& method, const std::string& target, const HeaderList& headers,
                                  const std::string& body, std::chrono::milliseconds timeout) {
  HttpReply reply;
  if (!impl_->open) return reply;
  auto req = make_request(method, target, headers, body, impl_->port);
  auto& im = *impl_;
  error_code ec = run_op(im.ioc, im.socket, timeout, [&](auto handler) { http::async_write(im.socket, req, handler); });
  if (ec && std::getenv("HTTP_TEST_DEBUG")) std::fprintf(stderr, "write failed: %s\n", ec.message().c_str());
  if (ec) {
    im.open = false;
    return reply;
  }
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  ec = run_op(im.ioc, im.socket, timeout,
              [&](auto handler) { http::async_read(im.socket, im.buffer, parser, handler); });
  if (ec && std::getenv("HTTP_TEST_DEBUG")) std::fprintf(stderr, "read failed: %s\n", ec.message().c_str());
  if (ec) {
    im.open = false;
    return reply;
  }
  auto res = parser.release();
  reply.status = res.result_int();
  reply.headers = header_map(res);
  reply.body = std::move(res.body());
  if (!res.keep_alive()) im.open = false;
  return reply;
}

std::string HttpConnection::raw_exchange(const std::string& bytes, std::chrono::milliseconds timeout) {
  auto& im = *impl_;
  error_code ec = run_op(im.ioc, im.socket, timeout,
                         [&](auto handler) { asio::async_write(im.socket, asio::buffer(bytes), handler); });
  std::string out;
  if (ec) return out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    std::array<char, 4096> buf;
    std::size_t got = 0;
    ec = run_op(im.ioc, im.socket, left, [&](auto handler) {
      im.socket.async_read_some(asio::buffer(buf), [&, handler](error_code e, std::size_t n) mutable {
        got = n;
        handler(e, n);
      });
    });
    out.append(buf.data(), got);
    if (ec) break;
  }
  im.open = false;
  return out;
}

HttpReply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                       const HeaderList& headers, const std::string& body, std::chrono::milliseconds timeout) {
  HttpConnection c(port);
  return c.request(method, target, headers, body, timeout);
}

struct SseStream::Impl {
  asio::io_context ioc;
  tcp::socket socket{ioc};
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  std::string pending;  // body bytes not yet turned into events
  std::map<std::string, std::string> headers;
  unsigned status = 0;
  bool ended = false;
  bool failed = false;
  int comments = 0;
  std::function<std::size_t(std::uint64_t, std::string_view, error_code&)> on_chunk;  // must outlive the parser's use

  // Reads more body bytes into `pending`; false on end/timeout/error.
  bool read_more(std::chrono::milliseconds timeout) {
    if (ended || failed) return false;
    error_code ec =
        run_op(ioc, socket, timeout, [&](auto handler) { http::async_read_some(socket, buffer, parser, handler); });
    if (ec == http::error::end_of_chunk) ec = {};
    if (ec == asio::error::timed_out) return false;
    if (ec) {
      failed = true;
      return false;
    }
    if (parser.is_done()) ended = true;
    return true;
  }
};

SseStream::SseStream(std::uint16_t port, const std::string& method, const std::string& target,
                     const HeaderList& headers, const std::string& body)
    : impl_(std::make_unique<Impl>()) {
  auto& im = *impl_;
  error_code ec;
  im.socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  if (ec) {
    im.failed = true;
    return;
  }
  im.parser.body_limit(64u << 20);
  im.on_chunk = [&im](std::uint64_t, std::string_view data, error_code&) -> std::size_t {
    im.pending.append(data);
    return data.size();
  };
  im.parser.on_chunk_body(im.on_chunk);
  auto req = make_request(method, target, headers, body, port);
  ec = run_op(im.ioc, im.socket, std::chrono::milliseconds(5000),
              [&](auto handler) { http::async_write(im.socket, req, handler); });
  if (!ec) {
    ec = run_op(im.ioc, im.socket, std::chrono::milliseconds(10000),
                [&](auto handler) { http::async_read_header(im.socket, im.buffer, im.parser, handler); });
  }
  if (ec) {
    im.failed = true;
    return;
  }
  im.status = im.parser.get().result_int();
  im.headers = header_map(im.parser.get());
  if (im.parser.is_done()) im.ended = true;
}

SseStream::~SseStream() = default;

unsigned SseStream::status() const { return impl_->status; }

std::string SseStream::header(const std::string& lower_name) const {
  auto it = impl_->headers.find(lower_name);
  return it == impl_->headers.end() ? std::string() : it->second;
}

bool SseStream::ended() const { return impl_->ended; }
int SseStream::comments() const { return impl_->comments; }

std::optional<SseEvent> SseStream::next(std::chrono::milliseconds timeout) {
  auto& im = *impl_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    // Parse complete blocks ("...\n\n") from pending.
    for (;;) {
      const auto end = im.pending.find("\n\n");
      if (end == std::string::npos) break;
      const std::string block = im.pending.substr(0, end);
      im.pending.erase(0, end + 2);
      SseEvent ev;
      bool any_field = false;
      bool has_data = false;
      std::size_t start = 0;
      while (start <= block.size()) {
        auto nl = block.find('\n', start);
        if (nl == std::string::npos) nl = block.size();
        const std::string line = block.substr(start, nl - start);
        start = nl + 1;
        if (line.empty()) continue;
        if (line[0] == ':') {
          ++im.comments;
          continue;
        }
        const auto colon = line.find(':');
        std::string field = line.substr(0, colon);
        std::string value = colon == std::string::npos ? std::string() : line.substr(colon + 1);
        if (!value.empty() && value[0] == ' ') value.erase(0, 1);
        any_field = true;
        if (field == "id")
          ev.id = value;
        else if (field == "event")
          ev.event = value;
        else if (field == "data") {
          if (has_data) ev.data += '\n';
          ev.data += value;
          has_data = true;
        }
      }
      if (any_field) return ev;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    if (!im.read_more(left)) {
      if (im.ended && im.pending.find("\n\n") != std::string::npos) continue;
      return std::nullopt;
    }
  }
}

std::string SseStream::body(std::chrono::milliseconds timeout) {
  auto& im = *impl_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!im.ended && !im.failed) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !im.read_more(left)) break;
  }
  if (!im.parser.get().chunked()) return im.parser.get().body();
  return im.pending;
}

void SseStream::close() {
  error_code ec;
  impl_->socket.shutdown(tcp::socket::shutdown_both, ec);
  impl_->socket.close(ec);
}

}  // namespace hamcp::test
