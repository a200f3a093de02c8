// OverviewAggregates (kept current from change sets) against a from-scratch
// walk of the same snapshot, after random state changes, additions, removals,
// registry edits, a missed version and a full resync. Pure data: snapshots
// are built by hand, no sim, no network.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "home/overview_data.hpp"

namespace hamcp::home::overview {
namespace {

namespace json = boost::json;

class Home {
 public:
  explicit Home(std::uint32_t seed) : rng_(seed) {
    auto s = std::make_shared<ha::Snapshot>();
    s->version = 1;
    for (int i = 0; i < 8; ++i) areas_.push_back("area_" + std::to_string(i));
    for (int i = 0; i < 30; ++i) devices_[("dev_" + std::to_string(i))] = pick_area();
    ha::StateTableBuilder b(s->states);
    for (int i = 0; i < 600; ++i) {
      const std::string id = new_id();
      b.put(make_state(id));
      entity_area_[id] = roll(3) == 0 ? pick_area() : "";
      entity_device_[id] = roll(2) == 0 ? "dev_" + std::to_string(roll(30)) : "";
    }
    s->states = b.build();
    s->registries[static_cast<std::size_t>(ha::RegistryKind::entity)] = entity_registry();
    s->registries[static_cast<std::size_t>(ha::RegistryKind::device)] = device_registry();
    snap_ = s;
  }

  ha::SnapshotPtr snapshot() const { return snap_; }

  // One published update: a few random state changes/additions/removals and
  // sometimes a registry refetch. Returns the change set the mirror would send.
  ha::ChangeSet step() {
    auto next = std::make_shared<ha::Snapshot>(*snap_);
    next->version = snap_->version + 1;
    ha::ChangeSet cs;
    cs.version = next->version;
    ha::StateTableBuilder b(snap_->states);
    std::vector<std::string> ids = snap_->states.entity_ids();
    const int n = 1 + roll(12);
    for (int i = 0; i < n; ++i) {
      const int what = roll(10);
      if (what < 6 && !ids.empty()) {
        const std::string& id = ids[roll(static_cast<int>(ids.size()))];
        b.put(make_state(id));
        cs.states_changed.push_back(id);
      } else if (what < 8) {
        const std::string id = new_id();
        b.put(make_state(id));
        cs.states_added.push_back(id);
        if (roll(2) == 0) entity_area_[id] = pick_area();  // registry gets it with the next refetch
      } else if (!ids.empty()) {
        const std::string id = ids[roll(static_cast<int>(ids.size()))];
        if (b.erase(id)) cs.states_removed.push_back(id);
      }
    }
    next->states = b.build();
    if (roll(5) == 0) {
      // Move a few entities and a device between areas; refetch both lists.
      for (int i = 0; i < 5 && !ids.empty(); ++i) entity_area_[ids[roll(static_cast<int>(ids.size()))]] = pick_area();
      devices_["dev_" + std::to_string(roll(30))] = roll(4) == 0 ? "" : pick_area();
      next->registries[static_cast<std::size_t>(ha::RegistryKind::entity)] = entity_registry();
      next->registries[static_cast<std::size_t>(ha::RegistryKind::device)] = device_registry();
      cs.registries_changed = {ha::RegistryKind::entity, ha::RegistryKind::device};
    }
    snap_ = next;
    return cs;
  }

  int roll(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

 private:
  std::string pick_area() { return areas_[roll(static_cast<int>(areas_.size()))]; }

  std::string new_id() {
    static const char* kDomains[] = {"light", "sensor", "switch", "input_select", "number", "lock", "fan_x"};
    return std::string(kDomains[roll(7)]) + "." + "e" + std::to_string(next_id_++);
  }

  ha::EntityStatePtr make_state(const std::string& id) {
    auto st = std::make_shared<ha::EntityState>();
    st->entity_id = id;
    const std::string_view domain = domain_of(id);
    if (domain == "sensor")
      st->state = std::to_string(roll(400));  // many distinct: histogram dropped
    else if (domain == "number")
      st->state = std::to_string(roll(7));  // crosses the numeric cap (5)
    else if (domain == "input_select")
      st->state = "opt" + std::to_string(roll(34));  // crosses 32
    else
      st->state = roll(5) == 0 ? "unavailable" : (roll(2) ? "on" : "off");
    return st;
  }

  ha::RegistryPtr entity_registry() const {
    json::array items;
    for (const auto& [id, area] : entity_area_) {
      json::object e{{"entity_id", id}, {"area_id", area.empty() ? json::value(nullptr) : json::value(area)}};
      if (auto d = entity_device_.find(id); d != entity_device_.end() && !d->second.empty()) e["device_id"] = d->second;
      items.emplace_back(std::move(e));
    }
    return ha::Registry::make(ha::RegistryKind::entity, std::move(items));
  }

  ha::RegistryPtr device_registry() const {
    json::array items;
    for (const auto& [id, area] : devices_)
      items.emplace_back(
          json::object{{"id", id}, {"area_id", area.empty() ? json::value(nullptr) : json::value(area)}});
    return ha::Registry::make(ha::RegistryKind::device, std::move(items));
  }

  std::mt19937 rng_;
  int next_id_ = 0;
  std::vector<std::string> areas_;
  std::map<std::string, std::string> devices_;
  std::map<std::string, std::string> entity_area_;    // "" = none of its own
  std::map<std::string, std::string> entity_device_;  // "" = no device
  ha::SnapshotPtr snap_;
};

std::vector<Query> queries() {
  std::vector<Query> qs;
  qs.push_back({});  // minimal, whole home
  Query standard;
  standard.list_entities = true;
  standard.per_domain = 10;
  qs.push_back(standard);
  Query all = standard;
  all.per_domain = 1000;
  qs.push_back(all);
  Query capped = standard;
  capped.max_listed = 17;
  qs.push_back(capped);
  Query filtered = standard;
  filtered.domains = {"light", "number", "nope"};
  qs.push_back(filtered);
  for (const char* area : {"area_0", "area_3", "area_7"}) {
    Query a = standard;
    a.area_id = area;
    qs.push_back(a);
    a.domains = {"sensor", "input_select"};
    a.list_entities = false;
    qs.push_back(a);
  }
  return qs;
}

void expect_same(const OverviewAggregates& agg, const ha::SnapshotPtr& snap, const std::string& when) {
  ASSERT_EQ(agg.snapshot(), snap) << when;
  for (const Query& q : queries()) {
    const Summary inc = agg.summarize(q);
    const Summary ref = summarize_from_scratch(snap, q);
    ASSERT_TRUE(inc.same_numbers(ref)) << when << ", query area='" << q.area_id << "' list=" << q.list_entities
                                       << " per_domain=" << q.per_domain << " domains=" << q.domains.size();
    EXPECT_EQ(inc.snapshot, snap);
  }
}

TEST(OverviewAggregates, MatchesFromScratchAfterEveryUpdate) {
  Home home(7);
  OverviewAggregates agg;
  agg.rebuild(home.snapshot());
  expect_same(agg, home.snapshot(), "initial build");
  const std::size_t rebuilds_before = agg.rebuilds();
  bool saw_numeric_cap_cross = false, saw_select_cap_cross = false;
  bool numeric_shown_before = false, select_shown_before = false;
  for (int i = 0; i < 300; ++i) {
    ha::ChangeSet cs = home.step();
    agg.apply(cs, home.snapshot());
    expect_same(agg, home.snapshot(), "after update " + std::to_string(i));
    if (HasFatalFailure()) return;
    const Summary s = agg.summarize({});
    const bool num = s.domains.count("number") && s.domains.at("number").show_states;
    const bool sel = s.domains.count("input_select") && s.domains.at("input_select").show_states;
    saw_numeric_cap_cross |= i > 0 && num != numeric_shown_before;
    saw_select_cap_cross |= i > 0 && sel != select_shown_before;
    numeric_shown_before = num;
    select_shown_before = sel;
  }
  // Every update was applied incrementally, none by a full walk.
  EXPECT_EQ(agg.rebuilds(), rebuilds_before);
  // The generator really exercised the histogram caps in both directions.
  EXPECT_TRUE(saw_numeric_cap_cross || saw_select_cap_cross);
}

TEST(OverviewAggregates, MissedVersionAndFullResyncRebuild) {
  Home home(11);
  OverviewAggregates agg;
  agg.rebuild(home.snapshot());
  home.step();  // published but never delivered
  ha::ChangeSet cs = home.step();
  agg.apply(cs, home.snapshot());
  expect_same(agg, home.snapshot(), "after a missed version");
  EXPECT_EQ(agg.rebuilds(), 2u);

  cs = home.step();
  cs.states_added.clear();
  cs.states_changed.clear();
  cs.states_removed.clear();
  cs.full_resync = true;  // a resync says "anything may have changed"
  agg.apply(cs, home.snapshot());
  expect_same(agg, home.snapshot(), "after a full resync");
  EXPECT_EQ(agg.rebuilds(), 3u);

  // Old or repeated deliveries are ignored.
  const ha::SnapshotPtr current = home.snapshot();
  agg.apply(cs, current);
  EXPECT_EQ(agg.rebuilds(), 3u);
  EXPECT_EQ(agg.snapshot(), current);
}

TEST(OverviewAggregates, UnbuiltIgnoresChangesUntilFirstUse) {
  Home home(3);
  OverviewAggregates agg;
  agg.apply(home.step(), home.snapshot());
  EXPECT_FALSE(agg.built());
  EXPECT_EQ(agg.rebuilds(), 0u);
}

TEST(OverviewAggregates, FirstIdsAreSortedAndDomainsVanishWhenEmpty) {
  auto s = std::make_shared<ha::Snapshot>();
  s->version = 1;
  ha::StateTableBuilder b(s->states);
  for (const char* id : {"light.c", "light.a", "light.b", "lock.front"}) {
    auto st = std::make_shared<ha::EntityState>();
    st->entity_id = id;
    st->state = "on";
    b.put(st);
  }
  s->states = b.build();
  OverviewAggregates agg;
  agg.rebuild(s);
  Query q;
  q.list_entities = true;
  q.per_domain = 2;
  Summary sum = agg.summarize(q);
  ASSERT_EQ(sum.domains.size(), 2u);
  EXPECT_EQ(sum.domains.at("light").first_ids, (std::vector<std::string>{"light.a", "light.b"}));
  EXPECT_EQ(sum.domains.at("light").count, 3u);
  EXPECT_EQ(sum.domains.at("light").top_states, (std::vector<std::pair<std::string, std::size_t>>{{"on", 3}}));

  auto next = std::make_shared<ha::Snapshot>(*s);
  next->version = 2;
  ha::StateTableBuilder b2(s->states);
  b2.erase("lock.front");
  next->states = b2.build();
  ha::ChangeSet cs;
  cs.version = 2;
  cs.states_removed = {"lock.front"};
  agg.apply(cs, next);
  sum = agg.summarize(q);
  EXPECT_EQ(sum.domains.count("lock"), 0u);
  EXPECT_TRUE(sum.same_numbers(summarize_from_scratch(next, q)));
}

}  // namespace
}  // namespace hamcp::home::overview
