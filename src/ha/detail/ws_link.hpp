#pragma once
// One WebSocket connection to Home Assistant, plain or TLS (or over the stream
// WsOptions::connector makes): TCP connect, TLS handshake, the upgrade, HA's
// auth exchange, then whole text frames written and read. Knows nothing of ids,
// commands or reconnecting (WsClient does).
// Threading: strand only. A WsLink is held by shared_ptr so a writer still
// finishing its last write keeps the stream alive after the link was dropped.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/system/error_code.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "ha/connection_config.hpp"
#include "ha/errors.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha::detail {

class WsLink {
 public:
  // What read_frames() does with each whole frame; a set error code stops
  // reading and is returned.
  using FrameSink = std::function<boost::system::error_code(boost::beast::flat_buffer)>;

  WsLink(boost::asio::any_io_executor strand, const ConnectionSettings& settings, const WsOptions& options,
         std::shared_ptr<boost::asio::ssl::context> ssl_ctx);
  ~WsLink();
  WsLink(const WsLink&) = delete;
  WsLink& operator=(const WsLink&) = delete;

  // What open() gives: the ha_version of auth_ok (token scrubbed), or why no
  // connection was made.
  struct Opened {
    std::string version;
    std::optional<HaError> error;
  };
  // Connect, upgrade and authenticate. A failed connect (HA down: the failure
  // every reconnect loop sees most) is returned in error, not thrown; later
  // failures (TLS, upgrade, auth) throw HaException with a classified error.
  boost::asio::awaitable<Opened> open();
  boost::asio::awaitable<boost::system::error_code> write(const std::string& text);
  // Reads frames until the connection fails or sink says stop. on_bytes runs
  // on every chunk of a frame: progress on a huge frame counts as alive.
  boost::asio::awaitable<boost::system::error_code> read_frames(const std::function<void()>& on_bytes,
                                                                const FrameSink& sink);
  void close();

 private:
  struct Stream;
  std::unique_ptr<Stream> stream_;
};

}  // namespace hamcp::ha::detail
