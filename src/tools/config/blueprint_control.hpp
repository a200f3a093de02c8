#pragma once
// "Take control" of a blueprint automation or script: its use_blueprint is
// replaced by the blueprint's config with the inputs filled in (HA's
// blueprint/substitute), keeping id, alias and description. One write, never
// retried, journaled as an update of the item (so ha_config_set restore=<edit
// id> gives the blueprint back). Shared by ha_manage_blueprints
// (action=substitute with id) and ha_config_set take_control_of_blueprint.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <string>

#include "tools/config/config_target.hpp"

namespace hamcp::tools::config {

// HA's blueprint/substitute: the blueprint's config with `input` filled in.
boost::asio::awaitable<json::object> substitute_blueprint(ToolEnv& env, std::string domain, std::string path,
                                                          json::object input);

// Takes control of the automation or script `ref` names; the result body has
// kind, id, entity_id, blueprint path, config_hash, edit_id.
boost::asio::awaitable<json::object> take_control(ToolEnv& env, Kind kind, std::string ref);

// ha_config_set restore=<edit id> of a blueprint edit: saves the text hamcp
// journaled before it again (overwriting), journaled as a restore; refused,
// saying so, when that text is unknown (HA has no API that returns it).
boost::asio::awaitable<json::object> restore_blueprint_edit(ToolEnv& env, const home::EditRecord& rec);

}  // namespace hamcp::tools::config
