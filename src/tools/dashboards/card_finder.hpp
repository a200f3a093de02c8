#pragma once
// Finding cards and views inside a dashboard config, each with its path
// ("views[1].sections[0].cards[2]") so that one card can be edited alone.
// Cards are looked for in views' cards, badges and sections, and inside
// stacks (cards / card); a card matches on its own fields, not its children's.

#include <boost/json.hpp>
#include <optional>
#include <string>

#include "tools/dashboards/dashboard_ha.hpp"

namespace hamcp::tools::dashboards {

struct CardQuery {
  std::string entity_id;  // anywhere in the card's own fields
  std::string card_type;  // "tile", also matches "custom:tile"
  std::string heading;    // in the card's heading or title, any case
  std::string text;       // in any of the card's own strings, any case (ha-mcp's `query`)
};

struct CardMatches {
  json::array cards;  // [{path, card}], at most `limit`
  std::size_t total = 0;
};

CardMatches find_cards(const json::value& config, const CardQuery& query, std::size_t limit);

// The view whose `path` is `view`, else the view at that index.
std::optional<std::size_t> find_view(const json::value& config, std::string_view view);

// [{index, path?, title?, type?}] of every view.
json::array view_names(const json::value& config);

}  // namespace hamcp::tools::dashboards
