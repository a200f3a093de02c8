#pragma once
// ha_get_overview under a visibility filter: what the hidden entities add to
// the mirror's aggregates, to take out of them. Worked out once per (hidden
// set, snapshot) — one pass over the hidden ids, not over the home — and kept,
// so repeated calls on an unchanged mirror cost O(domains + areas). A new
// snapshot version means a new hidden set (Visibility caches it per version),
// so the tally follows it.

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

  // Built for this pair, or the kept one when it is the same pair as last time.
  static std::shared_ptr<const HiddenTally> of(const HiddenSetPtr& hidden, const ha::SnapshotPtr& snap);
  // Takes the hidden entities out of `sum` (numbers of `query`).
  void leave_out(home::overview::Summary& sum, const home::overview::Query& query) const;
};

}  // namespace hamcp::tools
