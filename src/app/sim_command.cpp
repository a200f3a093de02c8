// `hamcp sim`: the simulated Home Assistant alone, for tests, benchmarks and
// trying hamcp without a real instance. Prints the bound URL to stderr and one
// JSON line {"url": …} to stdout (scripts read the port of a --port 0 bind).
#include <csignal>
#include <cstdio>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/json.hpp>

#include "app/commands.hpp"
#include "sim/sim_server.hpp"

namespace hamcp::app {

int run_sim(const SimConfig& config) {
  if (config.token.empty()) {
    std::fprintf(stderr, "hamcp sim: --token must not be empty (clients authenticate with it)\n");
    return 2;
  }
  sim::Home home = config.entities == 0 ? sim::demo_home() : sim::generate_home(config.entities, config.seed);
  std::size_t entity_count = home.states.size();
  sim::SimServerOptions options;
  options.host = config.host;
  options.port = config.port;
  options.token = config.token;
  sim::SimServer server(std::move(home), options);
  try {
    server.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hamcp sim: %s (is another process using the port? try --port 0)\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "hamcp sim: simulated Home Assistant with %zu entities listening on %s (WebSocket %s/api/websocket)\n",
               entity_count, server.url().c_str(), server.url().c_str());
  std::string line = boost::json::serialize(boost::json::object{{"url", server.url()}});
  std::fprintf(stdout, "%s\n", line.c_str());
  std::fflush(stdout);

  // Stop cleanly on SIGINT/SIGTERM.
  boost::asio::io_context signals_ioc;
  boost::asio::signal_set signals(signals_ioc, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) server.stop();
  });
  std::thread signal_thread([&] { signals_ioc.run(); });
  server.wait();
  signals_ioc.stop();
  signal_thread.join();
  std::fprintf(stderr, "hamcp sim: stopped\n");
  return 0;
}

}  // namespace hamcp::app
