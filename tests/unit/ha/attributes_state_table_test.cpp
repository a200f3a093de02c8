// ha::Attributes (values packed, key lists interned for the process) and the
// StateTable's sorted shards: reads give back what was stored, exactly as the
// former JSON-text attributes and node-map shards did, for less memory.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ha/detail/attribute_keys.hpp"
#include "ha/snapshot.hpp"
#include "sim/home/home_model.hpp"
#include "unit/heap_in_use.hpp"

using namespace hamcp::ha;
namespace json = boost::json;

namespace {

using hamcp::testing::kSanitized;
using hamcp::testing::small_heap_in_use;

EntityStatePtr state(std::string id, std::string value) {
  auto s = std::make_shared<EntityState>();
  s->entity_id = std::move(id);
  s->state = std::move(value);
  return s;
}

}  // namespace

// Every state of a generated home: the attributes come back as the same JSON
// text (key order, number kinds and bits), copies and moves keep them, and an
// object that cannot use an interned key list (too many keys) is kept whole.
TEST(Attributes, GiveBackEveryStateOfAGeneratedHomeExactly) {
  const auto home = hamcp::sim::generate_home(3000, 7);
  for (const auto& s : home.states) {
    const Attributes a(s.attributes);
    ASSERT_EQ(json::serialize(a.parse()), json::serialize(s.attributes)) << s.entity_id;
    ASSERT_EQ(a.text(), json::serialize(s.attributes));
    const Attributes copy = a;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
    Attributes moved = Attributes(s.attributes);
    EXPECT_EQ(copy, a);
    EXPECT_EQ(moved, a);
    if (const auto* name = s.attributes.if_contains("friendly_name"); name && name->is_string())
      EXPECT_EQ(a.string_of("friendly_name"), name->get_string());
  }
  json::object wide;
  for (std::size_t i = 0; i <= detail::kMaxInternedKeys; ++i) wide["k" + std::to_string(i)] = i;
  const Attributes whole(wide);
  EXPECT_EQ(json::serialize(whole.parse()), json::serialize(wide));
  EXPECT_FALSE(detail::intern_attribute_keys(wide));
}

// Equality is equality of the objects as JSON text was: same keys, same
// order, same values.
TEST(Attributes, CompareAsTheirObjects) {
  const json::object a = json::parse(R"({"unit":"°C","device_class":"temperature","v":21.5})").as_object();
  const json::object same = json::parse(R"({"unit":"°C","device_class":"temperature","v":21.5})").as_object();
  const json::object value = json::parse(R"({"unit":"°C","device_class":"temperature","v":21.6})").as_object();
  const json::object order = json::parse(R"({"device_class":"temperature","unit":"°C","v":21.5})").as_object();
  const json::object kind = json::parse(R"({"unit":"°C","device_class":"temperature","v":21})").as_object();
  EXPECT_EQ(Attributes(a), Attributes(same));
  EXPECT_FALSE(Attributes(a) == Attributes(value));
  EXPECT_FALSE(Attributes(a) == Attributes(order));
  EXPECT_FALSE(Attributes(a) == Attributes(kind));
  EXPECT_FALSE(Attributes(a) == Attributes());
  EXPECT_EQ(Attributes(), Attributes(json::object()));
  Attributes assigned;
  assigned = a;
  EXPECT_EQ(assigned, Attributes(a));
  assigned = Attributes();
  EXPECT_EQ(assigned.text(), "{}");
}

// The entities of a home share a few key lists: the attributes of 5,000
// states hold well under the JSON text's size (the text form held it all,
// plus a 32-byte std::string inside every state).
TEST(Attributes, HoldLessThanTwoThirdsOfTheirText) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  const auto home = hamcp::sim::generate_home(5000, 42);
  std::vector<Attributes> held;
  held.reserve(home.states.size());
  std::size_t text = 0;
  for (const auto& s : home.states) text += json::serialize(s.attributes).size();
  const std::size_t before = small_heap_in_use();
  for (const auto& s : home.states) held.emplace_back(s.attributes);
  const double bytes = static_cast<double>(small_heap_in_use()) - static_cast<double>(before);
  EXPECT_LT(bytes, 0.66 * static_cast<double>(text))
      << bytes / static_cast<double>(held.size()) << " bytes a state, text " << text / held.size();
}

// Random puts, replacements and erases against a std::map: find, size,
// entity_ids, for_each and for_each_difference agree after every build, and
// a built table does not change when the builder goes on.
TEST(StateTableShards, ReadsMatchAMapThroughRandomUpdates) {
  std::mt19937 rng(11);
  std::map<std::string, EntityStatePtr> model;
  StateTable table;
  for (int round = 0; round < 20; ++round) {
    StateTableBuilder b(table);
    const std::map<std::string, EntityStatePtr> before_model = model;
    const StateTable before = table;
    for (int op = 0; op < 400; ++op) {
      const std::string id = "sensor.s" + std::to_string(rng() % 1500);
      if (rng() % 4 == 0) {
        EXPECT_EQ(b.erase(id), model.erase(id) == 1);
      } else {
        auto s = state(id, std::to_string(round) + "/" + std::to_string(op));
        model[id] = s;
        b.put(s);
      }
    }
    table = b.build();
    ASSERT_EQ(table.size(), model.size());
    std::vector<std::string> ids;
    for (const auto& [id, s] : model) {
      ids.push_back(id);
      ASSERT_EQ(table.find(id), s) << id;
    }
    EXPECT_EQ(table.entity_ids(), ids);
    EXPECT_FALSE(table.find("sensor.none"));
    std::size_t walked = 0;
    table.for_each([&](const EntityStatePtr& s) { walked += model.at(s->entity_id) == s; });
    EXPECT_EQ(walked, model.size());
    std::map<std::string, std::pair<EntityStatePtr, EntityStatePtr>> diff, expected;
    table.for_each_difference(before, [&](std::string_view id, const EntityStatePtr& was, const EntityStatePtr& is) {
      EXPECT_TRUE(diff.emplace(std::string(id), std::make_pair(was, is)).second) << id;
    });
    for (const auto& [id, s] : model)
      if (!before_model.count(id) || before_model.at(id) != s)
        expected[id] = {before_model.count(id) ? before_model.at(id) : nullptr, s};
    for (const auto& [id, s] : before_model)
      if (!model.count(id)) expected[id] = {s, nullptr};
    EXPECT_EQ(diff, expected);
    EXPECT_EQ(before.size(), before_model.size());  // the earlier table is unchanged
    for (const auto& [id, s] : before_model) ASSERT_EQ(before.find(id), s);
  }
}

// 20,000 states already made: putting them in a table costs the table's own
// entries only, 16 bytes a state plus the shards (a node map: ~72 bytes).
TEST(StateTableShards, CostLittlePerState) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  constexpr int kStates = 20000;
  std::vector<EntityStatePtr> states;
  states.reserve(kStates);
  for (int i = 0; i < kStates; ++i) states.push_back(state("light.apartment_light_" + std::to_string(i), "on"));
  const std::size_t before = small_heap_in_use();
  StateTableBuilder b{StateTable()};
  for (const auto& s : states) b.put(s);
  const StateTable table = b.build();
  const double held = static_cast<double>(small_heap_in_use()) - static_cast<double>(before);
  ASSERT_EQ(table.size(), static_cast<std::size_t>(kStates));
  EXPECT_LT(held / kStates, 24.0) << "bytes a state";
}
