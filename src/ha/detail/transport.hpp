#pragma once
// Internal (Beast in the header): TCP connect + TLS setup shared by the REST
// client, the WebSocket client and `hamcp doctor`. Every failure is thrown as
// HaException with a classified HaError (try_connect_tcp returns it).

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <memory>
#include <optional>

#include "ha/classify.hpp"
#include "ha/connection_config.hpp"

namespace hamcp::ha::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// TLS context per settings: system trust store + optional CA file, or no
// verification with insecure_tls. Throws HaException(invalid_ca_file).
std::shared_ptr<ssl::context> make_ssl_context(const ConnectionSettings& settings);

// Resolve + connect every address in turn within settings.connect_timeout.
// Returns the endpoint connected to.
asio::awaitable<tcp::endpoint> connect_tcp(beast::tcp_stream& stream, const ConnectionSettings& settings);

// connect_tcp without exceptions: the endpoint, or why no address could be
// reached. For the reconnect loops: HA down is their usual state, and each
// thrown failure makes the unwinder read (and keep resident) its tables.
struct Connected {
  tcp::endpoint endpoint;
  std::optional<HaError> error;
};
asio::awaitable<Connected> try_connect_tcp(beast::tcp_stream& stream, const ConnectionSettings& settings);

// SNI + host-name verification, then the client handshake (connect_timeout).
asio::awaitable<void> tls_handshake(TlsStream& stream, const ConnectionSettings& settings);

// Probes used to sharpen an ambiguous diagnosis. Never throw.
// Does host:port complete a TLS handshake (certificate not checked)?
asio::awaitable<bool> port_speaks_tls(const ConnectionSettings& settings);
// Does host:port answer a plain HTTP request with an HTTP status line?
asio::awaitable<bool> port_speaks_plain_http(const ConnectionSettings& settings);

NetContext net_context(const ConnectionSettings& settings);

}  // namespace hamcp::ha::detail
