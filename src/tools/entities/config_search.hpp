#pragma once
// ha_search's config results: automations, scripts and scenes found by what
// is inside their configs (entity ids, services, trigger types, alias), from
// the config cache (home/config_cache.hpp) through the one search engine.
// Never waits for the cache unless asked: while it warms, the answer says
// how far it got (config_status) and entity results come as usual;
// ha-mcp's config_time_budget (seconds, at most 5) waits that long first.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <string>
#include <vector>

#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

// Adds "config_results" (and "config_status" while warming) to `body` when
// the call asks for configs: query text given, no entity-only filter, and
// search_types / domain (when given) naming automation, script or scene.
boost::asio::awaitable<void> add_config_results(Args& args, ToolEnv& env, const std::vector<std::string>& domains,
                                                std::size_t limit, json::object& body);

}  // namespace hamcp::tools
