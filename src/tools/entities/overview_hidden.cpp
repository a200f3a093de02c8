#include "tools/entities/overview_hidden.hpp"

#include <mutex>

namespace hamcp::tools {

namespace {

namespace overview = home::overview;

// Weak: the kept tally never holds an old snapshot alive; an expired pointer
// matches nothing, so a reused address is never taken for the same pair.
struct Kept {
  std::weak_ptr<const HiddenSet> hidden;
  std::weak_ptr<const ha::Snapshot> snap;
  std::shared_ptr<const HiddenTally> tally;
};

std::shared_ptr<const HiddenTally> build(const HiddenSet& hidden, const ha::Snapshot& snap) {
  auto tally = std::make_shared<HiddenTally>();
  const std::shared_ptr<const overview::AreaMap> areas = overview::AreaMap::build(snap);
  for (const std::string& id : hidden.ids()) {
    const ha::EntityStatePtr st = snap.states.find(id);
    if (!st) continue;  // registry only: never counted
    ++tally->with_state;
    const std::string domain(overview::domain_of(id));
    HiddenTally::Domain& d = tally->home[domain];
    ++d.count;
    ++d.states[st->state];
    const std::string area(areas->area(id));
    if (area.empty()) continue;
    ++tally->area_counts[area];
    HiddenTally::Domain& in_area = tally->by_area[area][domain];
    ++in_area.count;
    ++in_area.states[st->state];
  }
  return tally;
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
  {
    std::lock_guard lock(mutex);
    if (kept.tally && kept.hidden.lock() == hidden && kept.snap.lock() == snap) return kept.tally;
  }
  std::shared_ptr<const HiddenTally> fresh = build(*hidden, *snap);
  std::lock_guard lock(mutex);
  kept = Kept{hidden, snap, fresh};
  return fresh;
}

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
