#pragma once
// The writes behind ha_config_set_helper, one file per kind of helper:
// storage collections (storage_helper_write.cpp) and config-flow helpers
// (flow_helper_write.cpp). Each returns the result body (what changed,
// edit_id, the bounded wait's report) or throws a ToolException that says
// whether anything was written.

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
};

boost::asio::awaitable<json::object> write_storage_helper(ToolEnv& env, const HelperCall& call);
boost::asio::awaitable<json::object> write_flow_helper(ToolEnv& env, const HelperCall& call);

}  // namespace hamcp::tools::helpers
