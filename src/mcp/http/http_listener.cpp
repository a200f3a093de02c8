// The MCP side of the Beast server skeleton (net/beast_server.hpp): accepted
// sockets, plain or TLS, become MCP connections (mcp_connection.hpp) that
// hand each request to the HttpHandler.
#include "mcp/http/http_listener.hpp"

#include <boost/beast/ssl.hpp>

#include "mcp/http/mcp_connection.hpp"

namespace hamcp::mcp::http {
namespace beast = boost::beast;
namespace ssl = boost::asio::ssl;
using net::tcp;

struct HttpListener::Impl {
  std::shared_ptr<const HttpHandler> handler;
  net::BeastServer server;

  Impl(asio::any_io_executor executor, ListenerOptions options, HttpHandler h)
      : handler(std::make_shared<const HttpHandler>(std::move(h))),
        server(executor, std::move(options),
               [handler = handler](tcp::socket socket, std::string client, std::shared_ptr<net::ServerState> state) {
                 return make_connection(handler, std::move(socket), std::move(client), std::move(state));
               }) {}

  static std::shared_ptr<net::TrackedConnection> make_connection(std::shared_ptr<const HttpHandler> handler,
                                                                 tcp::socket socket, std::string client,
                                                                 std::shared_ptr<net::ServerState> state) {
    if (state->tls) {
      using S = beast::ssl_stream<beast::tcp_stream>;
      ssl::context& tls = *state->tls;
      return std::make_shared<detail::Connection<S>>(std::move(handler), std::move(state), std::move(client),
                                                     std::move(socket), tls);
    }
    return std::make_shared<detail::Connection<beast::tcp_stream>>(std::move(handler), std::move(state),
                                                                   std::move(client), std::move(socket));
  }
};

HttpListener::HttpListener(asio::any_io_executor executor, ListenerOptions options, HttpHandler handler)
    : impl_(std::make_shared<Impl>(executor, std::move(options), std::move(handler))) {}

HttpListener::~HttpListener() = default;

std::uint16_t HttpListener::start() { return impl_->server.start(); }
void HttpListener::stop(std::chrono::milliseconds grace) { impl_->server.stop(grace); }
bool HttpListener::tls() const { return impl_->server.tls(); }
std::size_t HttpListener::connection_count() const { return impl_->server.connection_count(); }

}  // namespace hamcp::mcp::http
