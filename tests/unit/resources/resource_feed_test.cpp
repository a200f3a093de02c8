// ResourceFeed's memory of unavailable entities: kept the same whether the
// feed works out the uris (someone subscribes) or only tracks (nobody does),
// so ha://home's updates stay exact when the first subscriber arrives.
#include "resources/resource_feed.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace hamcp::resources::testing {
namespace {

ha::EntityStatePtr state(const std::string& id, const std::string& value) {
  auto s = std::make_shared<ha::EntityState>();
  s->entity_id = id;
  s->state = value;
  return s;
}

// A snapshot holding `states` ({id, state} pairs).
ha::Snapshot snapshot(std::initializer_list<std::pair<std::string, std::string>> states) {
  ha::Snapshot snap;
  ha::StateTableBuilder b(snap.states);
  for (const auto& [id, value] : states) b.put(state(id, value));
  snap.states = b.build();
  return snap;
}

TEST(ResourceFeed, TrackingAloneKeepsTheSameMemoryOfUnavailableEntities) {
  const Membership members;  // no areas or devices
  std::unordered_set<std::string> with_uris, tracked;
  auto both = [&](const ha::ChangeSet& changes, const ha::Snapshot& snap) {
    ResourceFeed::updated_uris(changes, snap, members, with_uris);
    ResourceFeed::track_unavailable(changes, snap, tracked);
    EXPECT_EQ(tracked, with_uris);
  };
  ha::ChangeSet resync;
  resync.full_resync = true;
  both(resync, snapshot({{"light.a", "unavailable"}, {"light.b", "on"}, {"sensor.c", "unavailable"}}));
  EXPECT_EQ(tracked, (std::unordered_set<std::string>{"light.a", "sensor.c"}));

  ha::ChangeSet changed;
  changed.states_changed = {"light.a", "light.b"};
  both(changed, snapshot({{"light.a", "on"}, {"light.b", "unavailable"}, {"sensor.c", "unavailable"}}));
  EXPECT_EQ(tracked, (std::unordered_set<std::string>{"light.b", "sensor.c"}));

  ha::ChangeSet removed;
  removed.states_removed = {"sensor.c"};
  both(removed, snapshot({{"light.a", "on"}, {"light.b", "unavailable"}}));
  EXPECT_EQ(tracked, (std::unordered_set<std::string>{"light.b"}));

  // A later full resync forgets what is gone.
  both(resync, snapshot({{"light.a", "on"}}));
  EXPECT_TRUE(tracked.empty());
}

// With the memory kept while nobody watched, an entity still unavailable is
// no news for ha://home; one that stops being unavailable is.
TEST(ResourceFeed, HomeIsUpdatedOnlyWhenAvailabilityChanges) {
  const Membership members;
  std::unordered_set<std::string> unavailable;
  ha::ChangeSet resync;
  resync.full_resync = true;
  ResourceFeed::track_unavailable(resync, snapshot({{"light.a", "unavailable"}}), unavailable);
  ha::ChangeSet changed;
  changed.states_changed = {"light.a"};
  auto uris = ResourceFeed::updated_uris(changed, snapshot({{"light.a", "unavailable"}}), members, unavailable);
  EXPECT_EQ(uris, std::vector<std::string>{"ha://entity/light.a"});
  uris = ResourceFeed::updated_uris(changed, snapshot({{"light.a", "on"}}), members, unavailable);
  std::sort(uris.begin(), uris.end());
  EXPECT_EQ(uris, (std::vector<std::string>{"ha://entity/light.a", "ha://home"}));
}

}  // namespace
}  // namespace hamcp::resources::testing
