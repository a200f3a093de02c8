#include "mcp/stdio_transport.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "json/json_text.hpp"
#include "mcp/errors.hpp"

namespace hamcp::mcp {
namespace {

int dup_or_throw(int fd) {
  int copy = ::dup(fd);
  if (copy < 0) throw std::system_error(errno, std::generic_category(), "dup");
  return copy;
}

// The output side: every message goes through this one queue, so lines never
// interleave. Messages queued while a write is in flight are sent together.
class OutputChannel final : public Channel, public std::enable_shared_from_this<OutputChannel> {
 public:
  static constexpr std::size_t kCongestedBytes = std::size_t{256} * 1024;
  OutputChannel(asio::any_io_executor ex, int fd) : stream_(ex, dup_or_throw(fd)), drained_(ex) {
    drained_.expires_at(asio::steady_timer::time_point::max());
  }

  void send(json::value message) override {
    if (broken_) return;
    append_json_text(pending_, message);
    pending_ += '\n';
    if (!writing_) write_next();
  }
  void send_text(std::string text, const json::value&) override {
    if (broken_) return;
    pending_ += text;
    pending_ += '\n';
    if (!writing_) write_next();
  }
  bool is_open() const override { return !broken_; }
  // The client has not read the last kCongestedBytes yet: updates wait in the session.
  bool congested() const override { return pending_.size() + in_flight_.size() > kCongestedBytes; }

  // Waits until everything queued so far is written (or the output broke).
  asio::awaitable<void> flush() {
    while (!broken_ && (writing_ || !pending_.empty())) {
      boost::system::error_code ec;
      auto token = asio::redirect_error(asio::use_awaitable, ec);
      co_await drained_.async_wait(token);
    }
  }

  void close_descriptor() {
    boost::system::error_code ec;
    stream_.close(ec);
  }

 private:
  void write_next() {
    if (pending_.empty() || broken_) {
      drained_.cancel();
      return;
    }
    writing_ = true;
    in_flight_.swap(pending_);
    pending_.clear();
    auto self = shared_from_this();
    asio::async_write(stream_, asio::buffer(in_flight_), [self](const boost::system::error_code& ec, std::size_t) {
      self->writing_ = false;
      self->in_flight_.clear();
      if (ec) {
        // The client is gone (EPIPE): nothing more can be said.
        self->broken_ = true;
        spdlog::debug("stdio: output closed: {}", ec.message());
      }
      self->write_next();
    });
  }

  asio::posix::stream_descriptor stream_;
  asio::steady_timer drained_;
  std::string pending_, in_flight_;
  bool writing_ = false;
  bool broken_ = false;
};

}  // namespace

struct StdioTransport::Impl {
  Impl(Server& server, StdioOptions opts)
      : server(&server),
        options(opts),
        executor(server.executor()),
        input(executor, dup_or_throw(opts.input_fd)),
        output(std::make_shared<OutputChannel>(executor, opts.output_fd)),
        idle(executor) {}

  Server* server;  // outlives the transport (it made the session)
  StdioOptions options;
  asio::any_io_executor executor;
  asio::posix::stream_descriptor input;
  std::shared_ptr<OutputChannel> output;
  asio::steady_timer idle;  // for polling in-flight work during the EOF grace
  bool stopping = false;
};

StdioTransport::StdioTransport(Server& server, StdioOptions options)
    : impl_(std::make_shared<Impl>(server, options)), session_(server.create_session()) {
  session_->set_standalone_channel(impl_->output);
}

StdioTransport::~StdioTransport() {
  if (session_) session_->shutdown();
}

void StdioTransport::stop() {
  if (impl_->stopping) return;
  impl_->stopping = true;
  impl_->server->end_session(session_);  // the client is gone: so are its tasks
  boost::system::error_code ec;
  impl_->input.cancel(ec);
  impl_->idle.cancel();
}

namespace {

// Splits stdin's bytes into lines. A line longer than `max_line` is dropped up
// to its newline (reported once, when it crosses the limit) instead of being
// buffered whole.
class LineSplitter {
 public:
  explicit LineSplitter(std::size_t max_line) : max_line_(max_line) {}

  template <class OnLine, class OnOversize>
  void feed(std::string_view data, OnLine&& on_line, OnOversize&& on_oversize) {
    std::size_t start = 0;
    while (start < data.size()) {
      const std::size_t nl = data.find('\n', start);
      const std::size_t end = nl == std::string_view::npos ? data.size() : nl;
      if (!discarding_) {
        buffer_.append(data.substr(start, end - start));
        if (buffer_.size() > max_line_) {
          discarding_ = true;
          buffer_.clear();
          buffer_.shrink_to_fit();
          on_oversize();
        }
      }
      if (nl == std::string_view::npos) break;
      if (!discarding_) on_line(std::string_view(buffer_));
      buffer_.clear();
      discarding_ = false;
      start = end + 1;
    }
  }

  // The last line when the input ends without a newline.
  template <class OnLine>
  void finish(OnLine&& on_line) {
    if (!discarding_ && !buffer_.empty()) on_line(std::string_view(buffer_));
  }

 private:
  std::size_t max_line_;
  std::string buffer_;       // bytes read but not yet split into lines
  bool discarding_ = false;  // inside an oversize line: drop until its newline
};

}  // namespace

asio::awaitable<void> StdioTransport::run() {
  auto impl = impl_;
  auto session = session_;
  std::shared_ptr<Channel> out = impl->output;
  const std::size_t max_line = impl->options.max_line_bytes;

  std::vector<char> chunk(std::size_t{64} * 1024);
  LineSplitter lines(max_line);

  json::parse_options parse_options;
  parse_options.max_depth = 64;  // Boost.JSON's default of 32 is tight for nested automation configs
  auto handle_line = [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) return;  // blank line
    boost::system::error_code ec;
    json::value message = json::parse(line, ec, {}, parse_options);
    if (ec) {
      Session::reply_parse_error(*out, ec.message());
      return;
    }
    session->deliver(std::move(message), out);
  };
  auto refuse_oversize = [&] {
    out->send(
        make_error_response(nullptr, error_code::invalid_request,
                            "Invalid Request: message exceeds " + std::to_string(max_line) + " bytes; it was skipped"));
  };

  while (!impl->stopping) {
    boost::system::error_code ec;
    auto token = asio::redirect_error(asio::use_awaitable, ec);
    std::size_t n = co_await impl->input.async_read_some(asio::buffer(chunk), token);
    if (ec) {
      if (ec != asio::error::eof && ec != asio::error::operation_aborted)
        spdlog::warn("stdio: reading input failed: {}", ec.message());
      break;
    }
    lines.feed(std::string_view(chunk.data(), n), handle_line, refuse_oversize);
  }
  // A final line without newline still counts.
  if (!impl->stopping) lines.finish(handle_line);

  // EOF: give in-flight requests a short grace to answer, then cancel the rest.
  if (!impl->stopping) {
    auto deadline = std::chrono::steady_clock::now() + impl->options.eof_grace;
    while (!impl->stopping && session->in_flight() > 0 && std::chrono::steady_clock::now() < deadline) {
      boost::system::error_code ec;
      impl->idle.expires_after(std::chrono::milliseconds(5));
      auto token = asio::redirect_error(asio::use_awaitable, ec);
      co_await impl->idle.async_wait(token);
    }
  }
  impl->stopping = true;
  impl->server->end_session(session);  // stdin closed: the session and its tasks are over
  // Let cancelled coroutines unwind (they send nothing) before the final flush.
  {
    boost::system::error_code ec;
    impl->idle.expires_after(std::chrono::milliseconds(0));
    auto token = asio::redirect_error(asio::use_awaitable, ec);
    co_await impl->idle.async_wait(token);
  }
  co_await impl->output->flush();
  impl->output->close_descriptor();
  boost::system::error_code ec;
  impl->input.close(ec);
}

}  // namespace hamcp::mcp
