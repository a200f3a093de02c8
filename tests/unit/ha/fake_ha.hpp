#pragma once
// A small Home Assistant stand-in for WebSocket/REST protocol tests with exact
// fault injection (malformed frames, 100 MB frames, stalls, drops, revoked
// tokens). Loopback only, port 0. The full simulated home lives in src/sim.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <memory>
#include <string>

namespace hamcp::ha::testing {

class FakeHa {
 public:
  struct Options {
    std::string token = "good-token-0123456789";
    bool has_floor_label_category = true;  // false: like HA < 2024.4 (unknown_command)
    std::size_t extra_sensors = 0;
  };
  FakeHa();
  explicit FakeHa(Options options);
  ~FakeHa();

  std::uint16_t port() const;
  std::string url() const;  // http://127.0.0.1:<port>
  const std::string& token() const;

  // All of these run on the server thread and wait for it.
  void set_state(const std::string& entity_id, const std::string& state);
  void remove_entity(const std::string& entity_id);
  void add_area(const std::string& area_id, const std::string& name);  // fires area_registry_updated
  void drop_connections();                                             // abrupt close of every WebSocket
  void send_raw_to_all(const std::string& text);                       // e.g. a malformed frame
  void revoke_token();                                                 // future auth gets auth_invalid; drops sessions
  void stall_command(const std::string& type);                         // never answer this command type
  void set_big_entity_registry_bytes(std::size_t bytes);               // pad entity_registry/list to this size
  void set_refuse_websocket(bool refuse);                              // decline upgrades (HA without websocket_api)

  std::size_t websocket_sessions() const;  // sessions that completed auth
  std::size_t auth_attempts() const;       // auth messages received (good or bad)
  std::size_t command_count(const std::string& type) const;
  boost::json::value states_json() const;  // as GET /api/states

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::ha::testing
