// `hamcp` (default): MCP over stdin/stdout.
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/signal_set.hpp>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "app/commands.hpp"
#include "app/runtime.hpp"
#include "mcp/stdio_transport.hpp"

namespace hamcp::app {

int serve_stdio(const Config& config) {
  configure_logging(config.mcp.log_level);
  // stdout carries protocol messages only: keep a private copy of it for the
  // transport and point fd 1 at stderr, so a stray print anywhere in the
  // process can never corrupt the protocol stream.
  int protocol_out = ::dup(STDOUT_FILENO);
  if (protocol_out < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    spdlog::error("stdio: cannot set up stdout: {}", std::strerror(errno));
    return 1;
  }
  ::signal(SIGPIPE, SIG_IGN);  // a vanished client is an EPIPE error, not a kill

  std::unique_ptr<Runtime> runtime_holder;
  try {
    runtime_holder = std::make_unique<Runtime>(config);
  } catch (const std::invalid_argument& e) {  // e.g. --disable-tools names no tool
    spdlog::error("{}", e.what());
    return 2;
  }
  Runtime& runtime = *runtime_holder;
  mcp::StdioOptions options;
  options.output_fd = protocol_out;
  std::unique_ptr<mcp::StdioTransport> transport_holder;
  try {
    transport_holder = std::make_unique<mcp::StdioTransport>(runtime.server(), options);
  } catch (const std::exception& e) {  // e.g. stdin is closed
    spdlog::error("stdio: cannot use stdin/stdout: {}", e.what());
    ::close(protocol_out);
    return 1;
  }
  mcp::StdioTransport& transport = *transport_holder;
  ::close(protocol_out);

  boost::asio::signal_set signals(runtime.io(), SIGINT, SIGTERM);
  signals.async_wait([&transport](const boost::system::error_code& ec, int signal_number) {
    if (ec) return;
    spdlog::info("stdio: signal {}, shutting down", signal_number);
    transport.stop();
  });
  int exit_code = 0;
  boost::asio::co_spawn(runtime.io(), transport.run(), [&](std::exception_ptr error) {
    if (error) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        spdlog::error("stdio: {}", e.what());
        exit_code = 1;
      }
    }
    signals.cancel();
    runtime.server().shutdown();
    runtime.io().stop();  // the transport is done: do not wait on other work
  });
  spdlog::info("hamcp {} serving MCP on stdio", HAMCP_VERSION);
  runtime.io().run();
  return exit_code;
}

}  // namespace hamcp::app
