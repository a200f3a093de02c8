#pragma once
// The integrations family (issue 12 item 4): config entries and their flows.
// ha_get_integration lists / searches entries or shows one (options and their
// schema, subentries, diagnostics); ha_set_integration enables / disables one,
// adds an integration through its config flow, runs its options or reconfigure
// flow (identity checks first), sets its log level, or removes an entry or a
// subentry (confirm). ha-mcp's ha_remove_helpers_integrations is a hidden name
// of ha_set_integration (remove), which also removes storage helpers.
// Config entries are not in the mirror: one config_entries/get per call.

#include <boost/asio/awaitable.hpp>
#include <memory>
#include <vector>

#include "home/edit_journal.hpp"
#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

ToolSpec make_get_integration_spec();
ToolSpec make_set_integration_spec();
void register_integration_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env);

namespace integrations {

// config_entries/get (all entries; one WebSocket call).
boost::asio::awaitable<std::vector<json::object>> list_entries(ToolEnv& env);
// The entry with this id, or "entry_not_found" naming close matches.
json::object find_entry(const std::vector<json::object>& entries, const std::string& entry_id);
// The listing's view of an entry: entry_id, domain, title, state, disabled_by,
// source, supports_options, supports_reconfigure, num_subentries (+ reason when set).
json::object entry_view(const json::object& entry);
// The entities and devices of an entry: search/related (HA's registries, current
// even just after a flow), else the mirror's registries; device names from the mirror.
boost::asio::awaitable<json::object> entry_members(ToolEnv& env, std::string entry_id);

// GET /api/diagnostics/config_entry/<id>, cut to path/offset/limit and a byte budget, secrets redacted.
struct DiagnosticsView {
  std::string path;         // "data.bridge.radio_channels" ("" = the whole payload's data)
  std::int64_t offset = 0;  // for an array (or object keys) at path
  std::int64_t limit = 50;
  std::int64_t budget = 20000;      // bytes of serialized JSON
  std::vector<std::string> fields;  // top-level keys of data to keep ([] = all)
  std::string device_id;            // a device of the entry: its device diagnostics
};
boost::asio::awaitable<json::object> read_diagnostics(ToolEnv& env, const std::string& entry_id, DiagnosticsView view);

// ha_config_set restore=<edit id> of an "integration" edit (integration_restore.cpp).
boost::asio::awaitable<json::object> restore_integration_edit(ToolEnv& env, const home::EditRecord& rec);

}  // namespace integrations

}  // namespace hamcp::tools
