#pragma once
// Writing a config through Home Assistant: validate it first (WebSocket
// validate_config for triggers/conditions/actions, then the config editor's
// own schema check), write it once (never retried), and wait, bounded, until
// the mirror shows the entity appear or disappear. Every failure says
// exactly what was and was not written.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <string>
#include <string_view>

#include "tools/config/config_target.hpp"

namespace hamcp::tools::config {

// "@ data['actions'][0]['target']" in a voluptuous message -> "/actions/0/target"
// ("" when the message names no path).
std::string path_in_message(std::string_view message);

// The path in the caller's config that HA's config editor names in a 400
// message: a scene is validated as {"states":[<config>]}, so its
// "/states/0/entities" is the config's "/entities".
std::string path_in_config(Kind kind, std::string_view message);

// Asks HA to validate the parts of `config` it can check without saving
// (automation: triggers, conditions, actions; script: sequence). Throws
// "invalid_config" naming the path; nothing is written.
boost::asio::awaitable<void> validate_with_ha(ToolEnv& env, Kind kind, const json::object& config);

// POSTs the config once. HA refusing it (400: schema) -> "invalid_config",
// written:false; no answer (timeout, dropped connection) or HA failing while
// handling it (5xx) -> "write_outcome_unknown".
boost::asio::awaitable<void> write_config(ToolEnv& env, Kind kind, const std::string& key, const json::object& config);

// DELETE once; same failure rules. A missing item is "config_not_found".
boost::asio::awaitable<void> delete_config(ToolEnv& env, Kind kind, const std::string& key);

struct WaitReport {
  bool done = false;      // the entity appeared / disappeared in time
  std::string entity_id;  // the item's entity (when known)
  std::int64_t waited_ms = 0;
  json::object to_json(bool present) const;
};

// Polls the mirror until an entity for `key` is present (or absent), at most `timeout`.
boost::asio::awaitable<WaitReport> wait_for_entity(ToolEnv& env, Kind kind, std::string key, bool present,
                                                   std::chrono::milliseconds timeout);

}  // namespace hamcp::tools::config
