#include "ha/detail/ws_link.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/json/serialize.hpp>
#include <variant>

#include "ha/detail/any_stream.hpp"
#include "ha/detail/ha_json.hpp"
#include "ha/detail/transport.hpp"

namespace hamcp::ha::detail {
namespace websocket = boost::beast::websocket;
namespace json = boost::json;

namespace {

using PlainWs = websocket::stream<beast::tcp_stream>;
using SecureWs = websocket::stream<TlsStream>;
using CustomWs = websocket::stream<AnyStream>;  // WsOptions::connector's stream (tests, fuzzing)

// The steps of one connection, for either kind of stream.
template <class Ws>
class Handshake {
 public:
  Handshake(Ws& stream, const ConnectionSettings& settings, const WsOptions& options)
      : stream_(stream), settings_(settings), options_(options) {}

  void configure() {
    stream_.read_message_max(options_.max_message_bytes);
    stream_.auto_fragment(false);
    websocket::stream_base::timeout t{};
    t.handshake_timeout = settings_.connect_timeout;
    t.idle_timeout = settings_.connect_timeout;  // auth phase; relaxed after auth_ok
    t.keep_alive_pings = false;
    stream_.set_option(t);
    websocket::permessage_deflate pmd;
    pmd.client_enable = true;
    stream_.set_option(pmd);
    stream_.set_option(websocket::stream_base::decorator(
        [](websocket::request_type& req) { req.set(boost::beast::http::field::user_agent, "hamcp/" HAMCP_VERSION); }));
  }

  asio::awaitable<void> upgrade() {
    boost::system::error_code ec;
    co_await stream_.async_handshake(settings_.host_header, settings_.ws_path,
                                     asio::redirect_error(asio::use_awaitable, ec));
    if (!ec) co_return;
    HaError err = classify_network_error(ec, NetPhase::receive, net_context(settings_));
    if (ec == websocket::error::upgrade_declined) {
      err = make_error(ErrorCause::not_found, settings_.ws_url(),
                       "the server declined the WebSocket upgrade (is this Home Assistant? is the "
                       "websocket_api integration loaded?)");
    }
    throw HaException(err);
  }

  // HA speaks first (auth_required), we answer with the token, HA says
  // auth_ok (with its version) or auth_invalid.
  asio::awaitable<std::string> authenticate() {
    std::string first = co_await read_text();
    json::value hello = parse_or_throw(first);
    const auto* type = hello.is_object() ? hello.as_object().if_contains("type") : nullptr;
    if (!type || *type != "auth_required") {
      throw HaException(make_error(ErrorCause::protocol_error, settings_.ws_url(),
                                   "expected auth_required, got: " + settings_.token.scrub(first).substr(0, 100)));
    }
    json::object auth;
    auth["type"] = "auth";
    auth["access_token"] = settings_.token.reveal();
    const std::string auth_text = json::serialize(auth);
    co_await write_text(auth_text);
    std::string reply = co_await read_text();
    json::value answer = parse_or_throw(reply);
    std::string version = auth_answer(answer, reply);
    websocket::stream_base::timeout t{};
    t.handshake_timeout = settings_.connect_timeout;
    t.idle_timeout = websocket::stream_base::none();  // our heartbeat watches liveness
    t.keep_alive_pings = false;
    stream_.set_option(t);
    co_return version;
  }

 private:
  std::string auth_answer(const json::value& answer, const std::string& reply) const {
    const auto* rtype = answer.is_object() ? answer.as_object().if_contains("type") : nullptr;
    if (rtype && *rtype == "auth_ok") {
      const auto* v = answer.as_object().if_contains("ha_version");
      return v && v->is_string() ? settings_.token.scrub(std::string(v->as_string())) : std::string();
    }
    if (rtype && *rtype == "auth_invalid") {
      std::string msg = "auth_invalid";
      if (const auto* m = answer.as_object().if_contains("message"); m && m->is_string()) {
        msg += ": " + std::string(m->as_string());
      }
      throw HaException(make_error(ErrorCause::unauthorized, settings_.ws_url(), settings_.token.scrub(msg)));
    }
    throw HaException(make_error(ErrorCause::protocol_error, settings_.ws_url(),
                                 "unexpected reply to auth: " + settings_.token.scrub(reply).substr(0, 100)));
  }

  asio::awaitable<std::string> read_text() {
    beast::flat_buffer buffer;
    boost::system::error_code ec;
    co_await stream_.async_read(buffer, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) throw HaException(classify_network_error(ec, NetPhase::receive, net_context(settings_)));
    co_return beast::buffers_to_string(buffer.data());
  }

  asio::awaitable<void> write_text(const std::string& text) {
    boost::system::error_code ec;
    stream_.text(true);
    co_await stream_.async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) throw HaException(classify_network_error(ec, NetPhase::send, net_context(settings_)));
  }

  json::value parse_or_throw(const std::string& text) const {
    boost::system::error_code ec;
    json::value v = parse_ha_json(text, ec);
    if (ec) {
      throw HaException(
          make_error(ErrorCause::protocol_error, settings_.ws_url(), "malformed JSON frame (" + ec.message() + ")"));
    }
    return v;
  }

  Ws& stream_;
  const ConnectionSettings& settings_;
  const WsOptions& options_;
};

template <class Ws>
asio::awaitable<boost::system::error_code> read_frames_from(Ws& stream, const std::function<void()>& on_bytes,
                                                            const WsLink::FrameSink& sink) {
  for (;;) {
    beast::flat_buffer buffer;
    boost::system::error_code ec;
    // Read piecewise so progress on a huge frame keeps the heartbeat happy.
    do {
      co_await stream.async_read_some(buffer, 1u << 20, asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return ec;
      on_bytes();
    } while (!stream.is_message_done());
    ec = sink(std::move(buffer));
    if (ec) co_return ec;
  }
}

}  // namespace

struct WsLink::Stream {
  Stream(asio::any_io_executor strand, const ConnectionSettings& s, const WsOptions& o,
         std::shared_ptr<ssl::context> ctx)
      : executor(std::move(strand)), settings(s), options(o), ssl_ctx(std::move(ctx)) {}

  asio::any_io_executor executor;
  const ConnectionSettings& settings;
  const WsOptions& options;
  std::shared_ptr<ssl::context> ssl_ctx;  // set for TLS
  std::variant<std::monostate, std::unique_ptr<PlainWs>, std::unique_ptr<SecureWs>, std::unique_ptr<CustomWs>> ws;
};

namespace {

// Upgrade and auth, the same over every kind of stream.
template <class Ws>
asio::awaitable<std::string> upgrade_and_authenticate(Ws& ws, const ConnectionSettings& settings,
                                                      const WsOptions& options) {
  Handshake<Ws> steps(ws, settings, options);
  steps.configure();
  co_await steps.upgrade();
  std::string version = co_await steps.authenticate();
  co_return version;
}

}  // namespace

WsLink::WsLink(asio::any_io_executor strand, const ConnectionSettings& settings, const WsOptions& options,
               std::shared_ptr<ssl::context> ssl_ctx)
    : stream_(std::make_unique<Stream>(std::move(strand), settings, options, std::move(ssl_ctx))) {}

WsLink::~WsLink() = default;

asio::awaitable<WsLink::Opened> WsLink::open() {
  const auto& settings = stream_->settings;
  const auto& options = stream_->options;
  Opened out;
  if (options.connector) {
    std::unique_ptr<ByteStream> connected = co_await options.connector(stream_->executor);
    if (!connected) {
      out.error = make_error(ErrorCause::connection_refused, settings.ws_url(), "the stream connector failed");
      co_return out;
    }
    auto ws = std::make_unique<CustomWs>(AnyStream(std::move(connected)));
    auto& opened = *ws;
    stream_->ws = std::move(ws);
    out.version = co_await upgrade_and_authenticate(opened, settings, options);
    co_return out;
  }
  if (stream_->ssl_ctx) {
    auto ws = std::make_unique<SecureWs>(stream_->executor, *stream_->ssl_ctx);
    Connected tcp = co_await try_connect_tcp(beast::get_lowest_layer(*ws), settings);
    out.error = std::move(tcp.error);
    if (out.error) co_return out;
    co_await tls_handshake(ws->next_layer(), settings);
    auto& opened = *ws;
    stream_->ws = std::move(ws);
    out.version = co_await upgrade_and_authenticate(opened, settings, options);
    co_return out;
  }
  auto ws = std::make_unique<PlainWs>(stream_->executor);
  Connected tcp = co_await try_connect_tcp(beast::get_lowest_layer(*ws), settings);
  out.error = std::move(tcp.error);
  if (out.error) co_return out;
  auto& opened = *ws;
  stream_->ws = std::move(ws);
  out.version = co_await upgrade_and_authenticate(opened, settings, options);
  co_return out;
}

asio::awaitable<boost::system::error_code> WsLink::write(const std::string& text) {
  boost::system::error_code ec;
  if (auto* p = std::get_if<std::unique_ptr<PlainWs>>(&stream_->ws)) {
    (*p)->text(true);
    co_await (*p)->async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
  } else if (auto* s = std::get_if<std::unique_ptr<SecureWs>>(&stream_->ws)) {
    (*s)->text(true);
    co_await (*s)->async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
  } else if (auto* c = std::get_if<std::unique_ptr<CustomWs>>(&stream_->ws)) {
    (*c)->text(true);
    co_await (*c)->async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
  } else {
    ec = asio::error::not_connected;
  }
  co_return ec;
}

asio::awaitable<boost::system::error_code> WsLink::read_frames(const std::function<void()>& on_bytes,
                                                               const FrameSink& sink) {
  boost::system::error_code ec = asio::error::not_connected;
  if (auto* p = std::get_if<std::unique_ptr<PlainWs>>(&stream_->ws)) {
    ec = co_await read_frames_from(**p, on_bytes, sink);
  } else if (auto* s = std::get_if<std::unique_ptr<SecureWs>>(&stream_->ws)) {
    ec = co_await read_frames_from(**s, on_bytes, sink);
  } else if (auto* c = std::get_if<std::unique_ptr<CustomWs>>(&stream_->ws)) {
    ec = co_await read_frames_from(**c, on_bytes, sink);
  }
  co_return ec;
}

void WsLink::close() {
  boost::system::error_code ec;
  if (auto* p = std::get_if<std::unique_ptr<PlainWs>>(&stream_->ws)) beast::get_lowest_layer(**p).socket().close(ec);
  if (auto* s = std::get_if<std::unique_ptr<SecureWs>>(&stream_->ws)) beast::get_lowest_layer(**s).socket().close(ec);
  if (auto* c = std::get_if<std::unique_ptr<CustomWs>>(&stream_->ws)) (*c)->next_layer().close();
}

}  // namespace hamcp::ha::detail
