#pragma once
// Internal to ha_manage_app: its configure and repository actions.

#include <boost/asio/awaitable.hpp>
#include <string>

#include "tools/tool_spec.hpp"

namespace hamcp::tools::addons {

// options / network / boot / auto_update / watchdog in one POST
// /addons/<slug>/options; the previous configuration goes to the journal.
boost::asio::awaitable<mcp::ToolResult> configure(Args& args, ToolEnv& env);

// add_repository (a git URL) / remove_repository (its slug or URL; confirm).
boost::asio::awaitable<mcp::ToolResult> repository_action(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                          const std::string& action);

// One HTTP request into the add-on's own API (path, method, body, port; offset/limit).
boost::asio::awaitable<mcp::ToolResult> proxy(Args& args, ToolEnv& env);

}  // namespace hamcp::tools::addons
