// ha_get_overview under a visibility filter takes the hidden entities out of
// its numbers from a tally kept per hidden set and followed through state
// changes (tools/entities/overview_hidden.hpp): the numbers equal a count made
// from scratch over the visible entities, on repeated calls, after a hidden
// entity's state changes (a new snapshot), and for one area; a state change,
// visible or hidden, keeps the hidden set and rebuilds no tally.

#include "tools/entities/overview_hidden.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <string>

#include "home/overview_data.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr const char* kHiddenLight = "light.kitchen_ceiling_light";

class OverviewHiddenTest : public ToolsTest {
 protected:
  void start_hidden() {
    EntityToolsOptions options;
    options.visibility.deny = {kHiddenLight, "lock", "sensor.*temperature*"};
    start(options);
  }
  // domain -> visible entities with a state, counted from the mirror.
  std::map<std::string, std::size_t> visible_counts() {
    std::map<std::string, std::size_t> out;
    const auto hidden = env->ha.hidden_now();
    for (const auto& id : ha->snapshot()->states.entity_ids())
      if (!hidden->contains(id)) ++out[id.substr(0, id.find('.'))];
    return out;
  }
  void expect_counts_match(const CallResult& r) {
    ASSERT_FALSE(r.is_error) << r.text;
    std::map<std::string, std::size_t> shown;
    std::size_t total = 0;
    for (const auto& [domain, d] : r.structured.at("domains").as_object())
      shown[std::string(domain)] = d.at("count").to_number<std::size_t>();
    const auto expected = visible_counts();
    for (const auto& [domain, n] : expected) total += n;
    EXPECT_EQ(shown, expected) << r.text;
    EXPECT_EQ(r.structured.at("home").at("entities").to_number<std::size_t>(), total);
  }
  // The light domain's state histogram equals the visible lights' states.
  void expect_light_states_match(const CallResult& r) {
    ASSERT_FALSE(r.is_error) << r.text;
    std::map<std::string, std::size_t> expected;
    const auto hidden = env->ha.hidden_now();
    for (const auto& id : ha->snapshot()->states.entity_ids())
      if (id.rfind("light.", 0) == 0 && !hidden->contains(id)) ++expected[ha->snapshot()->states.find(id)->state];
    const json::object& light = r.structured.at("domains").at("light").as_object();
    ASSERT_TRUE(light.contains("states")) << r.text;
    for (const auto& [state, n] : light.at("states").as_object())
      EXPECT_EQ(n.to_number<std::size_t>(), expected[std::string(state)]) << state << ": " << r.text;
  }
  void set_and_wait(const std::string& id, const std::string& state) {
    const std::uint64_t before = ha->snapshot()->version;
    sim->store().set_state(id, state, json::object{}, sim->store().new_context());
    ASSERT_TRUE(eventually([&] { return ha->snapshot()->version > before; }));
  }
};

TEST_F(OverviewHiddenTest, AStateChangeKeepsTheHiddenSetAndRebuildsNoTally) {
  start_hidden();
  const CallResult first = call("ha_get_overview", R"({"detail":"minimal"})");
  expect_counts_match(first);
  const HiddenSetPtr hidden = env->ha.hidden_now();
  const std::size_t builds = HiddenTally::builds();
  // A visible light changes: the same hidden set, nothing rebuilt.
  set_and_wait("light.hallway_light", "unavailable");
  EXPECT_EQ(env->ha.hidden_now(), hidden);
  const CallResult after_visible = call("ha_get_overview", R"({"detail":"minimal"})");
  expect_counts_match(after_visible);
  expect_light_states_match(after_visible);
  // The hidden light changes state both ways: followed, not rebuilt.
  for (const char* state : {"unavailable", "on", "off"}) {
    set_and_wait(kHiddenLight, state);
    EXPECT_EQ(env->ha.hidden_now(), hidden);
    const CallResult r = call("ha_get_overview", R"({"detail":"minimal"})");
    expect_counts_match(r);
    expect_light_states_match(r);
  }
  EXPECT_EQ(HiddenTally::builds(), builds);
  // A new hidden entity changes what is hidden: a new set, a new tally.
  set_and_wait("lock.bench_new", "locked");
  EXPECT_NE(env->ha.hidden_now(), hidden);
  expect_counts_match(call("ha_get_overview", R"({"detail":"minimal"})"));
  EXPECT_EQ(HiddenTally::builds(), builds + 1);
}

TEST_F(OverviewHiddenTest, RepeatedCallsAndANewSnapshotKeepTheVisibleCounts) {
  start_hidden();
  ASSERT_GT(env->ha.hidden_now()->size(), 2u);
  const CallResult first = call("ha_get_overview", R"({"detail":"minimal"})");
  expect_counts_match(first);
  EXPECT_FALSE(first.structured.at("domains").as_object().contains("lock"));
  const CallResult again = call("ha_get_overview", R"({"detail":"minimal"})");
  EXPECT_EQ(again.structured.at("domains"), first.structured.at("domains"));
  // A hidden entity's state changes: a new snapshot, the tally follows, the same visible counts.
  const std::uint64_t before = ha->snapshot()->version;
  sim->store().set_state(kHiddenLight, "off", json::object{{"friendly_name", "Kitchen Ceiling Light"}},
                         sim->store().new_context());
  ASSERT_TRUE(eventually([&] { return ha->snapshot()->version > before; }));
  expect_counts_match(call("ha_get_overview", R"({"detail":"minimal"})"));
  // A new visible entity is counted; a new hidden one is not.
  sim->store().set_state("light.bench_new", "on", json::object{}, sim->store().new_context());
  sim->store().set_state("lock.bench_new", "locked", json::object{}, sim->store().new_context());
  ASSERT_TRUE(eventually([&] { return ha->snapshot()->states.find("lock.bench_new") != nullptr; }));
  expect_counts_match(call("ha_get_overview", R"({"detail":"minimal"})"));
}

TEST_F(OverviewHiddenTest, OneAreaLeavesItsHiddenEntitiesOut) {
  start_hidden();
  const CallResult all = call("ha_get_overview", R"({"detail":"minimal","area":"kitchen"})");
  ASSERT_FALSE(all.is_error) << all.text;
  const json::object& domains = all.structured.at("domains").as_object();
  ASSERT_TRUE(domains.contains("light")) << all.text;
  std::size_t kitchen_lights = 0;  // visible lights of the kitchen, from the registries' area map
  const auto hidden = env->ha.hidden_now();
  const auto areas = home::overview::AreaMap::build(*ha->snapshot());
  for (const auto& id : ha->snapshot()->states.entity_ids())
    if (id.rfind("light.", 0) == 0 && !hidden->contains(id) && areas->area(id) == "kitchen") ++kitchen_lights;
  ASSERT_GT(kitchen_lights, 0u);
  EXPECT_EQ(domains.at("light").at("count").to_number<std::size_t>(), kitchen_lights) << all.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
