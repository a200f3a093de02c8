// The stream seam (WsOptions::connector, RestClient::set_connector): hamcp's real WsClient and
// RestClient over an in-memory peer (tests/support/memory_pipe.hpp) instead of TCP. The WebSocket
// upgrade, HA's auth, HTTP framing, the connection pool and the timeouts run as over TCP; what the
// fuzz targets rely on (tests/fuzz).
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <memory>
#include <string>
#include <vector>

#include "ha/detail/any_stream.hpp"
#include "ha/rest_client.hpp"
#include "ha/ws_client.hpp"
#include "support/memory_pipe.hpp"
#include "test_util.hpp"

using namespace hamcp::ha;
using namespace hamcp::ha::testing;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

constexpr const char* kToken = "seam-token-0123456789";

// What the in-memory peers saw, and the server ends they keep (a silent peer holds its end open).
struct Peer {
  asio::io_context io;
  int connects = 0;
  std::vector<std::string> tokens_seen;
  std::vector<std::string> commands_seen;
  std::vector<std::unique_ptr<ByteStream>> silent_ends;
};

// A minimal Home Assistant WebSocket API: auth_required, auth_ok, then a result per command.
asio::awaitable<void> serve_ws(Peer& peer, std::unique_ptr<ByteStream> end) {
  try {
    beast::websocket::stream<detail::AnyStream> ws(detail::AnyStream(std::move(end)));
    co_await ws.async_accept(asio::use_awaitable);
    ws.text(true);
    co_await ws.async_write(asio::buffer(std::string(R"({"type":"auth_required","ha_version":"2099.1.0"})")),
                            asio::use_awaitable);
    beast::flat_buffer buffer;
    co_await ws.async_read(buffer, asio::use_awaitable);
    json::value auth = json::parse(beast::buffers_to_string(buffer.data()));
    peer.tokens_seen.emplace_back(auth.at("access_token").as_string());
    buffer.consume(buffer.size());
    co_await ws.async_write(asio::buffer(std::string(R"({"type":"auth_ok","ha_version":"2099.1.0"})")),
                            asio::use_awaitable);
    for (;;) {
      co_await ws.async_read(buffer, asio::use_awaitable);
      json::value command = json::parse(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      const std::string type(command.at("type").as_string());
      peer.commands_seen.push_back(type);
      json::object reply{{"id", command.at("id")}, {"type", "result"}, {"success", true}};
      reply["result"] = json::object{{"answered", type}};
      const std::string text = json::serialize(reply);
      co_await ws.async_write(asio::buffer(text), asio::use_awaitable);
    }
  } catch (const std::exception&) {
    // The client closed the connection.
  }
}

// Answers one request per connection with a keep-alive JSON body, until the client closes.
asio::awaitable<void> serve_http(std::unique_ptr<ByteStream> end) {
  detail::AnyStream stream(std::move(end));
  beast::flat_buffer buffer;
  boost::system::error_code ec;
  for (;;) {
    http::request<http::string_body> req;
    co_await http::async_read(stream, buffer, req, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::content_type, "application/json");
    res.body() = json::serialize(json::object{{"path", std::string(req.target())}});
    res.keep_alive(true);
    res.prepare_payload();
    co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
  }
}

// A connector to `peer`: each connection is a new pipe, its server end served by `serve` (or kept
// open and never answered when serve is null).
template <class Serve>
StreamConnector connector_to(Peer& peer, Serve serve) {
  return [&peer, serve](const asio::any_io_executor&) -> asio::awaitable<std::unique_ptr<ByteStream>> {
    hamcp::test::MemoryPipe pipe = hamcp::test::make_memory_pipe(peer.io.get_executor());
    ++peer.connects;
    if constexpr (std::is_same_v<Serve, std::nullptr_t>) {
      peer.silent_ends.push_back(std::move(pipe.server));
    } else {
      asio::co_spawn(peer.io, serve(peer, std::move(pipe.server)), asio::detached);
    }
    co_return std::move(pipe.client);
  };
}

WsOptions ws_options(StreamConnector connector) {
  WsOptions o;
  o.command_timeout = 2s;
  o.connect_wait = 2s;
  o.reconnect_initial = 50ms;
  o.reconnect_max = 200ms;
  o.connector = std::move(connector);
  return o;
}

asio::awaitable<json::value> run_command(WsClient& ws, const char* type) {
  json::object message{{"type", type}};
  json::value result = co_await ws.command(std::move(message));
  co_return result;
}

}  // namespace

TEST(StreamSeam, WsClientUpgradesAuthenticatesAndAnswersOverAnInMemoryPeer) {
  Peer peer;
  // Never dialled: the connector is the connection.
  WsClient ws(peer.io.get_executor(), settings_for("http://127.0.0.1:9", kToken),
              ws_options(connector_to(peer, serve_ws)));
  ws.start();
  json::value result = run_bounded(peer.io, run_command(ws, "get_states"), 10s);
  EXPECT_EQ(json::serialize(result), R"({"answered":"get_states"})");
  EXPECT_EQ(ws.ha_version(), "2099.1.0");  // from auth_ok, through the upgrade and the auth exchange
  EXPECT_EQ(peer.connects, 1);
  ASSERT_EQ(peer.tokens_seen.size(), 1u);
  EXPECT_EQ(peer.tokens_seen[0], kToken);

  // A dropped connection is made again through the connector, subscriptions and all.
  ws.drop_connection_for_testing();
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (ws.connects() < 2 && std::chrono::steady_clock::now() < deadline) peer.io.run_for(10ms);
  json::value again = run_bounded(peer.io, run_command(ws, "get_config"), 10s);
  EXPECT_EQ(json::serialize(again), R"({"answered":"get_config"})");
  EXPECT_EQ(peer.connects, 2);
  EXPECT_EQ(ws.connects(), 2u);
  ws.stop();
}

TEST(StreamSeam, WsHandshakeTimeoutAppliesOverAnInMemoryPeer) {
  Peer peer;
  ConnectionSettings settings = settings_for("http://127.0.0.1:9", kToken);
  settings.connect_timeout = 200ms;
  WsClient ws(peer.io.get_executor(), settings, ws_options(connector_to(peer, nullptr)));
  ws.start();
  // The peer never answers the upgrade: the handshake timeout must end the attempt, not a hang.
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!ws.last_error() && std::chrono::steady_clock::now() < deadline) peer.io.run_for(20ms);
  ASSERT_TRUE(ws.last_error().has_value());
  EXPECT_EQ(ws.last_error()->cause, ErrorCause::timeout) << ws.last_error()->message();
  ws.stop();
  peer.io.run_for(50ms);
}

TEST(StreamSeam, RestClientRequestsAndKeepsItsConnectionOverAnInMemoryPeer) {
  Peer peer;
  RestClient rest(peer.io.get_executor(), settings_for("http://127.0.0.1:9", kToken));
  rest.set_connector(
      connector_to(peer, [](Peer&, std::unique_ptr<ByteStream> end) { return serve_http(std::move(end)); }));
  json::value first = run_bounded(peer.io, rest.get_json("/api/states"), 10s);
  json::value second = run_bounded(peer.io, rest.get_json("/api/config"), 10s);
  EXPECT_EQ(json::serialize(first), R"({"path":"/api/states"})");
  EXPECT_EQ(json::serialize(second), R"({"path":"/api/config"})");
  EXPECT_EQ(peer.connects, 1);  // the keep-alive connection went back to the pool and was reused
  EXPECT_EQ(rest.connections_opened(), 1u);
}

TEST(StreamSeam, RestTimeoutAppliesOverAnInMemoryPeer) {
  Peer peer;
  RestClient rest(peer.io.get_executor(), settings_for("http://127.0.0.1:9", kToken));
  rest.set_connector(connector_to(peer, nullptr));
  RequestOptions options;
  options.timeout = 150ms;
  const auto started = std::chrono::steady_clock::now();
  try {
    (void)run_bounded(peer.io, rest.get("/api/states", options), 10s);
    ADD_FAILURE() << "a request to a silent peer succeeded";
  } catch (const HaException& e) {
    EXPECT_EQ(e.error().cause, ErrorCause::timeout) << e.error().message();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);  // generous: the bound is 150 ms
}
