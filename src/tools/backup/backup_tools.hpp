#pragma once
// The backup family (issue 13 item 3, issue 14 item 6): ha_manage_backup,
// ha-mcp 8.7.0's name and arguments. scope=snapshot: Home Assistant's own
// backups through its backup integration (list, create and wait with
// progress, restore and delete behind confirm=true); scope=edits: hamcp's
// edit journal (list, view, diff, restore through the restore of the edit's
// family, delete old edits, retention). Supervisor backups (HA OS) through
// the Supervisor's own API when asked (via="supervisor", partial contents)
// or when the backup integration is absent (supervisor_backups.cpp).

#include <boost/asio/awaitable.hpp>
#include <memory>
#include <optional>
#include <string>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_manage_backup_spec();
void register_backup_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace backup {

// scope=snapshot: list, create, restore, delete.
boost::asio::awaitable<mcp::ToolResult> run_snapshot(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                     std::string action);
// action=create of scope=snapshot (backup_create.cpp).
boost::asio::awaitable<mcp::ToolResult> create_backup(Args& args, ToolEnv& env, mcp::RequestContext& ctx);
// scope=edits: list, view, diff, restore, delete.
boost::asio::awaitable<mcp::ToolResult> run_edits(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                  std::string action);

// Supervisor backups (supervisor_backups.cpp): asked for by via="supervisor"
// or by addons/folders/homeassistant (partial contents).
bool wants_supervisor(const Args& args);
boost::asio::awaitable<mcp::ToolResult> run_supervisor_snapshot(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                                std::string action);

// A WebSocket command of the backup integration; an unknown command (the
// integration not loaded) becomes the clear "backup_unavailable" error.
boost::asio::awaitable<json::value> backup_command(ToolEnv& env, json::object message);
// A registry update (area, floor, label, zone, device) put back through
// ha_set_registry (registry_restore.cpp).
bool is_registry_restorable(std::string_view kind);
boost::asio::awaitable<mcp::ToolResult> restore_registry_edit(ToolEnv& env, const home::EditRecord& rec,
                                                              mcp::RequestContext& ctx);
// backup/info's backups, newest first.
boost::asio::awaitable<json::array> list_backups(ToolEnv& env);
// One backup as the answers show it: id, name, date, age_days, size, agents, protected...
json::object backup_summary(const json::object& backup);
// The agent to restore from or back up to: the local one when there is one.
std::string preferred_agent(const json::object& agents);

// "2.5": ages and sizes in answers.
std::string one_decimal(double v);
// Deleting one backup, HA's or the Supervisor's: without confirm, its preview
// (or the user's answer through MCP) is returned; a backup younger than
// min_age days is refused (backup_too_new). nullopt: delete it now.
struct DeleteCheck {
  std::string id;
  json::object summary;  // backup_summary / the Supervisor's summary
  json::object fields;   // the answer's own fields beside the preview
  double age = 0, min_age = 0;
};
boost::asio::awaitable<std::optional<mcp::ToolResult>> check_delete(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                                    DeleteCheck check);

// Deleting by age (no backup_id), HA's or the Supervisor's: keep_newest (>= 0,
// default 0) newest are spared; of the rest those at least min_age days old.
std::int64_t keep_newest_of(const Args& args);
json::array select_old(const json::array& newest_first, double min_age, std::int64_t keep_newest);
// Without confirm: the preview naming exactly `would` (or the user's answer);
// nullopt: go ahead. `body` holds older_than_days and is the answer's base.
boost::asio::awaitable<std::optional<mcp::ToolResult>> preview_old_deletes(Args& args, ToolEnv& env,
                                                                           mcp::RequestContext& ctx,
                                                                           const json::object& body,
                                                                           const json::array& would);

}  // namespace backup

}  // namespace hamcp::tools
