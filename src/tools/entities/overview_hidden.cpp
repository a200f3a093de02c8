#include "tools/entities/overview_hidden.hpp"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace hamcp::tools {

namespace {

namespace overview = home::overview;

std::atomic<std::size_t> full_builds{0};

// Weak: the kept tally never holds an old hidden set alive; an expired pointer
// matches nothing, so a reused address is never taken for the same set.
struct Kept {
  std::weak_ptr<const HiddenSet> hidden;
  std::shared_ptr<const overview::AreaMap> areas;  // holds the registries it was built from
  ha::StateTable states;                           // the states the tally counts
  std::shared_ptr<HiddenTally> tally;
};

void bump(std::size_t& n, bool in) { n = in ? n + 1 : n - std::min<std::size_t>(n, 1); }

void count_in(HiddenTally::Domain& d, const std::string& state, bool in) {
  bump(d.count, in);
  std::size_t& n = d.states[state];
  bump(n, in);
  if (n == 0) d.states.erase(state);
}

// One hidden entity's state counted in (in) or taken out (!in).
void count(HiddenTally& tally, const overview::AreaMap& areas, const ha::EntityState& st, bool in) {
  bump(tally.with_state, in);
  const std::string domain(overview::domain_of(st.entity_id));
  count_in(tally.home[domain], st.state, in);
  const std::string area(areas.area(st.entity_id));
  if (area.empty()) return;
  bump(tally.area_counts[area], in);
  count_in(tally.by_area[area][domain], st.state, in);
}

std::shared_ptr<HiddenTally> build(const HiddenSet& hidden, const ha::Snapshot& snap, const overview::AreaMap& areas) {
  ++full_builds;
  auto tally = std::make_shared<HiddenTally>();
  for (const std::string& id : hidden.ids())
    if (const ha::EntityStatePtr st = snap.states.find(id))
      count(*tally, areas, *st, true);  // registry only: never counted
  return tally;
}

// Brings the kept tally from kept.states to `now`: only the hidden entities
// among the states that changed. A tally a caller still reads is copied first.
void follow(Kept& kept, const HiddenSet& hidden, const ha::StateTable& now) {
  std::vector<std::pair<ha::EntityStatePtr, ha::EntityStatePtr>> moved;
  now.for_each_difference(kept.states, [&](std::string_view id, const auto& was, const auto& is) {
    if (hidden.contains(id)) moved.emplace_back(was, is);
  });
  kept.states = now;
  if (moved.empty()) return;
  if (kept.tally.use_count() > 1) kept.tally = std::make_shared<HiddenTally>(*kept.tally);
  for (const auto& [was, is] : moved) {
    if (was) count(*kept.tally, *kept.areas, *was, false);
    if (is) count(*kept.tally, *kept.areas, *is, true);
  }
}

// One domain's numbers without its hidden entities. The histogram keeps its
// shown states only (top_states), as the aggregates give them.
void subtract(overview::DomainSummary& d, const HiddenTally::Domain& out) {
  d.count -= std::min(d.count, out.count);
  auto& top = d.top_states;
  for (auto it = top.begin(); it != top.end();) {
    const auto gone = out.states.find(it->first);
    if (gone != out.states.end()) it->second -= std::min(it->second, gone->second);
    it = it->second == 0 ? top.erase(it) : it + 1;
  }
}

}  // namespace

std::shared_ptr<const HiddenTally> HiddenTally::of(const HiddenSetPtr& hidden, const ha::SnapshotPtr& snap) {
  static std::mutex mutex;
  static Kept kept;
  const std::lock_guard lock(mutex);  // one build at a time: concurrent calls would build the same tally
  if (kept.tally && kept.hidden.lock() == hidden && kept.areas->matches(*snap)) {
    follow(kept, *hidden, snap->states);
    return kept.tally;
  }
  std::shared_ptr<const overview::AreaMap> areas = overview::AreaMap::build(*snap);
  std::shared_ptr<HiddenTally> fresh = build(*hidden, *snap, *areas);
  kept = Kept{hidden, std::move(areas), snap->states, fresh};
  return fresh;
}

std::size_t HiddenTally::builds() { return full_builds.load(); }

void HiddenTally::leave_out(overview::Summary& sum, const overview::Query& query) const {
  const Domains* domains = &home;
  if (!query.area_id.empty()) {
    const auto in_area = by_area.find(query.area_id);
    if (in_area == by_area.end()) return;
    domains = &in_area->second;
  }
  for (const auto& [name, out] : *domains) {
    auto d = sum.domains.find(name);
    if (d == sum.domains.end()) continue;
    subtract(d->second, out);
    if (d->second.count == 0) sum.domains.erase(d);
  }
  for (auto& [area, count] : sum.area_counts) {
    if (!query.area_id.empty() && area != query.area_id) continue;
    if (const auto out = area_counts.find(area); out != area_counts.end()) count -= std::min(count, out->second);
  }
}

}  // namespace hamcp::tools
