#include "home/overview_data.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

namespace hamcp::home::overview {

namespace json = boost::json;

namespace {

std::string_view sv_of(const json::object* o, std::string_view key) {
  if (!o) return {};
  const json::value* v = o->if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

bool numeric_domain(std::string_view name) { return name == "sensor" || name == "number" || name == "input_number"; }

bool wanted(const Query& q, std::string_view domain) {
  return q.domains.empty() || std::find(q.domains.begin(), q.domains.end(), domain) != q.domains.end();
}

// Histogram -> what the overview shows. `capped`: more than kMaxDistinctStates
// distinct states were seen (their counts are then unknown or irrelevant).
template <class Hist>
void fill_states(DomainSummary& out, std::string_view domain, const Hist& hist, bool capped) {
  out.show_states =
      !capped && hist.size() <= kMaxDistinctStates && (!numeric_domain(domain) || hist.size() <= kMaxNumericStates);
  if (!out.show_states) return;
  std::vector<std::pair<std::string_view, std::size_t>> states(hist.begin(), hist.end());
  // Most common first; ties by name, so the output never depends on hash order.
  std::sort(states.begin(), states.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  for (std::size_t i = 0; i < states.size() && i < kTopStates; ++i)
    out.top_states.emplace_back(std::string(states[i].first), states[i].second);
}

std::size_t take_ids(const Query& q, std::size_t available, std::size_t& listed) {
  std::size_t n = std::min(q.per_domain, available);
  if (q.max_listed) n = std::min(n, q.max_listed > listed ? q.max_listed - listed : 0);
  listed += n;
  return n;
}

// One walk over some states: today's algorithm, used from scratch and for
// area-filtered calls (an area holds few entities). Views point into the
// snapshot the caller keeps alive.
struct Walk {
  struct Acc {
    std::size_t count = 0;
    std::unordered_map<std::string_view, std::size_t> states;  // capped at kMaxDistinctStates
    bool capped = false;
    std::vector<std::string_view> ids;
  };
  const Query& query;
  std::map<std::string_view, Acc> domains;

  void add(const ha::EntityState& st) {
    const std::string_view domain = domain_of(st.entity_id);
    if (!wanted(query, domain)) return;
    Acc& d = domains[domain];
    ++d.count;
    if (auto it = d.states.find(st.state); it != d.states.end())
      ++it->second;
    else if (d.states.size() < kMaxDistinctStates)
      d.states.emplace(st.state, 1);
    else
      d.capped = true;
    if (query.list_entities) d.ids.push_back(st.entity_id);
  }

  std::map<std::string, DomainSummary> finish() {
    std::map<std::string, DomainSummary> out;
    std::size_t listed = 0;
    for (auto& [name, d] : domains) {
      DomainSummary s;
      s.count = d.count;
      fill_states(s, name, d.states, d.capped);
      if (query.list_entities) {
        const std::size_t keep = take_ids(query, d.ids.size(), listed);
        std::partial_sort(d.ids.begin(), d.ids.begin() + static_cast<std::ptrdiff_t>(keep), d.ids.end());
        s.first_ids.assign(d.ids.begin(), d.ids.begin() + static_cast<std::ptrdiff_t>(keep));
      }
      out.emplace(std::string(name), std::move(s));
    }
    return out;
  }
};

}  // namespace

std::string_view domain_of(std::string_view entity_id) { return entity_id.substr(0, entity_id.find('.')); }

std::shared_ptr<const AreaMap> AreaMap::build(const ha::Snapshot& snap) {
  auto fresh = std::make_shared<AreaMap>();
  fresh->entities = snap.registries[static_cast<std::size_t>(ha::RegistryKind::entity)];
  fresh->devices = snap.registries[static_cast<std::size_t>(ha::RegistryKind::device)];
  // Registry items are parsed one at a time (ha::Registry keeps text), so keep copies, not views.
  std::unordered_map<std::string, std::string> device_area;
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& d) {
    const json::object* o = d.if_object();
    std::string_view id = sv_of(o, "id"), area = sv_of(o, "area_id");
    if (!id.empty() && !area.empty()) device_area.emplace(id, area);
  });
  const auto& entities = snap.registry(ha::RegistryKind::entity);
  fresh->area_of.reserve(entities.size());
  entities.for_each([&](const json::value& e) {
    const json::object* o = e.if_object();
    std::string_view id = sv_of(o, "entity_id"), area = sv_of(o, "area_id");
    if (area.empty())
      if (auto it = device_area.find(std::string(sv_of(o, "device_id"))); it != device_area.end()) area = it->second;
    if (!id.empty() && !area.empty()) fresh->area_of.emplace(std::string(id), std::string(area));
  });
  for (const auto& [id, area] : fresh->area_of) fresh->members[area].push_back(&id);
  for (auto& [area, ids] : fresh->members)
    std::sort(ids.begin(), ids.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  return fresh;
}

bool AreaMap::matches(const ha::Snapshot& snap) const {
  return entities == snap.registries[static_cast<std::size_t>(ha::RegistryKind::entity)] &&
         devices == snap.registries[static_cast<std::size_t>(ha::RegistryKind::device)];
}

std::string_view AreaMap::area(const std::string& entity_id) const {
  auto it = area_of.find(entity_id);
  return it == area_of.end() ? std::string_view() : std::string_view(it->second);
}

Summary summarize_from_scratch(const ha::SnapshotPtr& snap, const Query& query) {
  Summary out;
  out.snapshot = snap;
  const std::shared_ptr<const AreaMap> areas = AreaMap::build(*snap);
  Walk walk{query, {}};
  snap->states.for_each([&](const ha::EntityStatePtr& st) {
    const std::string_view area = areas->area(st->entity_id);
    if (!query.area_id.empty() && area != query.area_id) return;
    if (!area.empty()) ++out.area_counts[std::string(area)];
    walk.add(*st);
  });
  out.domains = walk.finish();
  return out;
}

// ---------------- incremental ----------------

void OverviewAggregates::rebuild(const ha::SnapshotPtr& snap) {
  snap_ = snap;
  areas_ = AreaMap::build(*snap);
  domains_.clear();
  snap->states.for_each([&](const ha::EntityStatePtr& st) {
    const std::string_view name = domain_of(st->entity_id);
    auto it = domains_.find(name);
    if (it == domains_.end()) it = domains_.emplace(std::string(name), Domain{}).first;
    Domain& d = it->second;
    ++d.count;
    ++d.states[st->state];
    d.ids.push_back(st->entity_id);
  });
  for (auto& [name, d] : domains_) std::sort(d.ids.begin(), d.ids.end());
  count_areas();
  ++rebuilds_;
}

void OverviewAggregates::count_areas() {
  area_counts_.clear();
  for (const auto& [id, area] : areas_->area_of)
    if (snap_->states.find(id)) ++area_counts_[area];
}

void OverviewAggregates::move_entity(std::string_view id, const ha::EntityStatePtr& before,
                                     const ha::EntityStatePtr& now, bool areas_moved, MembershipChanges& membership) {
  if (!before && !now) return;
  const std::string_view name = domain_of(id);
  if (before) {
    auto it = domains_.find(name);
    if (it != domains_.end()) {
      Domain& d = it->second;
      --d.count;
      if (auto h = d.states.find(before->state); h != d.states.end() && --h->second == 0) d.states.erase(h);
    }
  }
  if (now) {
    auto it = domains_.find(name);
    if (it == domains_.end()) it = domains_.emplace(std::string(name), Domain{}).first;
    ++it->second.count;
    ++it->second.states[now->state];
  }
  if (before && !now) membership[name].removed.insert(id);
  if (!before && now) membership[name].added.emplace_back(id);
  if (areas_moved || bool(before) == bool(now)) return;
  const std::string_view area = areas_->area(std::string(id));
  if (area.empty()) return;
  auto it = area_counts_.find(std::string(area));
  if (now)
    ++area_counts_[std::string(area)];
  else if (it != area_counts_.end() && --it->second == 0)
    area_counts_.erase(it);
}

void OverviewAggregates::apply_membership(MembershipChanges& membership) {
  for (auto& [name, m] : membership) {
    auto it = domains_.find(name);
    if (it == domains_.end()) continue;
    auto& v = it->second.ids;
    if (!m.removed.empty()) {
      // A named reference: clang 14 cannot capture a structured binding in a lambda.
      const auto& removed = m.removed;
      v.erase(std::remove_if(v.begin(), v.end(), [&](const std::string& s) { return removed.count(s) > 0; }), v.end());
    }
    if (!m.added.empty()) {
      std::sort(m.added.begin(), m.added.end());
      const auto mid = static_cast<std::ptrdiff_t>(v.size());
      v.insert(v.end(), std::make_move_iterator(m.added.begin()), std::make_move_iterator(m.added.end()));
      std::inplace_merge(v.begin(), v.begin() + mid, v.end());
    }
  }
}

void OverviewAggregates::apply(const ha::ChangeSet& changes, const ha::SnapshotPtr& snap) {
  if (!snap || !snap_) return;  // never asked for: nothing to maintain
  if (snap->version <= snap_->version) return;
  if (changes.full_resync || changes.version != snap->version || snap->version != snap_->version + 1) {
    rebuild(snap);
    return;
  }
  // Each touched id once: its old contribution (from the snapshot we
  // reflect) goes out, its new one comes in, whichever list named it.
  std::vector<std::string_view> ids;
  ids.reserve(changes.states_added.size() + changes.states_changed.size() + changes.states_removed.size());
  for (const auto* list : {&changes.states_added, &changes.states_changed, &changes.states_removed})
    for (const auto& id : *list) ids.emplace_back(id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());

  const bool areas_moved = !areas_->matches(*snap);
  MembershipChanges membership;
  for (std::string_view id_view : ids) {
    const std::string id(id_view);
    move_entity(id_view, snap_->states.find(id), snap->states.find(id), areas_moved, membership);
  }
  apply_membership(membership);
  for (auto it = domains_.begin(); it != domains_.end();)
    it = it->second.count == 0 ? domains_.erase(it) : std::next(it);
  snap_ = snap;
  if (areas_moved) {
    // An entity or device registry was refetched: areas may have moved.
    areas_ = AreaMap::build(*snap);
    count_areas();
  }
}

Summary OverviewAggregates::summarize(const Query& query) const {
  Summary out;
  out.snapshot = snap_;
  if (!query.area_id.empty()) {
    // An area holds a small part of the home: walk just its members.
    Walk walk{query, {}};
    if (auto m = areas_->members.find(query.area_id); m != areas_->members.end())
      for (const std::string* id : m->second)
        if (ha::EntityStatePtr st = snap_->states.find(*id)) walk.add(*st);
    out.domains = walk.finish();
    if (auto c = area_counts_.find(query.area_id); c != area_counts_.end()) out.area_counts.emplace(*c);
    return out;
  }
  std::size_t listed = 0;
  for (const auto& [name, d] : domains_) {
    if (!wanted(query, name)) continue;
    DomainSummary s;
    s.count = d.count;
    fill_states(s, name, d.states, false);
    if (query.list_entities) {
      const std::size_t keep = take_ids(query, d.ids.size(), listed);
      s.first_ids.assign(d.ids.begin(), d.ids.begin() + static_cast<std::ptrdiff_t>(keep));
    }
    out.domains.emplace(name, std::move(s));
  }
  out.area_counts = area_counts_;
  return out;
}

}  // namespace hamcp::home::overview
