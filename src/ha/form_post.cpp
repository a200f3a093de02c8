#include "ha/form_post.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace hamcp::ha {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

template <class Stream>
asio::awaitable<Response> exchange(Stream& stream, const ConnectionSettings& ha, const std::string& path,
                                   std::string form) {
  bhttp::request<bhttp::string_body> req{bhttp::verb::post, ha.http_target(path), 11};
  req.set(bhttp::field::host, ha.host_header);
  req.set(bhttp::field::user_agent, "hamcp/" HAMCP_VERSION);
  req.set(bhttp::field::accept, "application/json");
  req.set(bhttp::field::content_type, "application/x-www-form-urlencoded");
  req.body() = std::move(form);
  req.keep_alive(false);
  req.prepare_payload();
  co_await bhttp::async_write(stream, req, asio::use_awaitable);
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> res;
  co_await bhttp::async_read(stream, buffer, res, asio::use_awaitable);
  co_return Response{static_cast<int>(res.result_int()), std::move(res.body()),
                     std::string(res[bhttp::field::content_type])};
}

}  // namespace

asio::awaitable<Response> post_form(const ConnectionSettings& ha, std::string path, std::string form) {
  auto executor = co_await asio::this_coro::executor;
  tcp::resolver resolver(executor);
  const auto endpoints = co_await resolver.async_resolve(ha.host, std::to_string(ha.port), asio::use_awaitable);
  if (!ha.tls) {
    beast::tcp_stream stream(executor);
    stream.expires_after(ha.request_timeout);
    co_await stream.async_connect(endpoints, asio::use_awaitable);
    co_return co_await exchange(stream, ha, path, std::move(form));
  }
  asio::ssl::context ctx(asio::ssl::context::tls_client);
  ctx.set_default_verify_paths();
  if (!ha.ca_file.empty()) ctx.load_verify_file(ha.ca_file);
  ctx.set_verify_mode(ha.insecure_tls ? asio::ssl::verify_none : asio::ssl::verify_peer);
  beast::ssl_stream<beast::tcp_stream> stream(executor, ctx);
  if (!ha.insecure_tls) stream.set_verify_callback(asio::ssl::host_name_verification(ha.host));
  SSL_set_tlsext_host_name(stream.native_handle(), ha.host.c_str());
  beast::get_lowest_layer(stream).expires_after(ha.request_timeout);
  co_await beast::get_lowest_layer(stream).async_connect(endpoints, asio::use_awaitable);
  co_await stream.async_handshake(asio::ssl::stream_base::client, asio::use_awaitable);
  co_return co_await exchange(stream, ha, path, std::move(form));
}

}  // namespace hamcp::ha
