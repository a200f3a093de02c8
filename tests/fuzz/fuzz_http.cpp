// libFuzzer target: raw bytes as an HTTP/1.1 request to hamcp's HTTP server (the real MCP
// connection, routing, Streamable HTTP and legacy SSE), served in-process.
//
// Fast by design (no sockets per input, no wall-clock waits, no thread hand-offs): each input is
// served by the server's own connection class (mcp/http/mcp_connection.hpp, the one the TCP
// listener instantiates) over an in-memory stream (memory_stream.hpp): the input is what the
// client sent before it half-closed, and what the server writes is collected. The server, its
// state and a session are built once. Server and harness share ONE io_context on the fuzzing
// thread, polled (never run) until the server has closed the connection or nothing is ready any
// more (it then waits only on timers: an SSE stream, a slow tool). Then the client drops the
// connection and the server's disconnect handling runs too; timers of slow tools stay pending and
// fire during later inputs, as in production. So every input crosses the exact path a client's
// bytes take after accept: Beast's parser, size limits, framing checks, Host/Origin checks,
// session tokens, JSON-RPC, cancellation when a client goes away. (Campaigns 1-3 wrote each
// input to a fresh loopback TCP connection: same path, plus connect/accept/close system calls,
// which were most of the time outside the server's code.)
//
// The placeholder SESSION_ID in an input is replaced by a valid Mcp-Session-Id (minted by a real
// initialize at start-up), so inputs reach the code behind the session check, not only the 400s.
//
// Oracle besides the sanitizers: after every 64th input the server still answers a well-formed
// ping with HTTP 200, over a real loopback TCP connection through the listener (accept loop,
// admission, tcp_stream): bad input never takes the server down or wedges it.
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "conformance/fixtures.hpp"
#include "mcp/http/http_server.hpp"
#include "mcp/http/mcp_connection.hpp"
#include "mcp/server.hpp"
#include "memory_stream.hpp"

namespace {

using namespace hamcp;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct Served {
  asio::io_context io;
  std::unique_ptr<mcp::Server> server;
  std::unique_ptr<mcp::http::HttpServer> http;
  std::uint16_t port = 0;
  // For the in-memory connections: the server's request handler and connection limits.
  std::shared_ptr<const mcp::http::HttpHandler> handler;
  std::shared_ptr<net::ServerState> state;
  std::string session_id;
};

Served* served = nullptr;

// Polls the shared io_context until done() or until nothing is ready (bounded rounds).
template <class Done>
void drive(Done done) {
  for (int round = 0; round < 20000 && !done(); ++round) {
    if (served->io.stopped()) served->io.restart();
    if (served->io.poll() == 0 && served->io.poll() == 0) return;  // twice: a handler may just have queued I/O
  }
}

struct Exchange {
  explicit Exchange(asio::io_context& io) : socket(io) {}
  tcp::socket socket;
  std::string answer;
  bool done = false;
};

asio::awaitable<void> client(std::shared_ptr<Exchange> x, std::string bytes) {
  boost::system::error_code ec;
  co_await x->socket.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), served->port),
                                   asio::redirect_error(asio::use_awaitable, ec));
  if (ec) {
    std::fprintf(stderr, "fuzz_http: cannot connect to the server: %s\n", ec.message().c_str());
    std::abort();
  }
  co_await asio::async_write(x->socket, asio::buffer(bytes), asio::redirect_error(asio::use_awaitable, ec));
  x->socket.shutdown(tcp::socket::shutdown_send, ec);
  char buf[16384];
  while (!ec && x->answer.size() < (1u << 20)) {
    const std::size_t n =
        co_await x->socket.async_read_some(asio::buffer(buf), asio::redirect_error(asio::use_awaitable, ec));
    x->answer.append(buf, n);
  }
  x->done = true;
}

// Serves `bytes` as one client connection over the in-memory stream (the client half-closed after
// sending them); returns what the server answered before it closed or went quiet; then the
// client drops the connection and the server notices.
std::string serve_in_memory(std::string bytes) {
  auto pipe = std::make_shared<fuzz::Pipe>(std::move(bytes));
  const std::string client = "127.0.0.1";
  served->state->admission.admit(client);  // as the accept loop does; the connection releases it
  using Connection = mcp::http::detail::Connection<fuzz::MemoryStream>;
  auto conn = std::make_shared<Connection>(served->handler, served->state, client,
                                           asio::make_strand(served->io.get_executor()), pipe);
  asio::co_spawn(
      conn->conn_executor(), [conn]() { return conn->run(); }, asio::detached);  // the lambda keeps conn alive
  conn.reset();
  drive([&] { return pipe->closed; });
  pipe->peer_gone = true;
  drive([] { return false; });  // the server's side of the disconnect, until quiet
  return std::move(pipe->output);
}

// Sends `bytes` on a fresh loopback TCP connection, half-closes, returns what the server answered
// before it closed or went quiet; then drops the connection (if still open) and lets the server notice.
std::string exchange(const std::string& bytes) {
  auto x = std::make_shared<Exchange>(served->io);
  asio::co_spawn(served->io, client(x, bytes), asio::detached);
  drive([&] { return x->done; });
  boost::system::error_code ec;
  x->socket.close(ec);
  drive([] { return false; });  // the server's side of the disconnect, until quiet
  return std::move(x->answer);
}

std::string post(const std::string& body, const std::string& extra_headers) {
  return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\n" +
         extra_headers + "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

std::string header_value(const std::string& response, const std::string& lower_name) {
  std::string lower;
  lower.reserve(response.size());
  for (char c : response) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  auto at = lower.find("\r\n" + lower_name + ":");
  if (at == std::string::npos) return {};
  auto start = at + 2 + lower_name.size() + 1;
  auto end = response.find("\r\n", start);
  std::string v = response.substr(start, end - start);
  while (!v.empty() && v.front() == ' ') v.erase(v.begin());
  return v;
}

void mint_session();

void start_server() {
  spdlog::set_level(spdlog::level::off);
  served = new Served();
  mcp::ServerOptions options;
  options.name = "fuzz";
  options.version = "0";
  options.page_size = 5;
  options.client_request_timeout = std::chrono::milliseconds(50);
  served->server = std::make_unique<mcp::Server>(served->io.get_executor(), options);
  conformance::register_conformance_fixtures(served->server->registry());
  conformance::register_e2e_tools(served->server->registry(), 7);

  std::string dir = (std::filesystem::temp_directory_path() / "hamcp-fuzz-http-XXXXXX").string();
  if (!mkdtemp(dir.data())) std::abort();
  mcp::http::HttpServerOptions http_options;
  http_options.listener.host = "127.0.0.1";
  http_options.listener.port = 0;
  http_options.listener.header_timeout = std::chrono::milliseconds(500);
  http_options.listener.body_timeout = std::chrono::milliseconds(500);
  http_options.data_dir = dir;
  served->http = std::make_unique<mcp::http::HttpServer>(*served->server, served->io.get_executor(), http_options);
  served->port = served->http->start();
  served->handler = std::make_shared<const mcp::http::HttpHandler>(served->http->handler());
  served->state = std::make_shared<net::ServerState>(http_options.listener);

  mint_session();
}

void mint_session() {
  const std::string init =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{"sampling":{},"elicitation":{}},"clientInfo":{"name":"fuzz","version":"1"}}})";
  std::string answer = exchange(post(init, ""));
  served->session_id = header_value(answer, "mcp-session-id");
  if (served->session_id.empty()) {
    std::fprintf(stderr, "fuzz_http: initialize gave no Mcp-Session-Id:\n%s\n", answer.c_str());
    std::abort();
  }
  exchange(post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                "Mcp-Session-Id: " + served->session_id + "\r\n"));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  start_server();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  for (std::size_t at; (at = bytes.find("SESSION_ID")) != std::string::npos;) {
    bytes.replace(at, 10, served->session_id);
  }
  serve_in_memory(std::move(bytes));

  static unsigned counter = 0;
  if (++counter % 64 == 0) {  // liveness, sampled: a round trip per input would halve the speed
    const std::string live = R"({"jsonrpc":"2.0","id":"live","method":"ping"})";
    std::string answer = exchange(post(live, "Mcp-Session-Id: " + served->session_id + "\r\n"));
    if (answer.rfind("HTTP/1.1 404", 0) == 0) {
      // The input ended the session (DELETE): legitimate. Start a new one for the next inputs.
      mint_session();
      answer = exchange(post(live, "Mcp-Session-Id: " + served->session_id + "\r\n"));
    }
    if (answer.rfind("HTTP/1.1 200", 0) != 0) {
      std::fprintf(stderr, "fuzz_http: server stopped answering a valid ping after an input:\n%s\n",
                   answer.substr(0, 500).c_str());
      std::abort();
    }
  }
  return 0;
}
