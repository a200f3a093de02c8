#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "search/entity_index.hpp"
#include "search/normalize.hpp"

namespace hamcp::search {
namespace {

EntityDoc doc(std::string id, std::string name, std::string area = "", std::string device_class = "") {
  EntityDoc d;
  d.entity_id = std::move(id);
  d.friendly_name = std::move(name);
  d.area_name = std::move(area);
  if (!d.area_name.empty()) {
    d.area_id = fold_key(d.area_name);
    for (char& c : d.area_id)
      if (c == ' ') c = '_';
  }
  d.device_class = std::move(device_class);
  d.state = "on";
  return d;
}

std::vector<std::string> ids(const Result& r) {
  std::vector<std::string> out;
  for (const auto& h : r.hits) out.push_back(h.entity_id);
  return out;
}

Query text(std::string t, std::size_t limit = 10) {
  Query q;
  q.text = std::move(t);
  q.limit = limit;
  return q;
}

std::vector<EntityDoc> small_home() {
  std::vector<EntityDoc> v;
  v.push_back(doc("light.bed_light", "Bed Light", "Bedroom"));
  v.push_back(doc("light.kitchen_ceiling", "Kitchen Ceiling Light", "Kitchen"));
  v.push_back(doc("light.ceiling_lights", "Ceiling Lights", "Living Room"));
  v.push_back(doc("light.kuche_licht", "Küchenlicht", "Küche"));
  v.push_back(doc("sensor.bedroom_temperature", "Bedroom Temperature", "Bedroom", "temperature"));
  v.push_back(doc("sensor.kitchen_humidity", "Kitchen Humidity", "Kitchen", "humidity"));
  v.push_back(doc("switch.decorative_lights", "Decorative Lights", "Living Room"));
  v.push_back(doc("binary_sensor.front_door", "Front Door", "Hallway", "door"));
  v.push_back(doc("climate.hvac", "Hvac", "Living Room"));
  v.back().aliases = {"Thermostat downstairs"};
  return v;
}

TEST(EntityIndex, ExactEntityIdRanksFirstWithScore100) {
  EntityIndex idx(small_home());
  auto r = idx.query(text("light.bed_light"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].entity_id, "light.bed_light");
  EXPECT_EQ(r.hits[0].score, 100.0);
  EXPECT_EQ(r.hits[0].matched_field, "entity_id");
  for (std::size_t i = 1; i < r.hits.size(); ++i) EXPECT_LT(r.hits[i].score, 100.0);
  // Case-insensitive exact id.
  EXPECT_EQ(idx.query(text("Light.Bed_Light")).hits[0].score, 100.0);
}

TEST(EntityIndex, EntityIdSplitAndJoined) {
  EntityIndex idx(small_home());
  for (const char* q : {"bed_light", "bed light", "bedlight", "Bed Light"}) {
    auto r = idx.query(text(q));
    ASSERT_FALSE(r.hits.empty()) << q;
    EXPECT_EQ(r.hits[0].entity_id, "light.bed_light") << q;
  }
}

TEST(EntityIndex, DiacriticsAndCase) {
  EntityIndex idx(small_home());
  for (const char* q : {"Küche", "kuche", "KUCHE", "Kuche"}) {
    auto r = idx.query(text(q));
    ASSERT_FALSE(r.hits.empty()) << q;
    EXPECT_EQ(r.hits[0].entity_id, "light.kuche_licht") << q;
  }
}

TEST(EntityIndex, TyposStillFind) {
  EntityIndex idx(small_home());
  EXPECT_EQ(ids(idx.query(text("kitchn ceilng lihgt")))[0], "light.kitchen_ceiling");
  EXPECT_EQ(ids(idx.query(text("bedrom temprature")))[0], "sensor.bedroom_temperature");
}

TEST(EntityIndex, MultiFieldQueriesCombineAreaAndName) {
  EntityIndex idx(small_home());
  // "kitchen" only in the area/name, "humidity" in name and device class.
  EXPECT_EQ(ids(idx.query(text("kitchen humidity")))[0], "sensor.kitchen_humidity");
  auto r = idx.query(text("living room thermostat"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].entity_id, "climate.hvac");  // area + alias/domain synonym
}

TEST(EntityIndex, DomainWordsBoostDomains) {
  EntityIndex idx(small_home());
  // "lamp" is not in any name: the domain synonym must bring up lights.
  auto r = idx.query(text("bedroom lamp"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].entity_id, "light.bed_light");
  // German domain word.
  r = idx.query(text("Licht Schlafzimmer"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].entity_id, "light.bed_light");
  r = idx.query(text("door"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].entity_id, "binary_sensor.front_door");
}

TEST(EntityIndex, ReportsMatchedField) {
  EntityIndex idx(small_home());
  auto r = idx.query(text("Decorative Lights"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].matched_field, "friendly_name");
  EXPECT_EQ(r.hits[0].matched_text, "Decorative Lights");
  r = idx.query(text("thermostat downstairs"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].entity_id, "climate.hvac");
  EXPECT_EQ(r.hits[0].matched_field, "alias");
  EXPECT_EQ(r.hits[0].matched_text, "Thermostat downstairs");
  r = idx.query(text("hallway"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].entity_id, "binary_sensor.front_door");
  EXPECT_EQ(r.hits[0].matched_field, "area");
  EXPECT_EQ(r.hits[0].matched_text, "Hallway");
}

TEST(EntityIndex, Filters) {
  auto home = small_home();
  home[4].floor_name = "First Floor";
  home[4].floor_id = "first_floor";
  home[4].floor_aliases = {"Upstairs"};
  home[4].labels = {"Climate Watch"};
  home[0].state = "off";
  EntityIndex idx(std::move(home));
  Query q = text("");
  q.domain = "light";
  EXPECT_EQ(idx.query(q).total, 4u);
  q.area = "bedroom";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"light.bed_light"});
  q = text("");
  q.area = "Living Room";  // name, id and case variants
  EXPECT_EQ(idx.query(q).total, 3u);
  q.area = "living_room";
  EXPECT_EQ(idx.query(q).total, 3u);
  q.area = "kuche";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"light.kuche_licht"});
  q = text("");
  q.floor = "UPSTAIRS";  // alias
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"sensor.bedroom_temperature"});
  q.floor = "first_floor";  // id
  EXPECT_EQ(idx.query(q).total, 1u);
  q.floor = "First Floor";  // name
  EXPECT_EQ(idx.query(q).total, 1u);
  q = text("");
  q.label = "climate watch";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"sensor.bedroom_temperature"});
  q = text("");
  q.state = "off";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"light.bed_light"});
  q = text("");
  q.device_class = "door";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"binary_sensor.front_door"});
  // Filters apply to text queries too, including an exact entity_id.
  q = text("light.bed_light");
  q.domain = "switch";
  for (const auto& h : idx.query(q).hits) EXPECT_EQ(h.entity_id.rfind("switch.", 0), 0u);
  q = text("ceiling");
  q.area = "kitchen";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"light.kitchen_ceiling"});
  // Unknown filter value: nothing, not everything.
  q = text("");
  q.area = "garage";
  EXPECT_EQ(idx.query(q).total, 0u);
}

TEST(EntityIndex, FilterListingUsesEveryFilterKind) {
  auto home = small_home();
  home[7].labels = {"Security"};
  home[4].labels = {"Security", "Climate Watch"};
  EntityIndex idx(std::move(home));
  Query q = text("");
  q.domain = "binary_sensor";  // two-word domain
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"binary_sensor.front_door"});
  q.domain = "Binary Sensor";
  EXPECT_EQ(idx.query(q).total, 1u);
  q = text("");
  q.label = "security";
  EXPECT_EQ(ids(idx.query(q)), (std::vector<std::string>{"binary_sensor.front_door", "sensor.bedroom_temperature"}));
  q.domain = "sensor";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"sensor.bedroom_temperature"});
  q = text("");
  q.label = "no such label";
  EXPECT_EQ(idx.query(q).total, 0u);
  q = text("");
  q.domain = "vacuum";
  EXPECT_EQ(idx.query(q).total, 0u);
  q = text("");
  q.device_class = "temperature";
  q.area = "bedroom";
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"sensor.bedroom_temperature"});
}

TEST(EntityIndex, StateOnlyUpsertKeepsFlagsCurrent) {
  EntityIndex idx(small_home());
  auto d = *idx.find("light.bed_light");
  d.state = "off";
  d.hidden = true;  // same texts, different flags: must still be honoured
  idx.upsert(d);
  for (const auto& h : idx.query(text("bed light")).hits) EXPECT_NE(h.entity_id, "light.bed_light");
  Query q = text("");
  q.state = "off";
  q.include_hidden = true;
  EXPECT_EQ(ids(idx.query(q)), std::vector<std::string>{"light.bed_light"});
  d.hidden = false;
  idx.upsert(d);
  EXPECT_EQ(ids(idx.query(text("bed light")))[0], "light.bed_light");
  EXPECT_EQ(idx.find("light.bed_light")->state, "off");
}

TEST(EntityIndex, PaginationIsConsistent) {
  std::vector<EntityDoc> docs;
  for (int i = 0; i < 25; ++i)
    docs.push_back(doc("light.lamp_" + std::to_string(100 + i), "Lamp " + std::to_string(100 + i)));
  EntityIndex idx(std::move(docs));
  std::vector<std::string> all = ids(idx.query(text("lamp", 100)));
  ASSERT_EQ(all.size(), 25u);
  std::vector<std::string> paged;
  for (std::size_t off = 0; off < 30; off += 10) {
    Query q = text("lamp", 10);
    q.offset = off;
    auto r = idx.query(q);
    EXPECT_EQ(r.total, 25u);
    EXPECT_EQ(r.has_more, off + 10 < 25) << off;
    for (auto& id : ids(r)) paged.push_back(id);
  }
  EXPECT_EQ(paged, all);
  Query q = text("lamp", 0);
  auto r = idx.query(q);
  EXPECT_TRUE(r.hits.empty());
  EXPECT_EQ(r.total, 25u);
  EXPECT_TRUE(r.has_more);
  q = text("lamp", 5);
  q.offset = 1000;
  r = idx.query(q);
  EXPECT_TRUE(r.hits.empty());
  EXPECT_FALSE(r.has_more);
  // Filter-only listing pages in entity_id order.
  q = text("", 3);
  q.offset = 3;
  EXPECT_EQ(ids(idx.query(q)), (std::vector<std::string>{"light.lamp_103", "light.lamp_104", "light.lamp_105"}));
}

TEST(EntityIndex, TiesBreakByEntityIdAscending) {
  std::vector<EntityDoc> docs;
  // Same name, same fields: identical scores.
  for (const char* id : {"light.zeta", "light.alpha", "light.mid"}) docs.push_back(doc(id, "Porch Light", "Porch"));
  EntityIndex idx(std::move(docs));
  auto r = idx.query(text("porch light"));
  ASSERT_EQ(r.hits.size(), 3u);
  EXPECT_EQ(r.hits[0].score, r.hits[2].score);
  EXPECT_EQ(ids(r), (std::vector<std::string>{"light.alpha", "light.mid", "light.zeta"}));
  // Scores never increase down the list, on any query.
  r = EntityIndex(small_home()).query(text("light", 50));
  for (std::size_t i = 1; i < r.hits.size(); ++i) {
    EXPECT_GE(r.hits[i - 1].score, r.hits[i].score);
    if (r.hits[i - 1].score == r.hits[i].score) {
      EXPECT_LT(r.hits[i - 1].entity_id, r.hits[i].entity_id);
    }
  }
}

TEST(EntityIndex, HiddenAndDisabledNeedIncludeHidden) {
  auto home = small_home();
  home[0].hidden = true;
  home[1].disabled = true;
  EntityIndex idx(std::move(home));
  auto r = idx.query(text("bed light"));
  for (const auto& h : r.hits) EXPECT_NE(h.entity_id, "light.bed_light");
  EXPECT_TRUE(idx.query(text("light.kitchen_ceiling")).hits.empty() ||
              idx.query(text("light.kitchen_ceiling")).hits[0].entity_id != "light.kitchen_ceiling");
  Query q = text("bed light");
  q.include_hidden = true;
  EXPECT_EQ(ids(idx.query(q))[0], "light.bed_light");
  q = text("");
  q.domain = "light";
  EXPECT_EQ(idx.query(q).total, 2u);
  q.include_hidden = true;
  EXPECT_EQ(idx.query(q).total, 4u);
}

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

}  // namespace
}  // namespace hamcp::search

namespace hamcp::search {
namespace {

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
