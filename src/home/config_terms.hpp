#pragma once
// What a configuration says, as search terms for the config cache
// (home/config_cache.hpp): the entity ids it references (also inside
// templates), services ("light.turn_on") and trigger/condition types
// ("trigger: state").

#include <boost/json/value.hpp>
#include <string>
#include <vector>

namespace hamcp::home {

// The terms of `config` in order of first appearance, at most `limit`.
std::vector<std::string> config_terms(const boost::json::value& config, std::size_t limit = 64);

// The entity ids a Jinja template names: states('sensor.x'), is_state("light.a", ...),
// states.sensor.x.state. Words with one dot only; "states." prefixes dropped.
std::vector<std::string> template_entity_ids(std::string_view text);

}  // namespace hamcp::home
