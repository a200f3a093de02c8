#pragma once
// A connected byte stream to Home Assistant that is not a TCP/TLS socket: the seam through which
// tests and the fuzz targets put an in-memory peer under the real WsClient and RestClient (the
// WebSocket upgrade, HA's auth, HTTP framing and every timeout still run over it). Production
// leaves the connector empty and connects over TCP/TLS as always.
//
// Contract (Asio's, for one stream): at most one read and one write outstanding; completions run
// as if posted (never inside the initiating call) with the handler's associated executor; a read
// of an empty buffer completes with 0 bytes; close() makes outstanding and later operations fail
// (the peer then reads end of stream).

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <functional>
#include <memory>

namespace hamcp::ha {

class ByteStream {
 public:
  using Handler = boost::asio::any_completion_handler<void(boost::system::error_code, std::size_t)>;

  ByteStream() = default;
  virtual ~ByteStream() = default;
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  virtual boost::asio::any_io_executor get_executor() const = 0;
  virtual void async_read_some(boost::asio::mutable_buffer into, Handler handler) = 0;
  virtual void async_write_some(boost::asio::const_buffer from, Handler handler) = 0;
  virtual void close() = 0;
};

// Makes a new connection on `executor` (the client's strand). May throw HaException (a classified
// connect failure, as a TCP connect would); must finish on its own (no connect timeout applies).
using StreamConnector =
    std::function<boost::asio::awaitable<std::unique_ptr<ByteStream>>(boost::asio::any_io_executor executor)>;

}  // namespace hamcp::ha
