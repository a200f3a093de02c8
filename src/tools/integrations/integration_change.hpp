#pragma once
// The two guarded writes of ha_set_integration: a reconfigure flow (identity
// checks against the entry's devices and entities, a preflight that shows the
// form and a confirm_token, then the flow) and a removal (config entry,
// subentry or storage helper; a preview of what goes until confirm=true).

#include <boost/asio/awaitable.hpp>

#include "tools/tool_spec.hpp"

namespace hamcp::tools::integrations {

boost::asio::awaitable<json::object> reconfigure_entry(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                       const json::object& entry);
boost::asio::awaitable<json::object> remove_integration(Args& args, ToolEnv& env, mcp::RequestContext& ctx);

}  // namespace hamcp::tools::integrations
