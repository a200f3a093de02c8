#pragma once
// ha_bulk_control's action words, as ha-mcp documents them: an operation says
// {"entity_id":"light.hall","action":"off"}, not the service name. Each word
// becomes the domain's own service (cover "open" -> open_cover, media_player
// "next" -> media_next_track, climate "heat" -> set_hvac_mode with
// hvac_mode=heat). A word that is already a service name passes unchanged.

#include <boost/json/object.hpp>
#include <string>
#include <string_view>

namespace hamcp::tools {

struct ResolvedAction {
  std::string service;
  boost::json::object extra_data;  // merged under the operation's own data
};

ResolvedAction resolve_action(std::string_view domain, std::string_view action);

}  // namespace hamcp::tools
