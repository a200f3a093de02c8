#pragma once
// Runtime actions on an automation, script or scene after (or without) a
// config write: enable/disable an automation, run it (automation.trigger,
// script.turn_on with variables, scene.turn_on), stop a script, set its
// category. Each is one service call, never retried.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <optional>
#include <string>

#include "tools/config/config_target.hpp"

namespace hamcp::tools::config {

struct RuntimeRequest {
  std::optional<bool> enabled;
  std::optional<std::string> run;  // "start" | "stop"
  json::object variables;
  std::optional<std::string> category;
  bool any() const { return enabled || run || category; }
};

// From the arguments, with ha-mcp's run_actions / activate / run as synonyms.
// Throws bad_argument for an action the kind does not have.
RuntimeRequest runtime_request_of(const Args& args, Kind kind);

// Performs the actions in order; returns {"enabled":..,"run":..,"category":..}
// for what was done. A failure throws ToolException whose extra holds
// "done" (what succeeded before it).
boost::asio::awaitable<json::object> run_runtime(ToolEnv& env, Kind kind, const std::string& entity_id,
                                                 const RuntimeRequest& request);

}  // namespace hamcp::tools::config
