#pragma once
// The updates family (issue 13 items 4 and 7): ha_manage_updates (update
// entities by category, release notes, install with progress, skip, clear
// skipped; repairs ignore/unignore) and ha_manage_hacs (HACS's store through
// its WebSocket API; ha_get_hacs_info is its hidden read alias). ha-mcp
// 8.7.0's names and arguments.

#include <boost/asio/awaitable.hpp>
#include <memory>
#include <string>
#include <vector>

#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_manage_updates_spec();
ToolSpec make_manage_hacs_spec();

void register_updates_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace updates {

// UpdateEntityFeature (homeassistant/components/update/const.py).
inline constexpr std::int64_t kInstall = 1, kSpecificVersion = 2, kProgress = 4, kBackup = 8, kReleaseNotes = 16;

// One update entity as the tools show it: entity_id, name, category, state,
// versions, progress,
// summary, url, supports (feature names).
// Categories as ha-mcp names them: core, os, supervisor, addons, devices
// (firmware), hacs, other.
struct UpdateView {
  std::string entity_id;
  std::string category;
  std::int64_t features = 0;
  bool available = false;  // state "on": latest newer than installed and not skipped
  bool skipped = false;
  bool in_progress = false;
  json::object item;
};

// Every update entity of the snapshot, sorted by entity id.
std::vector<UpdateView> update_entities(const ha::Snapshot& snap);
// One, or unknown_entity (field entity_ids) when it is not an update entity.
UpdateView update_entity(const ha::Snapshot& snap, const search::EntityIndex& index, const std::string& entity_id);
// "add-ons", "apps" -> "addons", "firmware" -> "devices", ...; "" for a name no category has.
std::string category_name(std::string text);

// update/release_notes: the text, or null with a note when HA has none.
boost::asio::awaitable<json::value> release_notes(ToolEnv& env, std::string entity_id);

// action=install (confirm; progress notifications; bounded wait).
boost::asio::awaitable<mcp::ToolResult> run_install(Args& args, ToolEnv& env, mcp::RequestContext& ctx);

// The entity_ids argument: at least one, each an update entity.
std::vector<UpdateView> entities_arg(Args& args, const ha::Snapshot& snap, const search::EntityIndex& index);
// The categories argument as category names (bad_argument for an unknown one).
std::vector<std::string> categories_arg(Args& args);

}  // namespace updates

}  // namespace hamcp::tools
