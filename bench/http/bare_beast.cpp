// bench_bare_beast: the yardstick of issue 9's throughput figure. A minimal
// single-threaded Boost.Beast coroutine HTTP/1.1 server that answers every
// request with one fixed JSON body (keep-alive), nothing else: the cost of the
// HTTP exchange itself on this machine, measured with the same load generator
// in the same run as hamcp.
//
//   bench_bare_beast --port 18990 [--body-file answer.json]
//
// Listens on 127.0.0.1 only. --body-file: serve those bytes (e.g. hamcp's own
// ha_get_state answer, so both servers send the same payload); default: a
// small JSON-RPC result. Runs until killed.
#include <CLI/CLI.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "common/guarded_main.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

asio::awaitable<void> serve(tcp::socket socket, std::shared_ptr<const std::string> body) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    boost::system::error_code ec;
    auto reading = http::async_read(stream, buffer, req, asio::redirect_error(asio::use_awaitable, ec));
    co_await std::move(reading);
    if (ec) break;
    http::response<http::string_body> res{http::status::ok, req.version()};
    res.set(http::field::server, "bare");
    res.set(http::field::content_type, "application/json");
    res.keep_alive(req.keep_alive());
    res.body() = *body;
    res.prepare_payload();
    auto writing = http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
    co_await std::move(writing);
    if (ec || !res.keep_alive()) break;
  }
  boost::system::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> accept_loop(tcp::acceptor acceptor, std::shared_ptr<const std::string> body) {
  for (;;) {
    auto accepting = acceptor.async_accept(asio::use_awaitable);
    tcp::socket socket = co_await std::move(accepting);
    asio::co_spawn(acceptor.get_executor(), serve(std::move(socket), body), asio::detached);
  }
}

}  // namespace

static int run_main(int argc, char** argv) {
  CLI::App app{"bench_bare_beast: a minimal Beast server answering a fixed JSON body (127.0.0.1)"};
  unsigned short port = 18990;
  std::string body_file;
  app.add_option("--port", port, "Port on 127.0.0.1");
  app.add_option("--body-file", body_file, "File whose bytes are the answer (default: a small JSON-RPC result)");
  CLI11_PARSE(app, argc, argv);
  std::string body = R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"on"}]}})";
  if (!body_file.empty()) {
    std::ifstream in(body_file, std::ios::binary);
    if (!in) {
      std::cerr << "cannot read --body-file " << body_file << "\n";
      return 1;
    }
    std::ostringstream text;
    text << in.rdbuf();
    body = text.str();
  }
  asio::io_context io(1);
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::co_spawn(io, accept_loop(std::move(acceptor), std::make_shared<const std::string>(std::move(body))),
                 asio::detached);
  std::cerr << "bench_bare_beast on 127.0.0.1:" << port << "\n";
  io.run();
  return 0;
}

int main(int argc, char** argv) { return hamcp::common::guarded_main(argc, argv, run_main); }
