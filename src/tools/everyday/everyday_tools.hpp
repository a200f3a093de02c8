#pragma once
// The everyday family: calendars (events in a range; create/update, also
// recurring and this-and-future; delete an event, one occurrence or the
// following ones), to-do lists (lists, items; add/update/move; remove) and
// camera snapshots (MCP image content). Listed: ha_manage_calendar and
// ha_manage_todo (action get|set|remove, tools/action_tool.hpp) and
// ha_get_camera_image; ha-mcp 8.7.0's six calendar and to-do tools are their
// hidden aliases with ha-mcp's arguments, each checked against its own schema.
// Deletes need confirm=true (without it: a preview).

#include <memory>
#include <string>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

// The old tools, now the actions of the two merged ones.
ToolSpec make_get_calendar_events_spec();
ToolSpec make_set_calendar_event_spec();
ToolSpec make_remove_calendar_event_spec();
ToolSpec make_get_todo_spec();
ToolSpec make_set_todo_item_spec();
ToolSpec make_remove_todo_item_spec();
ToolSpec make_get_camera_image_spec();
ToolSpec make_manage_calendar_spec();
ToolSpec make_manage_todo_spec();

void register_everyday_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace everyday {

// The entity id argument, checked: present, of `domain`, known to the mirror
// (else unknown_entity with the nearest ids); its state.
boost::asio::awaitable<ha::EntityStatePtr> entity_arg(Args& args, ToolEnv& env, std::string_view domain);

// One action on one entity, sent once; HA's refusal becomes "ha_refused"
// with HA's message (written:false), no answer "write_outcome_unknown".
boost::asio::awaitable<json::value> call_action(ToolEnv& env, std::string domain, std::string service,
                                                const std::string& entity_id, json::object data);

// A WebSocket write sent once, with call_action's failure rules.
boost::asio::awaitable<json::value> ws_write(ToolEnv& env, json::object message, std::string what);

// Edits of calendar events and to-do items put back from the edit journal
// (everyday_restore.cpp; ha_manage_backup scope=edits action=restore).
bool is_everyday_restorable(std::string_view kind);
boost::asio::awaitable<mcp::ToolResult> restore_everyday_edit(ToolEnv& env, home::EditRecord rec);

// Percent-encodes a query value ('+' of a time zone offset would read as a space).
std::string query_value(std::string_view text);

}  // namespace everyday

}  // namespace hamcp::tools
