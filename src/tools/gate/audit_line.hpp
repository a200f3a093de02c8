#pragma once
// What the audit log records of one call of a tool that can write: the
// client, the tool, the target (the identifying arguments only: ids, names,
// the action; never a config body or a value), the outcome and the journal
// id. The caller runs the redactor over the line before it is stored.

#include <boost/json/object.hpp>
#include <string_view>

#include "mcp/tool.hpp"

namespace hamcp::tools {

// The identifying arguments of a call, shortened (long strings cut, at most
// ten list items), taken before the handler runs.
boost::json::object audit_target(const boost::json::object& arguments);

// {client, session, read_only, tool, target, outcome, error?, edit_id?, ms}.
// outcome: "error" (structured "error" member; `error` is its code; "refused"
// for a read-only refusal), "preview" (a confirm-less destructive call that
// changed nothing) or "ok".
boost::json::object audit_line(std::string_view tool, boost::json::object target, const mcp::ToolResult& result,
                               const mcp::RequestContext& ctx, double ms);

}  // namespace hamcp::tools
