// ha::Registry's index and build path: the index is an open-addressing table
// of item positions keyed by the key field's text inside each item (no node
// per item), and items of one shape share one key list, found without
// building a key list per item.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#if defined(__GLIBC__)
#endif

#include "ha/snapshot.hpp"
#include "unit/heap_in_use.hpp"

using namespace hamcp::ha;
namespace json = boost::json;

namespace {

using hamcp::testing::heap_in_use;
using hamcp::testing::kSanitized;

std::string area_id(int i) { return "area_" + std::to_string(100000 + i); }

json::array small_areas(int count) {
  json::array items;
  items.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) items.push_back(json::object{{"area_id", area_id(i)}, {"name", "A"}});
  return items;
}

}  // namespace

// 20,000 tiny items: what the registry holds beyond their ~16 packed bytes is
// the item table and the index. A node map as the index cost ~56 bytes an
// item on its own (97 in all, measured); the table costs 8 bytes a bucket (54).
TEST(RegistryIndex, CostsLittlePerItem) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  constexpr int kItems = 20000;
  const json::array items = small_areas(kItems);
  const std::size_t before = heap_in_use();
  auto reg = Registry::make(RegistryKind::area, json::array(items));  // the copy is freed inside
  const double held = static_cast<double>(heap_in_use()) - static_cast<double>(before);
  ASSERT_EQ(reg->size(), static_cast<std::size_t>(kItems));
  EXPECT_LT(held / kItems, 72.0) << "bytes per item (a node map as the index: ~97)";
  for (int i = 0; i < kItems; i += 997) {
    const RegistryItem found = reg->find(area_id(i));
    ASSERT_TRUE(found) << area_id(i);
    EXPECT_EQ(*found, items.at(static_cast<std::size_t>(i)).as_object());
  }
}

TEST(RegistryIndex, FindsEveryKeyTheFirstOneWinsAndTheEmptyKeyCounts) {
  json::array items = small_areas(5000);  // the table grows several times
  items.push_back(json::object{{"area_id", area_id(7)}, {"name", "duplicate"}});
  items.push_back(json::object{{"area_id", ""}, {"name", "empty key"}});
  items.push_back(json::object{{"area_id", 12}, {"name", "not a string: not indexed"}});
  items.push_back(json::object{{"name", "no key"}});
  const json::array copy = items;
  auto reg = Registry::make(RegistryKind::area, std::move(items));
  ASSERT_EQ(reg->size(), copy.size());
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(reg->find(area_id(i))) << area_id(i);
  EXPECT_EQ(reg->find(area_id(7))->at("name"), "A");  // HA's first entry, as before
  const RegistryItem empty = reg->find("");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->at("name"), "empty key");
  EXPECT_FALSE(reg->find("12"));
  EXPECT_FALSE(reg->find("area_"));
  EXPECT_FALSE(reg->find(area_id(5000)));
}

// Consecutive items whose keys differ in name, order or number each keep
// their own keys (the shape check compares every key, not only the count).
TEST(RegistryIndex, ItemsKeepTheirOwnKeysWhenShapesAlternate) {
  const json::array items = json::parse(R"([{"area_id":"a","b":1},{"area_id":"b","c":1},{"c":1,"area_id":"c"},)"
                                        R"({"area_id":"d","b":1},{"area_id":"e","b":1,"c":2},{"area_id":"f"},)"
                                        R"({"area_id":"g","b":{"area_id":"nested"}},{"area_id":"h","b":2}])")
                                .as_array();
  std::string text = json::serialize(items);
  boost::system::error_code ec;
  auto reg = Registry::make_from_text(RegistryKind::area, text, ec);
  ASSERT_FALSE(ec);
  ASSERT_EQ(reg->size(), items.size());
  for (std::size_t i = 0; i < items.size(); ++i) EXPECT_EQ(json::serialize(reg->item(i)), json::serialize(items[i]));
  EXPECT_EQ(*reg->find("c"), items[2].as_object());
  EXPECT_FALSE(reg->find("nested"));
}

// The search feed lists entries without a state by their keys: every item
// with a string key field, in HA's order, duplicates included, nothing else.
TEST(RegistryIndex, ForEachKeyListsTheKeyFieldsInOrder) {
  const json::array items = json::parse(R"([{"area_id":"b"},{"name":"no key"},{"area_id":"a"},7,)"
                                        R"({"area_id":3},{"area_id":""},{"area_id":"b","name":"again"}])")
                                .as_array();
  auto reg = Registry::make(RegistryKind::area, json::array(items));
  std::vector<std::string> keys;
  reg->for_each_key([&](std::string_view key) { keys.emplace_back(key); });
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a", "", "b"}));
}

// A list read from text (its length unknown up front) where every item has a
// string of its own: once built, the registry keeps its packed bytes, one
// 24-byte entry and the index per item, not the builder's scratch. The string
// pool's table of every string seen (24 bytes each) used to stay allocated
// (`seen_ = {}` keeps a vector's capacity), and the item table kept the
// doubling slack: 118.5 bytes an item here before, 63.4 now.
TEST(RegistryIndex, BuildingFromTextKeepsNoScratch) {
  if (kSanitized) GTEST_SKIP() << "the sanitizer's allocator does not report mallinfo";
  constexpr int kItems = 20000;
  std::string text = "[";
  for (int i = 0; i < kItems; ++i)
    text +=
        (i ? ",{\"area_id\":\"" : "{\"area_id\":\"") + area_id(i) + "\",\"name\":\"Room " + std::to_string(i) + "\"}";
  text += "]";
  const std::size_t before = heap_in_use();
  boost::system::error_code ec;
  auto reg = Registry::make_from_text(RegistryKind::area, text, ec);
  const double held = static_cast<double>(heap_in_use()) - static_cast<double>(before);
  ASSERT_FALSE(ec);
  ASSERT_EQ(reg->size(), static_cast<std::size_t>(kItems));
  EXPECT_LT(held / kItems, 85.0) << "bytes per item";
  EXPECT_EQ(reg->find(area_id(12345))->at("name"), "Room 12345");
}

// The same from text: the list's length is unknown up front, so the index
// grows by doubling and rehashes the keys from the hashes the builder kept,
// positions without a key (not indexed) in between.
TEST(RegistryIndex, FromTextFindsEveryKeyAfterTheIndexGrew) {
  json::array items;
  for (int i = 0; i < 5000; ++i) {
    items.push_back(json::object{{"area_id", area_id(i)}, {"name", "A"}});
    if (i % 7 == 0) items.push_back(json::object{{"name", "no key"}});
  }
  items.push_back(json::object{{"area_id", area_id(7)}, {"name", "duplicate"}});
  items.push_back(json::object{{"area_id", ""}, {"name", "empty key"}});
  const std::string text = json::serialize(items);
  boost::system::error_code ec;
  auto reg = Registry::make_from_text(RegistryKind::area, text, ec);
  ASSERT_FALSE(ec);
  ASSERT_EQ(reg->size(), items.size());
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(reg->find(area_id(i))) << area_id(i);
  EXPECT_EQ(reg->find(area_id(7))->at("name"), "A");
  EXPECT_EQ(reg->find("")->at("name"), "empty key");
  EXPECT_FALSE(reg->find(area_id(5000)));
}

// Strings of every length the pool takes (4-256 bytes) and around it, each
// twice (the second one pooled), differing only in their middle or last
// byte: every item decodes to exactly what was read (the pool's hash reads
// a string in overlapping pieces; no two of these may be taken for equal).
TEST(RegistryIndex, PooledStringsOfEveryLengthDecodeAsRead) {
  json::array items;
  for (std::size_t n = 0; n <= 300; ++n) {
    for (char last : {'x', 'y'}) {
      std::string s(n, 'q');
      if (n > 0) {
        s[n / 2] = 'm';
        s[n - 1] = last;
      }
      for (int copy = 0; copy < 2; ++copy)
        items.push_back(json::object{{"area_id", area_id(static_cast<int>(items.size()))}, {"name", s}});
    }
  }
  const std::string text = json::serialize(items);
  boost::system::error_code ec;
  auto reg = Registry::make_from_text(RegistryKind::area, text, ec);
  ASSERT_FALSE(ec);
  ASSERT_EQ(reg->size(), items.size());
  for (std::size_t i = 0; i < items.size(); ++i) ASSERT_EQ(reg->item(i), items[i]) << i;
}
