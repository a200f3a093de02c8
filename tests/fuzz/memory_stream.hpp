#pragma once
// An in-memory stream for the fuzz targets: what a client sent is all there
// at once and the client has half-closed (a read returns it, then end of
// stream), what the server writes is collected for the harness. Every
// operation completes at once (posted, never inline), so nothing waits on a
// socket or the kernel: the server's own code (Beast's parser, the
// connection's loop, the handlers) is all that runs. Exactly what a loopback
// client that writes its input and then shuts down its sending side gives a
// server, without the system calls, accept and connection set-up per input.
//
// Threading: one io_context on the fuzzing thread; not thread-safe.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/append.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

namespace hamcp::fuzz {

// Both directions of one connection, shared by the stream and the harness.
struct Pipe {
  explicit Pipe(std::string input_bytes) : input(std::move(input_bytes)) {}
  std::string input;  // what the client sent (then it half-closed)
  std::size_t read_at = 0;
  std::string output;  // what the server wrote, up to output_limit
  std::size_t output_limit = 1u << 20;
  bool closed = false;     // the server closed its end
  bool peer_gone = false;  // the client dropped the connection: writes fail
};

class MemoryStream {
 public:
  using executor_type = boost::asio::any_io_executor;

  MemoryStream(executor_type executor, std::shared_ptr<Pipe> pipe)
      : executor_(std::move(executor)), pipe_(std::move(pipe)) {}

  executor_type get_executor() const { return executor_; }
  void close() { pipe_->closed = true; }

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, const MutableBuffers& into) {
          boost::system::error_code ec;
          std::size_t n = 0;
          Pipe& p = *pipe_;
          if (p.closed) {
            ec = boost::asio::error::bad_descriptor;
          } else if (p.peer_gone) {
            ec = boost::asio::error::connection_reset;
          } else if (p.read_at == p.input.size()) {
            ec = boost::asio::error::eof;  // the client shut down its sending side
          } else {
            n = boost::asio::buffer_copy(into, boost::asio::buffer(p.input) + p.read_at);
            p.read_at += n;
          }
          complete(std::move(handler), ec, n);
        },
        token, buffers);
  }

  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, const ConstBuffers& from) {
          boost::system::error_code ec;
          std::size_t n = 0;
          Pipe& p = *pipe_;
          if (p.closed) {
            ec = boost::asio::error::bad_descriptor;
          } else if (p.peer_gone || p.output.size() >= p.output_limit) {
            ec = boost::asio::error::broken_pipe;  // the client stopped reading and left
          } else {
            n = boost::asio::buffer_size(from);
            const std::size_t at = p.output.size();
            p.output.resize(at + n);
            boost::asio::buffer_copy(boost::asio::buffer(p.output.data() + at, n), from);
          }
          complete(std::move(handler), ec, n);
        },
        token, buffers);
  }

 private:
  // Never inline: asio's contract (and a coroutine awaiting it) needs the
  // completion to run after the initiating call returned.
  template <class Handler>
  void complete(Handler handler, boost::system::error_code ec, std::size_t n) {
    boost::asio::post(executor_, boost::asio::append(std::move(handler), ec, n));
  }

  executor_type executor_;
  std::shared_ptr<Pipe> pipe_;
};

}  // namespace hamcp::fuzz
