// mcp_fixture_server: hamcp's protocol core and transports serving the conformance suite's
// fixtures (and, with --e2e, the extra tools of the end-to-end client tests).
//
//   mcp_fixture_server [--host 127.0.0.1] [--port 0] [--data-dir DIR]   Streamable HTTP
//   mcp_fixture_server --stdio                                          stdio
//   common: [--e2e] [--extra-tools N] [--page-size N]
//
// HTTP mode prints "mcp_fixture_server: listening on http://HOST:PORT/mcp" on stdout once it
// accepts connections (tests start it on port 0 and read the port from that line).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "conformance/fixtures.hpp"
#if HAMCP_FIXTURE_HAS_HTTP
#include "mcp/http/http_server.hpp"
#endif
#include "common/guarded_main.hpp"
#include "mcp/server.hpp"
#include "mcp/stdio_transport.hpp"

namespace asio = boost::asio;
using namespace hamcp;

namespace {

int serve_stdio(asio::io_context& io, mcp::Server& server, asio::signal_set& signals) {
  mcp::StdioTransport transport(server);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) transport.stop();
  });
  asio::co_spawn(io, transport.run(), [&](std::exception_ptr e) {
    signals.cancel();
    server.shutdown();
    io.stop();
    if (e) std::rethrow_exception(e);
  });
  io.run();
  return 0;
}

#if HAMCP_FIXTURE_HAS_HTTP
// Serves Streamable HTTP until SIGINT/SIGTERM; the data dir is a fresh temp dir
// (removed at exit) unless one is given.
int serve_http(asio::io_context& io, mcp::Server& server, asio::signal_set& signals, const std::string& host,
               std::uint16_t port, const std::string& data_dir) {
  std::filesystem::path dir = data_dir;
  bool temp_dir = false;
  if (dir.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "mcp-fixture-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::perror("mcp_fixture_server: mkdtemp");
      return 1;
    }
    dir = pattern;
    temp_dir = true;
  } else {
    std::filesystem::create_directories(dir);
  }
  mcp::http::HttpServerOptions http_options;
  http_options.listener.host = host;
  http_options.listener.port = port;
  http_options.data_dir = dir;
  mcp::http::HttpServer http(server, io.get_executor(), http_options);
  try {
    http.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mcp_fixture_server: %s\n", e.what());
    return 1;
  }
  std::printf("mcp_fixture_server: listening on %s\n", http.url().c_str());
  std::fflush(stdout);
  asio::steady_timer exit_timer(io);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (ec) return;
    http.stop(std::chrono::milliseconds(500));
    server.shutdown();
    exit_timer.expires_after(std::chrono::milliseconds(700));
    exit_timer.async_wait([&](const boost::system::error_code&) { io.stop(); });
  });
  io.run();
  if (temp_dir) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  return 0;
}
#endif

}  // namespace

static int run_main(int argc, char** argv) {
  CLI::App app{"MCP conformance fixture server (hamcp's protocol core and transports)"};
  bool stdio = false, e2e = false;
  std::string host = "127.0.0.1", data_dir, log_level = "warn";
  std::uint16_t port = 0;
  std::size_t extra_tools = 0, page_size = 100;
  app.add_flag("--stdio", stdio, "Serve stdio instead of Streamable HTTP");
  app.add_option("--host", host, "Address to bind (HTTP)");
  app.add_option("--port", port, "Port to bind (HTTP; 0 = any free port, printed)");
  app.add_option("--data-dir", data_dir, "Session key / revocation dir (HTTP; default: a fresh temp dir)");
  app.add_flag("--e2e", e2e, "Also register the end-to-end test tools (slow_echo, log_burst)");
  app.add_option("--extra-tools", extra_tools, "Register N page_tool_NNN tools (implies --e2e)");
  app.add_option("--page-size", page_size, "Items per tools/list page")->check(CLI::Range(1, 1000));
  app.add_option("--log-level", log_level, "stderr log level");
  CLI11_PARSE(app, argc, argv);

  // stdout is the protocol channel in stdio mode: every log line goes to stderr.
  spdlog::set_default_logger(spdlog::stderr_color_mt("fixture"));
  spdlog::set_level(spdlog::level::from_str(log_level));

  asio::io_context io;
  mcp::ServerOptions options;
  options.name = "hamcp-conformance-fixture";
  options.version = HAMCP_VERSION;
  options.page_size = page_size;
  mcp::Server server(io.get_executor(), options);
  conformance::register_conformance_fixtures(server.registry());
  conformance::register_modern_fixtures(server);
  conformance::register_task_fixtures(server);
  if (e2e || extra_tools > 0) conformance::register_e2e_tools(server.registry(), extra_tools);

  asio::signal_set signals(io, SIGINT, SIGTERM);
  if (stdio) return serve_stdio(io, server, signals);
#if HAMCP_FIXTURE_HAS_HTTP
  return serve_http(io, server, signals, host, port, data_dir);
#else
  std::fprintf(stderr, "mcp_fixture_server: built without the HTTP server (src/mcp/http): only --stdio works\n");
  return 2;
#endif
}

int main(int argc, char** argv) { return hamcp::common::guarded_main(argc, argv, run_main); }
