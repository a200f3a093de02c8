// The hidden set and the overview's hidden tally on snapshots built by hand
// (tools/gate/visibility.hpp, tools/entities/overview_hidden.hpp): a state
// change keeps the hidden set (the same pointer) and the tally follows it
// without a rebuild, equal to a count made from scratch; a new entity or a
// registry change is what makes a new set or a new tally.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ha/snapshot.hpp"
#include "tools/entities/overview_hidden.hpp"
#include "tools/gate/visibility.hpp"

namespace hamcp::tools {
namespace {

namespace json = boost::json;

ha::EntityStatePtr state(const std::string& id, const std::string& value) {
  auto s = std::make_shared<ha::EntityState>();
  s->entity_id = id;
  s->state = value;
  return s;
}

ha::RegistryPtr entity_registry(const std::vector<std::pair<std::string, std::string>>& entity_areas) {
  json::array items;
  for (const auto& [id, area] : entity_areas) items.push_back(json::object{{"entity_id", id}, {"area_id", area}});
  return ha::Registry::make(ha::RegistryKind::entity, std::move(items));
}

// A home of 40 lights and 10 locks (locks hidden), half of each in the kitchen.
ha::SnapshotPtr home() {
  auto snap = std::make_shared<ha::Snapshot>();
  ha::StateTableBuilder b{ha::StateTable{}};
  std::vector<std::pair<std::string, std::string>> areas;
  for (int i = 0; i < 40; ++i) {
    const std::string id = "light.l" + std::to_string(i);
    b.put(state(id, i % 3 ? "on" : "off"));
    areas.emplace_back(id, i % 2 ? "kitchen" : "hall");
  }
  for (int i = 0; i < 10; ++i) {
    const std::string id = "lock.k" + std::to_string(i);
    b.put(state(id, i % 2 ? "locked" : "unlocked"));
    areas.emplace_back(id, i % 2 ? "kitchen" : "hall");
  }
  snap->states = b.build();
  snap->registries[static_cast<std::size_t>(ha::RegistryKind::entity)] = entity_registry(areas);
  return snap;
}

// The same snapshot with these states set (new ids added) and a higher version.
ha::SnapshotPtr with_states(const ha::SnapshotPtr& base, const std::map<std::string, std::string>& states) {
  auto next = std::make_shared<ha::Snapshot>();
  next->version = base->version + 1;
  next->registries = base->registries;
  ha::StateTableBuilder b(base->states);
  for (const auto& [id, value] : states) b.put(state(id, value));
  next->states = b.build();
  return next;
}

// What the tally must hold, counted from scratch: domain -> state -> hidden entities.
std::map<std::string, std::map<std::string, std::size_t>> hidden_states(const HiddenSet& hidden,
                                                                        const ha::Snapshot& snap) {
  std::map<std::string, std::map<std::string, std::size_t>> out;
  for (const auto& id : hidden.ids())
    if (const auto st = snap.states.find(id)) ++out[id.substr(0, id.find('.'))][st->state];
  return out;
}

void expect_tally(const HiddenTally& tally, const HiddenSet& hidden, const ha::Snapshot& snap) {
  std::map<std::string, std::map<std::string, std::size_t>> got;
  std::size_t with_state = 0;
  for (const auto& [domain, d] : tally.home)
    for (const auto& [st, n] : d.states) {
      got[domain][st] = n;
      with_state += n;
    }
  EXPECT_EQ(got, hidden_states(hidden, snap));
  EXPECT_EQ(tally.with_state, with_state);
}

TEST(HiddenTallyTest, AStateChangeKeepsTheHiddenSet) {
  Visibility vis(VisibilityRules{{}, {"lock"}, false});
  const ha::SnapshotPtr first = home();
  const HiddenSetPtr hidden = vis.hidden(first);
  ASSERT_EQ(hidden->size(), 10u);
  EXPECT_EQ(vis.hidden(with_states(first, {{"light.l1", "off"}, {"lock.k1", "unlocked"}})), hidden);
  // A new visible entity: worked out again, the same set, the same pointer.
  const ha::SnapshotPtr more = with_states(first, {{"light.new", "on"}});
  EXPECT_EQ(vis.hidden(more), hidden);
  // A new hidden entity: a new set holding it.
  const HiddenSetPtr grown = vis.hidden(with_states(more, {{"lock.new", "locked"}}));
  EXPECT_NE(grown, hidden);
  EXPECT_TRUE(grown->contains("lock.new"));
  // A registry change (the locks leave their areas) is looked at again.
  auto moved = std::make_shared<ha::Snapshot>(*first);
  moved->registries[static_cast<std::size_t>(ha::RegistryKind::entity)] = entity_registry({{"light.l0", "hall"}});
  const HiddenSetPtr rescoped = vis.hidden(moved);
  EXPECT_EQ(rescoped->ids(), hidden->ids());  // every lock still has a state: still hidden
  EXPECT_TRUE(hidden->scope_holds_hidden("area", "kitchen"));
  EXPECT_FALSE(rescoped->scope_holds_hidden("area", "kitchen"));  // no lock is in an area now
}

TEST(HiddenTallyTest, StateChangesAreFollowedWithoutARebuild) {
  Visibility vis(VisibilityRules{{}, {"lock"}, false});
  ha::SnapshotPtr snap = home();
  const HiddenSetPtr hidden = vis.hidden(snap);
  expect_tally(*HiddenTally::of(hidden, snap), *hidden, *snap);
  const std::size_t builds = HiddenTally::builds();
  const std::vector<std::map<std::string, std::string>> changes = {
      {{"light.l3", "off"}},                                               // visible only
      {{"lock.k0", "locked"}},                                             // one hidden
      {{"lock.k1", "jammed"}, {"lock.k2", "jammed"}, {"light.l4", "on"}},  // both
      {{"lock.k1", "unlocked"}},
  };
  for (const auto& change : changes) {
    snap = with_states(snap, change);
    ASSERT_EQ(vis.hidden(snap), hidden);
    const auto tally = HiddenTally::of(hidden, snap);
    expect_tally(*tally, *hidden, *snap);
    EXPECT_EQ(tally->by_area.at("kitchen").at("lock").count, 5u);
  }
  EXPECT_EQ(HiddenTally::builds(), builds);
  // A tally still held by a caller is not changed under it.
  const auto held = HiddenTally::of(hidden, snap);
  const std::size_t jammed = held->home.at("lock").states.at("jammed");
  snap = with_states(snap, {{"lock.k2", "locked"}});
  expect_tally(*HiddenTally::of(hidden, snap), *hidden, *snap);
  EXPECT_EQ(held->home.at("lock").states.at("jammed"), jammed);
  // New registries: the areas may have moved, so the tally is built again.
  auto moved = std::make_shared<ha::Snapshot>(*snap);
  moved->registries[static_cast<std::size_t>(ha::RegistryKind::entity)] = entity_registry({});
  const HiddenSetPtr same = vis.hidden(moved);
  EXPECT_TRUE(HiddenTally::of(same, moved)->by_area.empty());
  EXPECT_EQ(HiddenTally::builds(), builds + 1);
}

}  // namespace
}  // namespace hamcp::tools
