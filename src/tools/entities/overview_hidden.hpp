#pragma once
// ha_get_overview under a visibility filter: what the hidden entities add to
// the mirror's aggregates, to take out of them. Built once per hidden set (and
// entity/device registries, for the areas) — one pass over the hidden ids, not
// over the home — and then kept current: a new snapshot costs the states that
// changed since the last call (StateTable::for_each_difference), a visible
// entity's nothing, a hidden entity's O(1). Visibility keeps the same hidden
// set while only states change, so repeated calls cost O(domains + areas).

#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "home/overview_data.hpp"
#include "tools/gate/visibility.hpp"

namespace hamcp::tools {

struct HiddenTally {
  struct Domain {
    std::size_t count = 0;
    std::unordered_map<std::string, std::size_t> states;  // state -> hidden entities in it
  };
  using Domains = std::map<std::string, Domain, std::less<>>;

  std::size_t with_state = 0;                                // hidden entities that have a state
  Domains home;                                              // per domain, the whole home
  std::unordered_map<std::string, Domains> by_area;          // area_id -> per domain
  std::unordered_map<std::string, std::size_t> area_counts;  // area_id -> hidden entities with a state

  // The tally for this hidden set at this snapshot: the kept one, brought up to
  // the snapshot's states, when the hidden set and the registries are the same.
  static std::shared_ptr<const HiddenTally> of(const HiddenSetPtr& hidden, const ha::SnapshotPtr& snap);
  // Tallies built from scratch so far (the kept one being of no use).
  static std::size_t builds();
  // Takes the hidden entities out of `sum` (numbers of `query`).
  void leave_out(home::overview::Summary& sum, const home::overview::Query& query) const;
};

}  // namespace hamcp::tools
