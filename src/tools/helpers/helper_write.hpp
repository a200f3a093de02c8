#pragma once
// The writes behind ha_config_set_helper, one file per kind of helper:
// storage collections (storage_helper_write.cpp) and config-flow helpers
// (flow_helper_write.cpp). Each returns the result body (what changed,
// edit_id, the bounded wait's report) or throws a ToolException that says
// whether anything was written. A restore of a journaled helper or group
// edit (helper_restore.cpp) writes through the same functions.

#include <boost/asio/awaitable.hpp>
#include <optional>
#include <string>

#include "tools/tool_env.hpp"

namespace hamcp::tools::helpers {

struct HelperCall {
  std::string type;    // helper_type
  std::string action;  // create | update | remove
  std::string id;      // storage: the item id; flow: the config entry id ("" for create)
  std::optional<std::string> name, icon, menu_choice;
  json::object config;
  bool wait = true;
  bool show_advanced_options = false;
  bool replace = false;        // storage update: send config as the whole item (a restore), not merged
  std::string journal_action;  // "" = action; "restore" for ha_config_set restore=<edit id>
  // helper_type=config_subentry (id: the entry): the type to create, or the subentry to reconfigure.
  std::string subentry_type, subentry_id;
};

boost::asio::awaitable<json::object> write_storage_helper(ToolEnv& env, const HelperCall& call);
boost::asio::awaitable<json::object> write_flow_helper(ToolEnv& env, const HelperCall& call);
boost::asio::awaitable<json::object> write_subentry(ToolEnv& env, const HelperCall& call);
// The values hamcp itself gave a subentry (its creation, reconfigures and
// restores, journaled with their answers as `after`; the newest wins), without
// "name" (the title): what HA does not show when a form suggests nothing.
json::object journaled_subentry_values(ToolEnv& env, const std::string& entry_id, const std::string& subentry_id);

// ha_config_set restore=<edit id> of a helper or group edit (helper_restore.cpp).
boost::asio::awaitable<json::object> restore_helper_edit(ToolEnv& env, const home::EditRecord& rec);

// Old-style groups (group_tools.cpp): {object_id, entity_id, state, name, icon,
// entities, all} of group.<object_id> (null when there is none), and a bounded
// wait until its members are `expected` (null: until it is gone).
json::value group_view(const ha::Snapshot& snap, const std::string& object_id);
boost::asio::awaitable<json::object> wait_group(ToolEnv& env, const std::string& object_id, json::value expected);

}  // namespace hamcp::tools::helpers
