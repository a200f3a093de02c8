// The mirror's compact representation (issue 9, item 1): attributes and
// registry items in a packed binary form (attributes' key lists interned,
// registries' repeated strings shared, hex ids at half size), state tables,
// large messages parsed into an arena that is unmapped as a whole.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cmath>
#include <cstdlib>
#include <map>
#if defined(__GLIBC__)
#endif

#include "ha/detail/ha_json.hpp"
#include "ha/detail/message_arena.hpp"
#include "ha/snapshot.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/home/home_model.hpp"
#include "unit/heap_in_use.hpp"

using namespace hamcp::ha;
namespace json = boost::json;

namespace {

using hamcp::testing::kSanitized;
using hamcp::testing::small_heap_in_use;

json::array entity_registry_list(const hamcp::sim::Home& home) {
  json::array items;
  for (const auto& e : home.entities) items.emplace_back(hamcp::sim::entity_entry_json(e, false));
  return items;
}

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

// Every kind of value comes back with the same kind, bits and order: hex ids
// (lowercase, even length) are packed, anything else that looks like hex
// stays as it was; strings that repeat across items are shared.
TEST(CompactMirror, PackedRegistryGivesBackEveryValueExactly) {
  const std::string long_text(300, 'x');
  const std::string text =
      R"([{"id":"acde7b27aa4bac09b881854a3e6194ef","device_id":"4bac8a7074cc7a6e2580b594026b0019",)"
      R"("upper":"ACDE7B27AA4BAC09","odd":"abcdef123","short_hex":"abcd","digits":"12345678",)"
      R"("all_digits":"0123456789abcdef","past_f":"abcdefg0","mixed":"abcdeF01","slash":"0123456/",)"
      R"("colon":"0123456:","at":"abcdef@0","backtick":"abcdef`0","utf8":"abcdefé",)"
      R"("empty":"","platform":"shelly","entry":"01KBE5QR060SX1B4GS0BK4QNJ0","name":"Küche \"Decke\"",)"
      R"("i":-9223372036854775808,"j":9223372036854775807,"u":18446744073709551615,"zero":0,)"
      R"("neg":-1,"d":21.049999999999997,"tiny":1e-300,"nd":-0.0,"big":1.7976931348623157e308,)"
      R"("t":true,"f":false,"n":null,"list":[[],{},[1,"shelly",{"deadbeefdeadbeef":"k"}]],)"
      R"("nested":{"a":{"b":[{"c":"01KBE5QR060SX1B4GS0BK4QNJ0"}]}}},)"
      R"({"id":"ffffffffffffffff","platform":"shelly","entry":"01KBE5QR060SX1B4GS0BK4QNJ0"},)"
      R"({"platform":"shelly","id":"second shape"},"a string item",7,[1,2],null,)"
      R"({"id":")" +
      long_text + R"(","again":")" + long_text + R"("}])";
  json::array items = json::parse(text).as_array();
  const json::array copy = items;
  auto reg = Registry::make(RegistryKind::device, std::move(items));
  ASSERT_EQ(reg->size(), copy.size());
  for (std::size_t i = 0; i < copy.size(); ++i) {
    EXPECT_EQ(json::serialize(reg->item(i)), json::serialize(copy[i])) << "item " << i;
    EXPECT_EQ(reg->item(i).kind(), copy[i].kind());
  }
  const json::object& first = copy[0].as_object();
  const RegistryItem found = reg->find("acde7b27aa4bac09b881854a3e6194ef");
  ASSERT_TRUE(found);
  EXPECT_EQ(json::serialize(*found), json::serialize(first));
  EXPECT_TRUE(found->at("u").is_uint64());
  EXPECT_TRUE(found->at("i").is_int64());
  EXPECT_TRUE(std::signbit(found->at("nd").as_double()));
  EXPECT_EQ(*reg->find("ffffffffffffffff"), copy[1].as_object());
  EXPECT_EQ(*reg->find("second shape"), copy[2].as_object());
  EXPECT_EQ(*reg->find(long_text), copy[7].as_object());
  std::size_t walked = 0;
  reg->for_each([&](const json::value& v) { EXPECT_EQ(v, copy[walked++]); });
  EXPECT_EQ(walked, copy.size());
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

// for_each_difference reports exactly the added, changed and removed states
// between two tables, and nothing for the states both share.
TEST(CompactMirror, StateTableDifferenceIsWhatChanged) {
  const auto state = [](const std::string& id, const std::string& value) {
    auto s = std::make_shared<EntityState>();
    s->entity_id = id;
    s->state = value;
    return s;
  };
  StateTableBuilder b{StateTable{}};
  for (int i = 0; i < 1000; ++i) b.put(state("sensor.s" + std::to_string(i), "0"));
  const StateTable before = b.build();
  StateTableBuilder c(before);
  c.put(state("sensor.s7", "1"));
  c.put(state("sensor.new", "1"));
  EXPECT_TRUE(c.erase("sensor.s9"));
  const StateTable after = c.build();
  std::map<std::string, std::string> seen;  // id -> "was>is" ("-" for absent)
  after.for_each_difference(before, [&](std::string_view id, const EntityStatePtr& was, const EntityStatePtr& is) {
    seen[std::string(id)] = (was ? was->state : "-") + ">" + (is ? is->state : "-");
  });
  EXPECT_EQ(seen,
            (std::map<std::string, std::string>{{"sensor.new", "->1"}, {"sensor.s7", "0>1"}, {"sensor.s9", "0>-"}}));
  std::size_t same = 0;
  after.for_each_difference(after, [&](std::string_view, const EntityStatePtr&, const EntityStatePtr&) { ++same; });
  EXPECT_EQ(same, 0u);
}

std::size_t text_size(const json::array& items) {
  std::size_t bytes = 0;
  for (const auto& item : items) bytes += json::serialize(item).size();
  return bytes;
}

json::array device_registry_list(const hamcp::sim::Home& home) {
  json::array items;
  for (const auto& d : home.devices) items.emplace_back(hamcp::sim::device_json(d));
  return items;
}

}  // namespace

// Before: the list was kept as a Boost.JSON DOM, ~2.4 KB of heap per entity
// entry (every key and string its own malloc); then as the JSON text of each
// entry's values (~0.35 KB on top of the keys it shares). Now packed: shared
// strings, hex ids at half size, numbers as their bits: well under half the
// JSON text (the text form held ~0.65x of it, the DOM over 3x).
TEST(CompactMirror, RegistriesHoldLessThanHalfTheirText) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  const auto home = hamcp::sim::generate_home(5000, 42);
  for (const RegistryKind kind : {RegistryKind::entity, RegistryKind::device}) {
    const std::size_t before = small_heap_in_use();  // the list's DOM is made and freed after this
    json::array items = kind == RegistryKind::entity ? entity_registry_list(home) : device_registry_list(home);
    const std::size_t count = items.size(), text_bytes = text_size(items);
    ASSERT_GT(count, 1000u);
    auto reg = Registry::make(kind, std::move(items));
    const double held = static_cast<double>(small_heap_in_use()) - static_cast<double>(before);
    EXPECT_EQ(reg->size(), count);
    EXPECT_LT(held, 0.5 * static_cast<double>(text_bytes))
        << to_string(kind) << ": " << held / static_cast<double>(count) << " bytes per entry, JSON text "
        << text_bytes / count;
  }
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
