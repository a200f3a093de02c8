#pragma once
// The composition root shared by serve_stdio and serve_http: one io_context
// (single-threaded: the whole MCP core runs on it) and the mcp::Server with
// hamcp's identity and instructions, with every tool family registered.
// Transports are added by the subcommands.

#include <boost/asio/io_context.hpp>
#include <memory>
#include <string_view>

#include "app/config.hpp"
#include "mcp/server.hpp"

namespace hamcp::sim {
class SimServer;
}
namespace hamcp::ha {
class HaClient;
}
namespace hamcp::app {
class Home;
}

namespace hamcp::app {

// hamcp's name, version and the instructions every client receives.
mcp::ServerOptions make_server_options(const Config& config);

// The hook where tool families (src/tools/) register on the server. Each family
// adds its tools/resources/prompts here; nothing HA-related is registered yet.
void register_tool_families(mcp::Server& server, const Config& config);

// spdlog's default logger -> stderr at `level` (debug, info, warn, error).
// stdout belongs to the protocol in stdio mode.
void configure_logging(std::string_view level);

class Runtime {
 public:
  explicit Runtime(const Config& config);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  boost::asio::io_context& io() { return io_; }
  mcp::Server& server() { return server_; }
  const Config& config() const { return config_; }
  ha::HaClient* ha();
  Home* home() { return home_.get(); }

 private:
  // Home Assistant connection + search index + the entity tools (owner: tools).
  // Never blocks or throws: an unreachable HA still gives a server whose tools
  // answer with the diagnosis. --demo points the client at an in-process sim.
  void connect_home();

  const Config& config_;
  boost::asio::io_context io_{1};  // concurrency hint 1: one thread runs everything
  mcp::Server server_;
  // Declared after io_/server_: destroyed first (the HA client stops before
  // the io_context goes away; the home stops before the demo sim it talks to).
  std::unique_ptr<sim::SimServer> demo_sim_;
  std::unique_ptr<Home> home_;
};

}  // namespace hamcp::app
