// EntityIndex: ranking, filters, pagination, hidden entities (updates,
// rebuilds and concurrency: index_updates_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "search/entity_index.hpp"
#include "unit/search/index_test_util.hpp"

namespace hamcp::search {
namespace {

using testing::doc;
using testing::ids;
using testing::small_home;
using testing::text;

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

}  // namespace
}  // namespace hamcp::search
