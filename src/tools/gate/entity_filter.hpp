#pragma once
// Entity visibility at the two choke points (visibility.hpp).
// Incoming to the model: hide_entities() takes hidden entities out of a tool
// result. Outgoing to Home Assistant: hidden_named_in() / hidden_service_target()
// find what a request names that is hidden, so the gate refuses it before
// anything is sent.

#include <boost/json/value.hpp>
#include <optional>
#include <string>

#include "ha/ha_client.hpp"
#include "tools/gate/visibility.hpp"

namespace hamcp::tools {

// Takes hidden entities out of a result, in place: members keyed by a hidden
// id and array items that are a hidden id, or an object whose "entity_id" is
// one, are removed; any other mention (a log line, a template, YAML text, a
// name list) has the id replaced by kHiddenMark. A root object about a hidden
// entity is replaced by the entity_hidden error. True when anything changed.
bool hide_entities(boost::json::value& root, const HiddenSet& hidden);

struct HiddenMention {
  std::string path;       // JSON path of the argument ("target.entity_id[1]"); "" for the root
  std::string entity_id;  // the hidden entity it names (kHiddenMark when it is the mark itself)
};
// The first string or member name in `value` naming a hidden entity (or
// carrying kHiddenMark: a write built from a filtered answer).
std::optional<HiddenMention> hidden_named_in(const boost::json::value& value, const HiddenSet& hidden);

// A service call acting on a hidden entity: named (target or data entity_id),
// through an area, device, label or floor holding one, or entity_id "all".
// Returns what the refusal names.
std::optional<std::string> hidden_service_target(const ha::ServiceCall& call, const HiddenSet& hidden);

// The entity_hidden error: `what` names the hidden thing, `field` where it was.
struct ToolError;
ToolError entity_hidden_error(std::string_view field, std::string_view what);

}  // namespace hamcp::tools
