#pragma once
// A connected pair of in-memory byte streams (ha::ByteStream), for putting an in-memory Home
// Assistant under hamcp's real WsClient / RestClient (WsOptions::connector,
// RestClient::set_connector): what one end writes, the other reads. A read waits until the peer
// writes or closes (then end of stream); every completion is posted, never run inline. No system
// calls, no ports: a reconnect costs only what the client and server do on top (upgrade, auth).
//
// Threading: both ends on one io_context thread (or one strand); not thread-safe.

#include <boost/asio/append.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "ha/byte_stream.hpp"

namespace hamcp::test {

class MemoryPipeEnd;

namespace memory_pipe_detail {

// One direction: bytes written by one end and not yet read by the other.
struct Direction {
  std::string bytes;
  std::size_t read_at = 0;
  bool writer_closed = false;
  struct PendingRead {
    boost::asio::mutable_buffer into;
    ha::ByteStream::Handler handler;
  };
  std::optional<PendingRead> pending;  // the reader waits for bytes
};

struct Shared {
  boost::asio::any_io_executor executor;
  Direction to_server, to_client;
  bool closed[2] = {false, false};  // [0] client end, [1] server end
};

}  // namespace memory_pipe_detail

class MemoryPipeEnd final : public ha::ByteStream {
 public:
  using Shared = memory_pipe_detail::Shared;
  using Direction = memory_pipe_detail::Direction;

  MemoryPipeEnd(std::shared_ptr<Shared> shared, bool server) : shared_(std::move(shared)), server_(server) {}
  ~MemoryPipeEnd() override {
    try {
      close();
    } catch (...) {  // a destructor must not throw; closing only fails if a handler's post throws
    }
  }

  boost::asio::any_io_executor get_executor() const override { return shared_->executor; }

  void async_read_some(boost::asio::mutable_buffer into, Handler handler) override {
    Direction& in = incoming();
    if (shared_->closed[self()]) return complete(std::move(handler), boost::asio::error::operation_aborted, 0);
    if (into.size() == 0 || in.read_at < in.bytes.size()) return deliver(in, into, std::move(handler));
    if (in.writer_closed) return complete(std::move(handler), boost::asio::error::eof, 0);
    in.pending.emplace(Direction::PendingRead{into, std::move(handler)});
  }

  void async_write_some(boost::asio::const_buffer from, Handler handler) override {
    if (shared_->closed[self()]) return complete(std::move(handler), boost::asio::error::bad_descriptor, 0);
    if (shared_->closed[peer()]) return complete(std::move(handler), boost::asio::error::broken_pipe, 0);
    Direction& out = outgoing();
    out.bytes.append(static_cast<const char*>(from.data()), from.size());
    if (out.pending) {
      auto waiting = std::move(*out.pending);
      out.pending.reset();
      deliver(out, waiting.into, std::move(waiting.handler));
    }
    complete(std::move(handler), {}, from.size());
  }

  void close() override {
    if (shared_->closed[self()]) return;
    shared_->closed[self()] = true;
    Direction& in = incoming();
    if (in.pending) {  // our own read fails
      auto waiting = std::move(*in.pending);
      in.pending.reset();
      complete(std::move(waiting.handler), boost::asio::error::operation_aborted, 0);
    }
    Direction& out = outgoing();
    out.writer_closed = true;
    if (out.pending && out.read_at == out.bytes.size()) {  // the peer's read ends: end of stream
      auto waiting = std::move(*out.pending);
      out.pending.reset();
      complete(std::move(waiting.handler), boost::asio::error::eof, 0);
    }
  }

 private:
  int self() const { return server_ ? 1 : 0; }
  int peer() const { return server_ ? 0 : 1; }
  Direction& incoming() { return server_ ? shared_->to_server : shared_->to_client; }
  Direction& outgoing() { return server_ ? shared_->to_client : shared_->to_server; }

  void deliver(Direction& in, boost::asio::mutable_buffer into, Handler handler) {
    const std::size_t n = boost::asio::buffer_copy(into, boost::asio::buffer(in.bytes) + in.read_at);
    in.read_at += n;
    if (in.read_at == in.bytes.size()) {  // all read: reuse the buffer
      in.bytes.clear();
      in.read_at = 0;
    }
    complete(std::move(handler), {}, n);
  }

  void complete(Handler handler, boost::system::error_code ec, std::size_t n) {
    boost::asio::post(shared_->executor, boost::asio::append(std::move(handler), ec, n));
  }

  std::shared_ptr<Shared> shared_;
  bool server_;
};

struct MemoryPipe {
  std::unique_ptr<MemoryPipeEnd> client;
  std::unique_ptr<MemoryPipeEnd> server;
};

inline MemoryPipe make_memory_pipe(boost::asio::any_io_executor executor) {
  auto shared = std::make_shared<memory_pipe_detail::Shared>();
  shared->executor = std::move(executor);
  return {std::make_unique<MemoryPipeEnd>(shared, false), std::make_unique<MemoryPipeEnd>(shared, true)};
}

}  // namespace hamcp::test
