// EntityIndex under change: incremental upserts and removals, rebuilds from a
// list or a producer, the ids it lists, filter keys that follow updates, and
// queries running beside writers.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "search/entity_index.hpp"
#include "unit/search/index_test_util.hpp"

namespace hamcp::search {
namespace {

using testing::doc;
using testing::ids;
using testing::small_home;
using testing::text;

TEST(EntityIndex, IncrementalUpsertAndRemove) {
  EntityIndex idx(small_home());
  EXPECT_EQ(idx.size(), 9u);
  // Rename: the old name no longer finds it, the new one does.
  auto d = *idx.find("light.bed_light");
  d.friendly_name = "Reading Lamp";
  EXPECT_TRUE(idx.upsert(d));
  EXPECT_EQ(idx.size(), 9u);
  EXPECT_EQ(ids(idx.query(text("reading lamp")))[0], "light.bed_light");
  for (const auto& h : idx.query(text("bed")).hits)
    if (h.entity_id == "light.bed_light") {
      EXPECT_NE(h.matched_field, "friendly_name");
    }
  // State-only change keeps everything findable and updates filters.
  d.state = "off";
  idx.upsert(d);
  Query q = text("reading");
  q.state = "off";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"light.bed_light"});
  // New entity.
  idx.upsert(doc("light.garage", "Garage Spot", "Garage"));
  EXPECT_EQ(idx.size(), 10u);
  EXPECT_EQ(ids(idx.query(text("garage spot")))[0], "light.garage");
  // Remove: gone from text and filter results; removing twice is reported.
  EXPECT_TRUE(idx.remove("light.garage"));
  EXPECT_FALSE(idx.remove("light.garage"));
  EXPECT_EQ(idx.size(), 9u);
  for (const auto& h : idx.query(text("garage spot")).hits) EXPECT_NE(h.entity_id, "light.garage");
  EXPECT_FALSE(idx.find("light.garage").has_value());
  // Slot reuse after removal does not resurrect old tokens.
  idx.upsert(doc("switch.pump", "Pool Pump"));
  for (const auto& h : idx.query(text("garage")).hits) EXPECT_NE(h.entity_id, "switch.pump");
  EXPECT_EQ(ids(idx.query(text("pool pump")))[0], "switch.pump");
  // Empty id refused.
  EXPECT_FALSE(idx.upsert(EntityDoc{}));
}

TEST(EntityIndex, IncrementalEqualsRebuild) {
  // After a series of upserts/removes, results equal a fresh build of the same docs.
  EntityIndex inc(small_home());
  auto docs = small_home();
  docs[2].friendly_name = "Sofa Lights";
  docs[2].aliases = {"couch glow"};
  inc.upsert(docs[2]);
  inc.remove("sensor.kitchen_humidity");
  docs.erase(docs.begin() + 5);
  EntityDoc extra = doc("cover.garage_door", "Garage Door", "Garage", "garage");
  inc.upsert(extra);
  docs.push_back(extra);
  EntityIndex fresh(docs);
  for (const char* qt : {"sofa", "couch glow", "garage", "light", "kitchen", "door", "humidity", "living room"}) {
    auto a = inc.query(text(qt, 50));
    auto b = fresh.query(text(qt, 50));
    EXPECT_EQ(ids(a), ids(b)) << qt;
    EXPECT_EQ(a.total, b.total) << qt;
  }
  EXPECT_EQ(inc.stats().tokens, fresh.stats().tokens);
  EXPECT_EQ(inc.stats().postings, fresh.stats().postings);
}

TEST(EntityIndex, BuildReplacesContentAndKeepsLastDuplicate) {
  EntityIndex idx(small_home());
  std::vector<EntityDoc> next;
  next.push_back(doc("light.a", "Alpha Lamp"));
  next.push_back(doc("light.a", "Beta Lamp"));
  next.push_back(doc("", "No Id"));
  idx.build(std::move(next));
  EXPECT_EQ(idx.size(), 1u);
  EXPECT_FALSE(idx.find("light.bed_light").has_value());
  EXPECT_EQ(idx.find("light.a")->friendly_name, "Beta Lamp");
  EXPECT_TRUE(idx.query(text("alpha")).hits.empty());
  EXPECT_EQ(ids(idx.query(text("beta lamp")))[0], "light.a");
}

// The mirror's full rebuild hands documents over one at a time (a 100k-entity
// home never holds all of them): same content and answers as a build from a
// list, queries keep answering from the old content until the swap.
TEST(EntityIndex, BuildFromAProducerEqualsBuildFromAList) {
  EntityIndex listed(small_home());
  EntityIndex streamed(small_home());
  std::size_t produced = 0;
  streamed.build(1, [&](const EntityIndex::DocSink& sink) {
    for (EntityDoc d : small_home()) {
      ++produced;
      sink(std::move(d));
      // Still the old content: the new one is swapped in at the end.
      EXPECT_EQ(streamed.size(), small_home().size());
    }
    sink(doc("", "No Id"));
  });
  EXPECT_EQ(produced, small_home().size());
  EXPECT_EQ(streamed.size(), listed.size());
  for (const char* qt : {"bed light", "kitchen", "door", "living room", "humidity"}) {
    EXPECT_EQ(ids(streamed.query(text(qt, 50))), ids(listed.query(text(qt, 50)))) << qt;
  }
  EXPECT_EQ(streamed.stats().tokens, listed.stats().tokens);
  EXPECT_EQ(streamed.stats().postings, listed.stats().postings);
}

TEST(EntityIndex, ConcurrentQueriesAndUpdates) {
  EntityIndex idx(small_home());
  std::atomic<bool> failed{false};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&] {
      for (int i = 0; i < 300; ++i) {
        auto r = idx.query(text("bed light"));
        if (r.hits.empty() || r.hits[0].entity_id != "light.bed_light") failed = true;
      }
    });
  }
  std::thread writer([&] {
    for (int i = 0; i < 300; ++i) {
      idx.upsert(doc("switch.tmp_" + std::to_string(i % 7), "Temp Switch " + std::to_string(i)));
      if (i % 3 == 0) idx.remove("switch.tmp_" + std::to_string((i + 1) % 7));
    }
  });
  for (auto& th : readers) th.join();
  writer.join();
  EXPECT_FALSE(failed);
}

TEST(EntityIndex, GarbageQueriesAreHarmless) {
  EntityIndex idx(small_home());
  EXPECT_TRUE(idx.query(text("!!! ??? ...")).hits.empty());
  EXPECT_TRUE(idx.query(text("zzzzqqqq")).hits.empty());
  EXPECT_NO_THROW(idx.query(text(std::string(5000, 'a'))));
  EXPECT_NO_THROW(idx.query(text("\xFF\xFE\xC3")));
  std::string many;
  for (int i = 0; i < 200; ++i) many += "light kitchen ";
  EXPECT_NO_THROW(idx.query(text(many)));
  EntityIndex empty;
  EXPECT_TRUE(empty.query(text("light")).hits.empty());
  EXPECT_EQ(empty.query(text("")).total, 0u);
}

// The search feed keeps no copy of the ids any more: the index must list
// exactly what it holds, after removals and slot reuse too.
TEST(EntityIndex, ListsItsOwnEntityIds) {
  EntityIndex idx({doc("light.a", "A"), doc("light.b", "B"), doc("switch.c", "C")});
  idx.remove("light.b");
  idx.upsert(doc("sensor.d", "D"));  // reuses light.b's slot
  std::vector<std::string> ids = idx.entity_ids();
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"light.a", "sensor.d", "switch.c"}));
}

// Filters by interned keys: a key shared by two entities stays while one of
// them holds it, and a state that no entity has any more matches nothing.
TEST(EntityIndex, FilterKeysFollowUpdatesAndRemovals) {
  EntityDoc a = doc("light.a", "A", "Kitchen");
  EntityDoc b = doc("light.b", "B", "Kitchen");
  a.state = "on";
  b.state = "on";
  EntityIndex idx({a, b});
  Query by_area;
  by_area.area = "kitchen";
  EXPECT_EQ(idx.query(by_area).total, 2u);
  idx.remove("light.a");
  EXPECT_EQ(idx.query(by_area).total, 1u);
  b.state = "off";
  idx.upsert(b);
  Query on;
  on.state = "on";
  EXPECT_EQ(idx.query(on).total, 0u);
  Query off;
  off.state = "OFF";
  EXPECT_EQ(idx.query(off).total, 1u);
}

}  // namespace
}  // namespace hamcp::search
