#pragma once
// One WebSocket call for the dashboard tools, sent once. A read's refusal is
// HA's error (its code kept in extra.ha_code); a write's refusal says nothing
// was written, and no answer at all says the outcome is unknown (hamcp never
// retries a write).

#include <boost/asio/awaitable.hpp>
#include <string>

#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::dashboards {

boost::asio::awaitable<json::value> ws_call(ToolEnv& env, json::object message, bool write, std::string what);

// The journal record of a write that is not a config save (metadata, resources, themes).
void journal(ToolEnv& env, json::object& body, std::string kind, std::string key, std::string action,
             json::value before, json::value after);

}  // namespace hamcp::tools::dashboards
