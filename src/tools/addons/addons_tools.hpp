#pragma once
// The add-ons family (issue 13 items 5-6): Supervisor add-ons under ha-mcp
// 8.7.0's names, ha_get_app (installed and store lists, one add-on's info and
// stats) and ha_manage_app (lifecycle, options/network/boot, store
// repositories), with the renamed ha_get_addon / ha_manage_addon as hidden
// aliases. ha_get_logs source=supervisor|system_service reads the Supervisor's
// text logs through supervisor_log_lines. Every Supervisor request goes
// through env.ha (the gate); secrets in options are masked in every answer.

#include <boost/asio/awaitable.hpp>
#include <memory>
#include <string>
#include <vector>

#include "mcp/registry.hpp"
#include "tools/gate/redactor.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_get_app_spec();
ToolSpec make_manage_app_spec();

void register_addons_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace addons {

// One Supervisor request; a Supervisor failure becomes the family's ToolError
// (supervisor_unavailable, supervisor_refused, supervisor_forbidden).
boost::asio::awaitable<json::value> supervisor(ToolEnv& env, std::string method, std::string path,
                                               json::object body = {});

// A log's lines, oldest first. source "supervisor": `slug` an add-on's log, ""
// the Supervisor's own; "system_service": `slug` a host service's syslog
// identifier ("" lists the identifiers as lines).
boost::asio::awaitable<std::vector<std::string>> supervisor_log_lines(ToolEnv& env, const std::string& source,
                                                                      const std::string& slug, int lines);

// Option names that hold secrets (password, token, key, secret, ...).
bool secret_key(std::string_view key);
// A copy with every secret value replaced by kMask (objects and arrays walked).
json::value masked(const json::value& value);
inline constexpr std::string_view kMask = kRedacted;  // the mask every tool result uses
// `text` with every secret value found in `options` replaced by kMask.
std::string scrub_secrets(std::string text, const json::value& options);

// /addons/<slug>/info says the add-on runs (it reads new options only at start).
bool addon_started(const json::value& info);
// Journals one addon_config edit (configure or its restore) into `body`.
void record_addon_config(ToolEnv& env, json::object& body, const std::string& slug, std::string action,
                         const json::value& before, const json::value& after);

// Puts back the configuration an addon_config edit replaced (addon_restore.cpp).
boost::asio::awaitable<mcp::ToolResult> restore_addon_edit(ToolEnv& env, const home::EditRecord& rec);

// "core_ssh": letters, digits, "_" and "-" only (it becomes a URL path segment).
std::string checked_slug(const Args& args, std::string_view field = "slug");

}  // namespace addons

}  // namespace hamcp::tools
