// The mirror's compact representation (issue 9, item 1): attributes and
// registry items kept as JSON text, state keys viewing the states' own ids,
// large messages parsed into an arena that is unmapped as a whole.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "ha/detail/ha_json.hpp"
#include "ha/detail/message_arena.hpp"
#include "ha/snapshot.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/home/home_model.hpp"

using namespace hamcp::ha;
namespace json = boost::json;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

json::array entity_registry_list(const hamcp::sim::Home& home) {
  json::array items;
  for (const auto& e : home.entities) items.emplace_back(hamcp::sim::entity_entry_json(e, false));
  return items;
}

std::size_t heap_in_use() {
#if defined(__GLIBC__)
  return mallinfo2().uordblks;
#else
  return 0;
#endif
}

}  // namespace

TEST(CompactMirror, AttributesGiveBackTheSameObject) {
  const json::object original = json::parse(R"({"friendly_name":"Küche \"Decke\"","brightness":255,)"
                                            R"("temperature":21.049999999999997,"big":18446744073709551615,)"
                                            R"("neg":-9223372036854775808,"list":[1,2.5,null,true,"x"],)"
                                            R"("nested":{"a":{"b":[{"c":1e-300}]}},"empty":{}})")
                                    .as_object();
  const Attributes attributes(original);
  const json::object back = attributes.parse();
  EXPECT_EQ(json::serialize(back), json::serialize(original));  // same order, same numbers
  EXPECT_EQ(attributes.string_of("friendly_name"), "Küche \"Decke\"");
  EXPECT_EQ(attributes.string_of("brightness"), "");  // not a string
  EXPECT_EQ(attributes.string_of("missing"), "");
  EXPECT_EQ(Attributes().parse(), json::object());
  EXPECT_EQ(Attributes(json::object()).text(), "{}");
  EXPECT_EQ(attributes, Attributes(original));
}

TEST(CompactMirror, RegistryFindsAndListsItemsInOrder) {
  json::array items = json::parse(R"([{"area_id":"kitchen","name":"Kitchen","aliases":["Küche"]},)"
                                  R"(42,{"area_id":"garage","name":"Garage"},{"name":"no key"}])")
                          .as_array();
  const json::array copy = items;
  auto reg = Registry::make(RegistryKind::area, std::move(items));
  ASSERT_EQ(reg->size(), 4u);
  std::size_t i = 0;
  for (const json::value& item : reg->items()) EXPECT_EQ(item, copy[i++]);  // non-objects too, in HA's order
  const RegistryItem kitchen = reg->find("kitchen");
  ASSERT_TRUE(kitchen);
  EXPECT_EQ(kitchen->at("aliases").as_array().at(0), "Küche");
  EXPECT_EQ(*reg->find("garage"), copy[2].as_object());
  EXPECT_TRUE(reg->find("cellar") == nullptr);
  EXPECT_FALSE(reg->find(""));
}

// A state's key in its shard is a view of the state's own entity_id, so
// replacing a state must re-key the entry before the old state is freed (under
// ASan a stale view is a use-after-free).
TEST(CompactMirror, StateTableKeysFollowReplacedStates) {
  StateTable empty;
  StateTableBuilder b(empty);
  for (int round = 0; round < 3; ++round) {
    auto s = std::make_shared<EntityState>();
    s->entity_id = "sensor.a_rather_long_entity_id_beyond_sso";
    s->state = std::to_string(round);
    b.put(std::move(s));
  }
  StateTable table = b.build();
  EXPECT_EQ(table.size(), 1u);
  ASSERT_TRUE(table.find("sensor.a_rather_long_entity_id_beyond_sso"));
  EXPECT_EQ(table.find("sensor.a_rather_long_entity_id_beyond_sso")->state, "2");
  EXPECT_EQ(table.entity_ids(), std::vector<std::string>{"sensor.a_rather_long_entity_id_beyond_sso"});
  StateTableBuilder c(table);
  EXPECT_TRUE(c.erase("sensor.a_rather_long_entity_id_beyond_sso"));
  EXPECT_EQ(c.build().size(), 0u);
  EXPECT_EQ(table.size(), 1u);  // the published table is untouched
}

// Before: the list was kept as a Boost.JSON DOM, ~2.4 KB of heap per entity
// entry (every key and string its own malloc). Now about the JSON text.
TEST(CompactMirror, EntityRegistryHeapIsCloseToItsText) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  const auto home = hamcp::sim::generate_home(5000, 42);
  json::array items = entity_registry_list(home);
  std::size_t text_bytes = 0;
  for (const auto& item : items) text_bytes += json::serialize(item).size();
  const std::size_t count = items.size();
  const std::size_t before = heap_in_use();
  auto reg = Registry::make(RegistryKind::entity, std::move(items));
  const std::size_t after = heap_in_use();
  ASSERT_GT(count, 1000u);
  EXPECT_EQ(reg->size(), count);
  const double held = static_cast<double>(after) - static_cast<double>(before);
  // Text + index; the DOM this replaced held well over 3x the text.
  EXPECT_LT(held, 1.6 * static_cast<double>(text_bytes)) << "per entry: " << held / count << " bytes";
}

TEST(CompactMirror, LargeMessagesAreParsedIntoTheirOwnArena) {
  std::string big = "[";
  for (int i = 0; i < 20000; ++i)
    big += std::string(i ? "," : "") + R"({"entity_id":"light.l)" + std::to_string(i) + R"("})";
  big += "]";
  ASSERT_GE(big.size(), detail::kArenaMessageBytes);
  boost::system::error_code ec;
  json::value v = detail::parse_ha_json(big, ec);
  ASSERT_FALSE(ec);
  EXPECT_TRUE(v.storage().is_shared());  // owns its MessageArena
  EXPECT_EQ(v.as_array().size(), 20000u);
  json::value small = detail::parse_ha_json(R"({"type":"pong","id":3})", ec);
  ASSERT_FALSE(ec);
  EXPECT_FALSE(small.storage().is_shared());  // the default (malloc) resource
}
