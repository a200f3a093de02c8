#include "ha/detail/transport.hpp"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <spdlog/spdlog.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <vector>

#include "ha/platform.hpp"

namespace hamcp::ha::detail {

NetContext net_context(const ConnectionSettings& s) {
  NetContext ctx;
  ctx.target = s.display_url;
  ctx.tls = s.tls;
  return ctx;
}

std::shared_ptr<ssl::context> make_ssl_context(const ConnectionSettings& s) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3);
  if (s.insecure_tls) {
    ctx->set_verify_mode(ssl::verify_none);
    return ctx;
  }
  ctx->set_verify_mode(ssl::verify_peer);
  boost::system::error_code ec;
  ctx->set_default_verify_paths(ec);  // system store; a missing one is not fatal
  if (!s.ca_file.empty()) {
    ctx->load_verify_file(s.ca_file, ec);
    if (ec) {
      throw HaException(make_error(ErrorCause::invalid_ca_file, s.ca_file, ec.message()));
    }
  }
  return ctx;
}

namespace {

// An IP literal (a common HA URL: http://192.168.1.10:8123) needs no resolver:
// asio's resolve runs getaddrinfo on a helper thread, which with the default
// flags also scans the host's interfaces, once per new connection.
struct Resolved {
  std::vector<tcp::endpoint> endpoints;
  std::optional<HaError> error;
};

asio::awaitable<Resolved> resolve(beast::tcp_stream& stream, const ConnectionSettings& s) {
  boost::system::error_code ec;
  const asio::ip::address literal = asio::ip::make_address(s.host, ec);
  if (!ec) co_return Resolved{{tcp::endpoint(literal, s.port)}, std::nullopt};
  tcp::resolver resolver(stream.get_executor());
  const std::string port = std::to_string(s.port);
  auto results = co_await resolver.async_resolve(s.host, port, asio::redirect_error(asio::use_awaitable, ec));
  Resolved out;
  if (ec) {
    out.error = classify_network_error(ec, NetPhase::resolve, net_context(s));
  } else if (results.empty()) {
    out.error = make_error(ErrorCause::dns_failure, s.display_url, "no addresses");
  }
  for (const auto& entry : results) out.endpoints.push_back(entry.endpoint());
  co_return out;
}

}  // namespace

asio::awaitable<Connected> try_connect_tcp(beast::tcp_stream& stream, const ConnectionSettings& s) {
  Resolved resolved = co_await resolve(stream, s);
  if (resolved.error) co_return Connected{{}, std::move(resolved.error)};
  boost::system::error_code ec;
  boost::system::error_code last_ec;
  std::optional<asio::ip::address> last_address;
  for (const tcp::endpoint& ep : resolved.endpoints) {
    last_address = ep.address();
    if (auto hooked = run_connect_hook(ep)) {
      last_ec = hooked;
      continue;
    }
    stream.expires_after(s.connect_timeout);
    co_await stream.async_connect(ep, asio::redirect_error(asio::use_awaitable, ec));
    if (!ec) {
      stream.expires_never();
      stream.socket().set_option(tcp::no_delay(true), ec);
      co_return Connected{ep, std::nullopt};
    }
    last_ec = ec;
    stream.close();
  }
  NetContext ctx = net_context(s);
  ctx.address = last_address;
  co_return Connected{{}, classify_network_error(last_ec, NetPhase::connect, ctx)};
}

asio::awaitable<tcp::endpoint> connect_tcp(beast::tcp_stream& stream, const ConnectionSettings& s) {
  Connected connected = co_await try_connect_tcp(stream, s);
  if (connected.error) throw HaException(std::move(*connected.error));
  co_return connected.endpoint;
}

namespace {

void prepare_tls(TlsStream& stream, const ConnectionSettings& s) {
  SSL* ssl_handle = stream.native_handle();
  boost::system::error_code ec;
  (void)asio::ip::make_address(s.host, ec);  // ec set => a host name, not an IP literal
  if (ec) {
    // SNI only for names (RFC 6066 forbids IP literals).
    SSL_set_tlsext_host_name(ssl_handle, s.host.c_str());
  }
  if (s.insecure_tls) return;
  // Let OpenSSL check the name during chain verification: a mismatch then
  // reports X509_V_ERR_HOSTNAME_MISMATCH, which we explain distinctly.
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl_handle);
  if (ec) {
    X509_VERIFY_PARAM_set1_host(param, s.host.c_str(), 0);
  } else {
    X509_VERIFY_PARAM_set1_ip_asc(param, s.host.c_str());
  }
  stream.set_verify_callback(ssl::host_name_verification(s.host));
}

}  // namespace

asio::awaitable<void> tls_handshake(TlsStream& stream, const ConnectionSettings& s) {
  prepare_tls(stream, s);
  boost::system::error_code ec;
  beast::get_lowest_layer(stream).expires_after(s.connect_timeout);
  co_await stream.async_handshake(ssl::stream_base::client, asio::redirect_error(asio::use_awaitable, ec));
  beast::get_lowest_layer(stream).expires_never();
  if (ec) {
    NetContext ctx = net_context(s);
    ctx.verify_result = SSL_get_verify_result(stream.native_handle());
    throw HaException(classify_network_error(ec, NetPhase::tls_handshake, ctx));
  }
}

asio::awaitable<bool> port_speaks_tls(const ConnectionSettings& settings) {
  try {
    ConnectionSettings s = settings;
    s.insecure_tls = true;
    s.connect_timeout = std::min(s.connect_timeout, std::chrono::milliseconds(3000));
    auto ctx = make_ssl_context(s);
    auto executor = co_await asio::this_coro::executor;
    TlsStream stream(executor, *ctx);
    co_await connect_tcp(beast::get_lowest_layer(stream), s);
    co_await tls_handshake(stream, s);
    co_return true;
  } catch (const std::exception&) {
    co_return false;
  }
}

asio::awaitable<bool> port_speaks_plain_http(const ConnectionSettings& settings) {
  try {
    ConnectionSettings s = settings;
    s.connect_timeout = std::min(s.connect_timeout, std::chrono::milliseconds(3000));
    auto executor = co_await asio::this_coro::executor;
    beast::tcp_stream stream(executor);
    co_await connect_tcp(stream, s);
    const std::string request = "GET / HTTP/1.1\r\nHost: " + s.host_header + "\r\nConnection: close\r\n\r\n";
    stream.expires_after(s.connect_timeout);
    co_await asio::async_write(stream, asio::buffer(request), asio::use_awaitable);
    char head[5] = {};
    boost::system::error_code ec;
    co_await asio::async_read(stream, asio::buffer(head, 5), asio::redirect_error(asio::use_awaitable, ec));
    co_return !ec && std::string_view(head, 5) == "HTTP/";
  } catch (const std::exception&) {
    co_return false;
  }
}

}  // namespace hamcp::ha::detail
