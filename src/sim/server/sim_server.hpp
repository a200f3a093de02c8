#pragma once
// The simulated Home Assistant as a loopback HTTP + WebSocket server
// (Boost.Beast; kept out of this header). One background thread serves
// REST (/api/...), the WebSocket API (/api/websocket) and the test control
// endpoint POST /api/hamcp_sim/fault (loopback peers, configured token).
//
//   SimServer sim(demo_home(), {.token = "t"});
//   uint16_t port = sim.start();          // port 0 in options => OS-assigned
//   sim.store().set_state(...);           // thread-safe
//   sim.drop_websockets();                // faults, see below
//   sim.stop();

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "sim/core/sim_core.hpp"
#include "sim/home/home_model.hpp"

namespace hamcp::sim {

struct SimServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: let the OS pick; start() returns the bound port
  std::string token = "sim-token";
  // How long restart() leaves the port closed before listening again (a real
  // Home Assistant restart takes seconds; tests keep it short).
  std::chrono::milliseconds restart_gap{50};
};

class SimServer {
 public:
  explicit SimServer(Home home, SimServerOptions options = {});
  ~SimServer();
  SimServer(const SimServer&) = delete;
  SimServer& operator=(const SimServer&) = delete;

  // Binds and serves on a background thread. Returns the bound port. Throws
  // std::runtime_error when the address cannot be bound.
  uint16_t start();
  // Closes the listener and every connection and joins the thread. State is kept.
  void stop();
  // Blocks the caller until stop() is called (from another thread or a signal).
  void wait();

  uint16_t port() const;
  std::string url() const;  // "http://127.0.0.1:PORT"
  const std::string& token() const;

  SimCore& core();
  StateStore& store();  // thread-safe

  // --- fault injection (all thread-safe; also reachable over HTTP, see
  // docs in sim_server.cpp / tests/fidelity/README.md)
  void drop_websockets();                                    // close every WebSocket now
  void set_response_delay(std::chrono::milliseconds delay);  // delay REST responses and WS frames
  void set_rest_failure(int status);                         // REST answers this 5xx status; 0 = off
  void send_malformed_frame();                               // one non-JSON text frame to every authenticated socket
  void set_registry_padding(std::size_t bytes);              // pad config/entity_registry/list to >= bytes
  void revoke_token();                                       // close authenticated sockets; new auth/REST fails
  void restore_token();
  // Drop everything, re-listen on the same port, state kept. Returns once the
  // listener is back (throws std::runtime_error when it cannot listen again).
  void restart();
  void clear_faults();                  // delay 0, no REST failure, no padding, token restored
  std::size_t websocket_count() const;  // open WebSocket connections

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::sim
