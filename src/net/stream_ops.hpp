#pragma once
// The stream operations of the server skeleton's connections
// (http_connection.hpp) on whatever their lowest layer offers: deadlines,
// shutdown and close, an immediate write, and the global request-body charge.
// Works for beast::tcp_stream, beast::ssl_stream<beast::tcp_stream> and
// in-memory streams (fuzzing), which have no timers or socket.

#include <array>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <type_traits>

#include "net/connection_admission.hpp"

namespace hamcp::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

template <class Stream>
struct is_tls_stream : std::false_type {};
template <class Next>
struct is_tls_stream<beast::ssl_stream<Next>> : std::true_type {};

// Deadlines and closing on whatever the lowest layer offers.
template <class Stream>
void expire_after(Stream& s, std::chrono::steady_clock::duration d) {
  auto& low = beast::get_lowest_layer(s);
  if constexpr (requires { low.expires_after(d); }) low.expires_after(d);
}
template <class Stream>
void expire_never(Stream& s) {
  auto& low = beast::get_lowest_layer(s);
  if constexpr (requires { low.expires_never(); }) low.expires_never();
}
template <class Stream>
void shutdown_send(Stream& s) {
  auto& low = beast::get_lowest_layer(s);
  if constexpr (requires { low.socket(); }) {
    boost::system::error_code ec;
    low.socket().shutdown(tcp::socket::shutdown_send, ec);
  }
}
template <class Stream>
void close_now(Stream& s) {
  auto& low = beast::get_lowest_layer(s);
  if constexpr (requires { low.socket(); }) {
    boost::system::error_code ec;
    low.socket().shutdown(tcp::socket::shutdown_both, ec);
    low.socket().close(ec);
  } else {
    low.close();
  }
}

// A response's head (status line, fields, blank line) as HTTP/1.1 text: the
// bytes Beast's serializer writes (its fields are kept as "Name: value\r\n").
// Without the serializer's buffer-sequence machinery, which cost ~5k
// instructions per answer (bench/http/THROUGHPUT.md, session 12).
inline void render_response_head(const bhttp::response_header<>& head, std::string& out) {
  out.reserve(out.size() + 256);
  out += head.version() == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  const unsigned code = head.result_int() % 1000;  // Beast keeps statuses to three digits
  const std::array<char, 4> status{static_cast<char>('0' + code / 100), static_cast<char>('0' + code / 10 % 10),
                                   static_cast<char>('0' + code % 10), ' '};
  out.append(status.data(), status.size());
  out += head.reason();
  out += "\r\n";
  for (const auto& field : head) {
    out += field.name_string();
    out += ": ";
    out += field.value();
    out += "\r\n";
  }
  out += "\r\n";
}

// Sends what the socket takes now without waiting (plain TCP only): most
// answers fit its send buffer, and then no write timer is armed and no
// completion handler runs. The number of bytes sent (the rest is for an
// asynchronous write), or nullopt when the stream cannot (TLS, in-memory).
// `ec` is set when the peer is gone; a full send buffer is not an error.
template <class Stream, class Buffers>
std::optional<std::size_t> send_at_once(Stream& s, const Buffers& buffers, boost::system::error_code& ec) {
  if constexpr (is_tls_stream<Stream>::value) {
    return std::nullopt;
  } else {
    auto& low = beast::get_lowest_layer(s);
    if constexpr (requires { low.socket(); }) {
      auto& socket = low.socket();
      if (!socket.non_blocking()) socket.non_blocking(true, ec);  // sync writes only; async ones are unaffected
      std::size_t sent = 0;
      if (!ec) sent = socket.send(buffers, 0, ec);
      if (ec == asio::error::would_block || ec == asio::error::try_again) ec = {};
      return sent;
    } else {
      return std::nullopt;
    }
  }
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

// A request whose framing we refuse to guess (request smuggling): a
// Transfer-Encoding other than "chunked", several of them, or one with a
// Content-Length. Returns the reason, empty when acceptable.
std::string bad_framing(const bhttp::fields& headers);

}  // namespace hamcp::net
