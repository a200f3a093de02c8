// `hamcp sim`: the simulated Home Assistant alone, for tests, benchmarks and
// trying hamcp without a real instance. Prints the bound URL to stderr and one
// JSON line {"url": …} to stdout (scripts read the port of a --port 0 bind).
#include <pthread.h>

#include <boost/json.hpp>
#include <csignal>
#include <cstdio>

#include "app/commands.hpp"
#include "sim/server/sim_server.hpp"

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
  options.restart_gap = std::chrono::milliseconds(config.restart_gap_ms);
  sim::SimServer server(std::move(home), options);
  // SIGINT/SIGTERM are blocked before the server thread starts (it inherits
  // the mask) and taken synchronously below, so a stop is always clean.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  try {
    server.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hamcp sim: %s (is another process using the port? try --port 0)\n", e.what());
    return 1;
  }
  std::fprintf(stderr,
               "hamcp sim: simulated Home Assistant with %zu entities listening on %s (WebSocket %s/api/websocket)\n",
               entity_count, server.url().c_str(), server.url().c_str());
  std::string line = boost::json::serialize(boost::json::object{{"url", server.url()}});
  std::fprintf(stdout, "%s\n", line.c_str());
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  server.stop();
  std::fprintf(stderr, "hamcp sim: stopped (%s)\n", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
  return 0;
}

}  // namespace hamcp::app
