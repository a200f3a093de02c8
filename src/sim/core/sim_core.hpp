#pragma once
// Everything the simulated Home Assistant knows and does, independent of the
// network: the state store, the actions, the access token, and the test
// faults that change how the core answers. REST (rest_api.hpp) and WebSocket
// (ws_connection.hpp) are thin protocol layers over this; server/sim_server.cpp is
// the only Beast code.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "sim/core/services.hpp"
#include "sim/core/sim_auth.hpp"
#include "sim/core/state_store.hpp"

namespace hamcp::sim {

// One request a client made: channel "ws" (what = the command type, or
// "call_service domain.service") or the REST method (what = the path).
struct ReceivedRequest {
  std::string channel;
  std::string what;
  std::string message;  // the whole request as received (WS message, REST target + body): what it named
};

struct SystemLogEntry {
  std::string name;
  std::string message;
  std::string level;
  std::string source_file;
  int source_line = 0;
  Timestamp timestamp = 0;
  int count = 1;
};

class SimCore {
 public:
  SimCore(Home home, std::string token);

  StateStore& store() { return store_; }
  Services& services() { return services_; }

  // Access token check (constant-time compare). A revoked token fails.
  bool token_ok(std::string_view token) const;
  // HA's own OAuth2: users, login flows, codes and the tokens it issued (also accepted by token_ok).
  SimAuth& auth() { return auth_; }
  void revoke_token() { revoked_ = true; }
  void restore_token() { revoked_ = false; }
  bool token_revoked() const { return revoked_; }
  // The token the test control endpoint accepts even while revoked.
  bool control_token_ok(std::string_view token) const;

  const std::string& ha_version() const { return store_.home().config.version; }
  json::object config_json();  // /api/config and get_config

  // Test faults the protocol layers honour.
  std::atomic<std::size_t> pad_registry_bytes{0};  // pad config/entity_registry/list to this size

  // States of entities disabled through the registry, restored on enable.
  std::map<std::string, EntityState> disabled_states;

  std::vector<SystemLogEntry>& system_log() { return system_log_; }
  // assistant -> entity_id -> exposed
  std::map<std::string, std::map<std::string, bool>>& exposure() { return exposure_; }

  // The record of received requests (tests prove what HA was asked, e.g. that
  // a read-only hamcp sent no write). Thread-safe; kept only while recording.
  void record_requests(bool on);
  bool recording() const { return recording_; }
  void note_request(std::string channel, std::string what, std::string message = {});
  std::vector<ReceivedRequest> received_requests() const;

 private:
  StateStore store_;
  Services services_;
  std::string token_;
  SimAuth auth_;
  std::atomic<bool> revoked_{false};
  std::vector<SystemLogEntry> system_log_;
  std::map<std::string, std::map<std::string, bool>> exposure_;
  std::atomic<bool> recording_{false};
  mutable std::mutex received_mutex_;
  std::vector<ReceivedRequest> received_;
};

}  // namespace hamcp::sim
