#include "sim/core/url_fetch.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/url/parse.hpp>

namespace hamcp::sim {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct Exchange {
  Exchange(asio::io_context& io, std::size_t max_body) : resolver(io), stream(io) { parser.body_limit(max_body); }
  asio::ip::tcp::resolver resolver;
  beast::tcp_stream stream;
  http::request<http::empty_body> request;
  http::response_parser<http::string_body> parser;
  beast::flat_buffer buffer;
  FetchResult result;
};

void fail(Exchange& x, const boost::system::error_code& ec) {
  x.result.timed_out = ec == beast::error::timeout;
  x.result.error = ec.message();
}

void start(Exchange& x, const std::string& host, const std::string& port, std::chrono::milliseconds timeout) {
  x.resolver.async_resolve(host, port, [&x, timeout](auto ec, auto endpoints) {
    if (ec) return fail(x, ec);
    x.stream.expires_after(timeout);
    x.stream.async_connect(endpoints, [&x](auto ec, auto) {
      if (ec) return fail(x, ec);
      http::async_write(x.stream, x.request, [&x](auto ec, std::size_t) {
        if (ec) return fail(x, ec);
        http::async_read(x.stream, x.buffer, x.parser, [&x](auto ec, std::size_t) {
          if (ec) return fail(x, ec);
          x.result.status = static_cast<int>(x.parser.get().result_int());
          x.result.body = std::move(x.parser.get().body());
        });
      });
    });
  });
}

}  // namespace

FetchResult fetch_url(const std::string& url, std::chrono::milliseconds timeout, std::size_t max_body) {
  FetchResult bad;
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed || parsed->scheme() != "http" || parsed->host().empty()) {
    bad.error = "the simulator fetches http:// URLs only";
    return bad;
  }
  const std::string host(parsed->encoded_host());
  const std::string port = parsed->has_port() ? std::string(parsed->port()) : "80";
  std::string target(parsed->encoded_path());
  if (target.empty()) target = "/";
  if (parsed->has_query()) target += "?" + std::string(parsed->encoded_query());
  asio::io_context io;
  Exchange x(io, max_body);
  x.request = {http::verb::get, target, 11};
  x.request.set(http::field::host, host);
  x.request.set(http::field::user_agent, "HomeAssistant/sim");
  x.request.set(http::field::connection, "close");
  start(x, host, port, timeout);
  io.run_for(timeout + std::chrono::milliseconds(500));
  if (!io.stopped()) {  // the resolver has no deadline of its own: abort what is left and let it finish
    x.resolver.cancel();
    beast::error_code ignored;
    x.stream.socket().close(ignored);
    io.run();
    x.result = FetchResult{};
    x.result.timed_out = true;
    x.result.error = "timed out";
  }
  return std::move(x.result);
}

}  // namespace hamcp::sim
