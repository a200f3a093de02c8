#pragma once
// The energy family: ha_manage_energy_prefs, the Energy dashboard's
// preferences (energy/get_prefs, info, validate; energy/save_prefs guarded by
// config_hash, with a dry run that shows the RFC 6902 diff; every save
// journaled as kind "energy", restorable with ha_config_set restore=<edit id>).

#include <memory>

#include "home/edit_journal.hpp"
#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_energy_prefs_spec();
void register_energy_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace energy {

// The stored prefs; null when Home Assistant has none yet ("No prefs").
boost::asio::awaitable<json::value> read_prefs(ToolEnv& env);
// energy/save_prefs of all three keys, sent once; returns what HA stored.
boost::asio::awaitable<json::object> save_prefs(ToolEnv& env, json::object prefs);

bool is_energy_kind(std::string_view kind);
// ha_config_set restore=<edit id> of an energy edit: the prefs before it saved again, journaled.
boost::asio::awaitable<json::object> restore_energy_edit(ToolEnv& env, const home::EditRecord& rec);

}  // namespace energy

}  // namespace hamcp::tools
