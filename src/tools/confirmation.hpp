#pragma once
// One confirmation shape for every destructive action (issue 14 item 5).
//
// A destructive call without confirm=true does nothing and answers
//   {"result":"preview","confirm_required":true,"action":..,"target":..,
//    "would_change":..,"note"?:..,"next":"call again with confirm=true", ..tool's own fields}
// When the client can be asked (elicitation), the user is asked instead:
// accept runs the action, decline/cancel answers the preview with
// "declined":true. 2025 era: an elicitation/create request; 2026-07-28 era:
// the same question as an InputRequiredResult (RequestContext::request does
// the round trip). A read-only session is never asked: it gets the preview
// (a read), and confirm=true is refused at the gate (read_only).
//
// Use in a destructive action (after its reads, before its write):
//   auto asking = confirm_or_preview(args, env, ctx,
//                                    Preview{"remove", json::string(id), json::object{{"removes", item}}, {},
//                                            {{"removed", false}}});
//   std::optional<mcp::ToolResult> preview = co_await std::move(asking);
//   if (preview) co_return std::move(*preview);
// Code without a RequestContext answers preview_result(Preview{...}) (nobody asked);
// an action table can re-run the action with confirm=true when ask_user() says yes.

#include <boost/asio/awaitable.hpp>
#include <optional>
#include <string>

#include "mcp/tool.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

struct Preview {
  std::string action;        // what would be done: "remove", "delete", "restart", "install"...
  json::value target;        // what it acts on: an id, or an object naming it
  json::value would_change;  // exactly what would change (object or array)
  std::string note;          // optional: a caveat ("configuration invalid: fix it first")
  json::object fields;       // the tool's own result fields, kept beside the shape (e.g. "removed":false)
};

inline constexpr std::string_view kPreviewNext = "call again with confirm=true";

// Asking through elicitation is on unless --no-elicit-confirm / ELICIT_CONFIRM=false
// turned it off: one setting for the whole process (app/runtime.cpp sets it).
void set_elicit_confirm(bool on);
bool elicit_confirm();

// The one preview shape (above). `fields` never overwrite the shape's members.
json::object preview_body(Preview preview);
mcp::ToolResult preview_result(Preview preview);
// True for a structuredContent in the one preview shape (audit_line.cpp).
bool is_preview_body(const json::object& body);

// The elicitation/create params asking the user about a preview body
// ("Remove X?" and what would change), a boolean `confirm` form.
json::object confirmation_request(const json::object& preview);

// Asks the user about a preview body when the client can be asked (not in a
// read-only session, not with --no-elicit-confirm): nullopt = the user
// accepted; otherwise the body, marked asked/declined when asked. For code
// that already holds a preview body (e.g. an action table that re-runs the
// action with confirm=true on acceptance).
boost::asio::awaitable<std::optional<json::object>> ask_user(ToolEnv& env, mcp::RequestContext& ctx,
                                                             json::object preview);

// The gate of every destructive action: nullopt = go ahead (confirm=true, or
// the user accepted when asked); otherwise the preview result to return.
// Never throws for a client that cannot or will not answer: it falls back to
// the preview. (A 2026-era InputRequired passes through: the retry answers it.)
boost::asio::awaitable<std::optional<mcp::ToolResult>> confirm_or_preview(const Args& args, ToolEnv& env,
                                                                          mcp::RequestContext& ctx, Preview preview);
// The same for code that builds a body (not a ToolResult): nullopt = go ahead,
// else the preview body (preview_body's shape).
boost::asio::awaitable<std::optional<json::object>> confirm_or_preview_body(const Args& args, ToolEnv& env,
                                                                            mcp::RequestContext& ctx, Preview preview);

}  // namespace hamcp::tools
