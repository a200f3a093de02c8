#pragma once
// Internal (Beast in the header): a ByteStream (ha/byte_stream.hpp) as a stream Beast's WebSocket
// and HTTP code can use, beside beast::tcp_stream and the TLS stream. It adds what those get from
// tcp_stream: an expiry for REST exchanges (expires_after: when it runs out the stream is closed
// and timed_out() says why, so the caller reports a timeout), and the close/teardown hooks Beast's
// WebSocket stream calls on its own timeouts and failures.

#include <boost/asio/append.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/role.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "ha/byte_stream.hpp"

namespace hamcp::ha::detail {

class AnyStream {
 public:
  using executor_type = boost::asio::any_io_executor;

  explicit AnyStream(std::unique_ptr<ByteStream> stream) : state_(std::make_shared<State>(std::move(stream))) {}

  executor_type get_executor() const { return state_->stream->get_executor(); }

  // A read fills the first non-empty buffer of the sequence (a partial read, which Beast's composed
  // operations continue).
  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [](auto handler, const std::shared_ptr<State>& state, boost::asio::mutable_buffer into) {
          state->stream->async_read_some(into, ByteStream::Handler(std::move(handler)));
        },
        token, state_, first_buffer(buffers));
  }

  // A write sends the sequence as one piece, as a socket's gathering write does (Beast writes an
  // HTTP head as a dozen small buffers; a peer reading it should see it as over TCP): the buffers
  // are copied into one, up to kGatherBytes (a bigger first buffer goes alone).
  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [](auto handler, const std::shared_ptr<State>& state, boost::asio::const_buffer from) {
          state->stream->async_write_some(from, ByteStream::Handler(std::move(handler)));
        },
        token, state_, gathered(buffers));
  }

  void close() { state_->stream->close(); }

  // When `after` has passed (and expires_never() was not called first), the stream is closed:
  // what is outstanding fails, and timed_out() is true until the next expires_after().
  void expires_after(std::chrono::steady_clock::duration after) {
    state_->timed_out = false;
    state_->timer.expires_after(after);
    state_->timer.async_wait([weak = std::weak_ptr<State>(state_)](boost::system::error_code ec) {
      auto state = weak.lock();
      if (ec || !state) return;
      state->timed_out = true;
      state->stream->close();
    });
  }
  void expires_never() { state_->timer.cancel(); }
  bool timed_out() const { return state_->timed_out; }

 private:
  struct State {
    explicit State(std::unique_ptr<ByteStream> s) : stream(std::move(s)), timer(stream->get_executor()) {}
    std::unique_ptr<ByteStream> stream;
    boost::asio::steady_timer timer;
    bool timed_out = false;
    std::string scratch;  // a gathered write's bytes
  };

  static constexpr std::size_t kGatherBytes = std::size_t{64} * 1024;

  template <class MutableBuffers>
  static boost::asio::mutable_buffer first_buffer(const MutableBuffers& buffers) {
    for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
      boost::asio::mutable_buffer b(*it);
      if (b.size() > 0) return b;
    }
    return {};
  }

  // The buffers' bytes as one buffer (in state_'s scratch, which lives until the write completed:
  // one write is outstanding at a time).
  template <class ConstBuffers>
  boost::asio::const_buffer gathered(const ConstBuffers& buffers) {
    std::string& scratch = state_->scratch;
    scratch.clear();
    boost::asio::const_buffer single;
    int pieces = 0;
    for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
      boost::asio::const_buffer b(*it);
      if (b.size() == 0) continue;
      if (pieces == 0 && b.size() >= kGatherBytes) return b;
      if (scratch.size() + b.size() > kGatherBytes) break;
      if (pieces++ == 0) single = b;
      scratch.append(static_cast<const char*>(b.data()), b.size());
    }
    if (pieces <= 1) return single;  // nothing to gather: no copy
    return boost::asio::buffer(scratch);
  }

  std::shared_ptr<State> state_;
};

// Beast's WebSocket stream closes its lowest layer on a timeout, and tears it down at the end.
inline void beast_close_socket(AnyStream& stream) { stream.close(); }

inline void teardown(boost::beast::role_type, AnyStream& stream, boost::system::error_code& ec) {
  stream.close();
  ec = {};
}

template <class TeardownHandler>
void async_teardown(boost::beast::role_type, AnyStream& stream, TeardownHandler&& handler) {
  stream.close();
  boost::asio::post(stream.get_executor(),
                    boost::asio::append(std::forward<TeardownHandler>(handler), boost::system::error_code{}));
}

}  // namespace hamcp::ha::detail
