#pragma once
// Home Assistant's state messages turned into edits of a StateTable: the
// subscribe_entities event (compressed "a"/"c"/"r" entries) and a full state
// list (get_states, GET /api/states) diffed against the previous table.
// Threading: none of its own. Pure functions over the builder the caller owns.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "ha/snapshot.hpp"

namespace hamcp::ha::detail {

// Applies one subscribe_entities event to b. Consumes the event's "a" entries
// (each entity's DOM is dropped once converted, so a 100k-entity initial event
// never exists twice). first: the initial event (every entity is new; cs is
// left alone). Otherwise cs names what was added, changed and removed.
void apply_entities_event(StateTableBuilder& b, boost::json::object& event, bool first, ChangeSet& cs);

// Replaces b's content with a full state list and names in cs what was added,
// changed or removed against old.
void replace_with_state_list(StateTableBuilder& b, const StateTable& old, const boost::json::array& list,
                             ChangeSet& cs);

}  // namespace hamcp::ha::detail
