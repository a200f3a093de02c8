// The filter key lists (area, floor and label keys of an entity) are stored
// once per distinct list and shared: every entity of a room used to carry its
// own heap copy of the same keys (issue 9: ~32 bytes per entity).
#include <gtest/gtest.h>

#include <vector>

#include "search/index_store.hpp"

namespace hamcp::search {
namespace {

EntityDoc in_room(std::string id, std::string area, std::vector<std::string> labels = {}) {
  EntityDoc d;
  d.entity_id = std::move(id);
  d.friendly_name = d.entity_id;
  d.area_id = area;
  d.area_name = area;
  d.floor_id = "ground";
  d.floor_name = "Ground";
  d.labels = std::move(labels);
  return d;
}

TEST(KeyLists, AnEqualListIsStoredOnceAndCountedPerHolder) {
  KeyLists lists;
  const std::vector<KeyId> a{1, 2, 3};
  const std::vector<KeyId> b{1, 2, 4};
  const KeyId* first = lists.acquire(a.data(), a.size());
  const KeyId* second = lists.acquire(a.data(), a.size());
  const KeyId* other = lists.acquire(b.data(), b.size());
  EXPECT_EQ(first, second);
  EXPECT_NE(first, other);
  EXPECT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists.acquire(a.data(), 0), nullptr);  // an empty list is no list
  lists.release(first, a.size());
  EXPECT_EQ(lists.size(), 2u);  // still held once
  EXPECT_EQ(std::vector<KeyId>(second, second + 3), a);
  lists.release(second, a.size());
  EXPECT_EQ(lists.size(), 1u);
  lists.release(other, b.size());
  EXPECT_EQ(lists.size(), 0u);
  lists.release(nullptr, 0);  // harmless
}

TEST(KeyLists, EntitiesOfARoomShareOneListUntilOneChangesRoom) {
  IndexStore store;
  store.upsert(in_room("light.a", "Kitchen"));
  store.upsert(in_room("light.b", "Kitchen"));
  store.upsert(in_room("light.c", "Kitchen", {"Night"}));
  store.upsert(in_room("light.d", "Hall"));
  const KeyId* kitchen = store.find("light.a")->keys.lists;
  ASSERT_NE(kitchen, nullptr);
  EXPECT_EQ(store.find("light.b")->keys.lists, kitchen);
  EXPECT_NE(store.find("light.c")->keys.lists, kitchen);  // a label makes its own list
  EXPECT_NE(store.find("light.d")->keys.lists, kitchen);
  EXPECT_TRUE(store.find("light.c")->keys.has_label(store.keys().find("night")));

  store.upsert(in_room("light.b", "Hall"));  // moves: now shares the hall's list
  EXPECT_EQ(store.find("light.b")->keys.lists, store.find("light.d")->keys.lists);
  EXPECT_EQ(store.find("light.a")->keys.lists, kitchen);  // the kitchen's list is still held by light.a
  EXPECT_TRUE(store.find("light.a")->keys.has_area(store.keys().find("kitchen")));

  store.remove("light.a");
  store.remove("light.c");
  store.upsert(in_room("light.e", "Kitchen"));  // the kitchen's list was given back and is made again
  EXPECT_TRUE(store.find("light.e")->keys.has_area(store.keys().find("kitchen")));
  EXPECT_TRUE(store.find("light.e")->keys.has_floor(store.keys().find("ground")));
  EXPECT_FALSE(store.find("light.e")->keys.has_area(store.keys().find("hall")));
}

}  // namespace
}  // namespace hamcp::search
