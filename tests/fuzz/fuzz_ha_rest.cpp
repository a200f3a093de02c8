// libFuzzer target: raw bytes as Home Assistant's answer to a REST request, read by hamcp's real
// RestClient (src/ha/rest_client.cpp) over an in-memory connection (RestClient::set_connector,
// tests/support/memory_pipe.hpp: no sockets, no system calls per input): Beast's response parser
// (status line, headers, chunked/Content-Length bodies, keep-alive and the connection pool), the
// TLS-record sniff and error classification of a failed read (src/ha/classify.cpp), the typed
// HaError of a non-2xx status (errors.cpp: explanation, fix, JSON form), and the JSON body parse.
//
// A tiny server on the same io_context (driven from the fuzzing thread) reads hamcp's whole request,
// writes the input (after its first byte) as the response, and closes. It also listens on loopback
// TCP, the port in hamcp's URL: when a failure is ambiguous hamcp probes that port (does it speak
// TLS?), and the probe gets the same answer. The first byte picks the call: GET get_json,
// POST post_json, or a raw GET whose body is then parsed with Response::json().
//
// Oracles besides the sanitizers: every call ends (the server always closes, so no timeout), and
// the access token never comes back out in an error, even when HA echoes it ($TOKEN in an input
// becomes the token hamcp sent in its Authorization header).
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "ha/connection_config.hpp"
#include "ha/detail/any_stream.hpp"
#include "ha/rest_client.hpp"
#include "support/memory_pipe.hpp"

namespace {

using namespace hamcp;
namespace asio = boost::asio;
namespace json = boost::json;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

constexpr const char* kToken = "fuzz-access-token-0123456789";

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_ha_rest oracle failed: %s\n", what.c_str());
  std::abort();
}

// Answers every connection (in memory, or a probe over TCP) with the current response bytes, then
// closes it. Runs on the harness's
// io_context, on the fuzzing thread next to the client: no thread hand-offs (on a loaded 2-core
// machine each costs a time slice; the first version served from its own thread).
class ScriptedHttpServer {
 public:
  explicit ScriptedHttpServer(asio::io_context& io)
      : acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    asio::co_spawn(io, accept_loop(), asio::detached);
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  // For RestClient::set_connector: a new in-memory connection, served like an accepted one.
  std::unique_ptr<ha::ByteStream> connect() {
    test::MemoryPipe pipe = test::make_memory_pipe(acceptor_.get_executor());
    asio::co_spawn(acceptor_.get_executor(), serve(ha::detail::AnyStream(std::move(pipe.server))), asio::detached);
    return std::move(pipe.client);
  }
  void set_response(std::string bytes) { response_ = std::move(bytes); }
  std::uint64_t served() const { return served_; }

 private:
  asio::awaitable<void> accept_loop() {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket socket = co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, ec));
      if (!ec) asio::co_spawn(acceptor_.get_executor(), serve(std::move(socket)), asio::detached);
    }
  }

  // $TOKEN -> the token hamcp sent. A body grows by the difference, so Content-Length (when it is
  // a plain number) grows with it: seeds stay well-formed HTTP.
  static void echo_token(std::string& response, const std::string& token) {
    const std::size_t body_at = response.find("\r\n\r\n");
    std::size_t in_body = 0;
    for (std::size_t at = 0; (at = response.find("$TOKEN", at)) != std::string::npos; at += token.size()) {
      if (body_at != std::string::npos && at > body_at) ++in_body;
      response.replace(at, 6, token);
    }
    const std::size_t length_at = response.find("Content-Length: ");
    if (in_body == 0 || length_at == std::string::npos || length_at > response.find("\r\n\r\n")) return;
    const std::size_t digits = length_at + 16, end = response.find("\r\n", digits);
    const std::string number = response.substr(digits, end - digits);
    if (number.empty() || number.size() > 9 || number.find_first_not_of("0123456789") != std::string::npos) return;
    const std::size_t grown = std::stoul(number) + in_body * (token.size() - 6);
    response.replace(digits, end - digits, std::to_string(grown));
  }

  // hamcp's whole request (head and Content-Length body), or "" for what is not an HTTP request.
  template <class Stream>
  static asio::awaitable<std::string> read_request(Stream& socket) {
    boost::system::error_code ec;
    // hamcp's refinement of some failures probes the port with a TLS ClientHello: answer whatever
    // is not an HTTP request at once (a TLS port would answer too) instead of waiting for "\r\n\r\n".
    char first[8] = {};
    const std::size_t n =
        co_await socket.async_read_some(asio::buffer(first), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return std::string();
    const std::string_view start(first, n);
    if (start.rfind("GET ", 0) != 0 && start.rfind("POST ", 0) != 0 && start.rfind("DELETE ", 0) != 0)
      co_return std::string();
    std::string head(first, n);
    asio::streambuf in;
    const std::size_t header_end =
        co_await asio::async_read_until(socket, in, "\r\n\r\n", asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return std::string();
    head.append(asio::buffers_begin(in.data()), asio::buffers_begin(in.data()) + header_end);
    std::size_t body = 0;
    if (auto at = head.find("Content-Length: "); at != std::string::npos) body = std::stoul(head.substr(at + 16));
    if (in.size() - header_end < body) {
      co_await asio::async_read(socket, in, asio::transfer_exactly(body - (in.size() - header_end)),
                                asio::redirect_error(asio::use_awaitable, ec));
    }
    co_return head;
  }

  template <class Stream>
  asio::awaitable<void> serve(Stream socket) {
    const std::string head = co_await read_request(socket);
    std::string token;
    if (auto at = head.find("Bearer "); at != std::string::npos)
      token = head.substr(at + 7, head.find("\r\n", at) - at - 7);
    std::string response = response_;
    echo_token(response, token);
    boost::system::error_code ec;
    co_await asio::async_write(socket, asio::buffer(response), asio::redirect_error(asio::use_awaitable, ec));
    finish(socket);
    ++served_;
  }

  static void finish(tcp::socket& socket) {
    boost::system::error_code ec;
    socket.shutdown(tcp::socket::shutdown_send, ec);
    socket.close(ec);
  }
  static void finish(ha::detail::AnyStream& stream) { stream.close(); }  // hamcp reads the rest, then EOF

  tcp::acceptor acceptor_;
  std::string response_;
  std::uint64_t served_ = 0;
};

struct World {
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> guard = asio::make_work_guard(io);
  std::unique_ptr<ScriptedHttpServer> server;
  std::unique_ptr<ha::RestClient> rest;
};
World* world = nullptr;

// The whole token: a part of it may legitimately come from HA itself (a body that Content-Length
// cuts in the middle of an echoed token). Excerpts that hamcp cuts are covered by unit tests
// (tests/unit/ha: EchoedTokenCutByTheExcerpt...).
bool has_token_part(std::string_view text) { return text.find(kToken) != std::string_view::npos; }

// Set per input: libFuzzer learns the token from the oracle's own comparisons and may write it
// into an input literally; then the text came from HA, not from hamcp's token.
bool input_names_token = false;

void check_no_token(const std::string& text) {
  if (!input_names_token && has_token_part(text)) fail("the access token reached an error message: " + text);
}

void check_error(const ha::HaError& e) {
  check_no_token(e.message());
  check_no_token(json::serialize(e.to_json()));
  (void)e.retryable();
}

asio::awaitable<void> call(int which) {
  try {
    if (which == 0) {
      json::value v = co_await world->rest->get_json("/api/states");
      (void)json::serialize(v);
    } else if (which == 1) {
      json::object body;
      body["entity_id"] = "light.kitchen";
      json::value v = co_await world->rest->post_json("/api/services/light/turn_on", body);
      (void)json::serialize(v);
    } else {
      ha::Response r = co_await world->rest->get("/api/config");
      try {
        if (r.ok()) (void)r.json();
      } catch (const ha::HaException&) {
        // Response::json() knows no token (its excerpt is the caller's to scrub, as get_json does).
      }
    }
  } catch (const ha::HaException& e) {
    check_error(e.error());
  }
}

asio::awaitable<std::unique_ptr<ha::ByteStream>> connect_to_server() { co_return world->server->connect(); }

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  world = new World();
  world->server = std::make_unique<ScriptedHttpServer>(world->io);
  ha::ConnectionInput input;
  input.url = "http://127.0.0.1:" + std::to_string(world->server->port());
  input.token = kToken;
  input.timeout = 5000ms;
  auto settings = ha::make_connection_settings(input);
  if (!std::holds_alternative<ha::ConnectionSettings>(settings)) fail("bad connection settings");
  world->rest =
      std::make_unique<ha::RestClient>(world->io.get_executor(), std::get<ha::ConnectionSettings>(std::move(settings)));
  ha::RetryPolicy once;
  once.max_attempts = 1;  // a 503 must not cost a backoff sleep per input
  world->rest->set_retry_policy(once);
  world->rest->set_connector([](const asio::any_io_executor&) { return connect_to_server(); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input_names_token = has_token_part(std::string_view(reinterpret_cast<const char*>(data), size));
  if (size == 0) return 0;
  world->server->set_response(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  bool done = false;
  asio::co_spawn(world->io, call(data[0] % 3), [&done](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
    done = true;
  });
  // Client and server run here, on the fuzzing thread; a short wait only when just timers are left.
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!done) {
    if (std::chrono::steady_clock::now() > deadline) fail("a REST call never completed");
    if (world->io.poll() == 0) world->io.run_one_for(1ms);
  }
  return 0;
}
