// The home as MCP resources against the demo home in the simulator: list,
// templates, reads (home, entity, area, floor, device), not found, completion
// of the template variables, and resources/updated after a state change.
#include <gtest/gtest.h>

#include <atomic>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::resources::testing {
namespace {

namespace json = boost::json;
using mcp::testing::error_code_of;
using mcp::testing::MemoryChannel;

class ResourcesTest : public tools::testing::ToolsTest {
 protected:
  void SetUp() override {
    with_resources = true;
    start();
  }

  json::object rpc(const std::string& method, const json::object& params) {
    json::object req{{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", method}, {"params", params}};
    auto channel = std::make_shared<MemoryChannel>();
    h.session->deliver(json::value(std::move(req)), channel);
    h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(10000));
    auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << method;
    return responses.empty() ? json::object() : responses.front();
  }
  // The JSON body of a resources/read (fails the test on an error).
  json::object read(const std::string& uri) {
    json::object response = rpc("resources/read", {{"uri", uri}});
    if (!response.contains("result")) {
      ADD_FAILURE() << uri << ": " << json::serialize(response);
      return {};
    }
    const json::object& entry = response.at("result").at("contents").at(0).as_object();
    EXPECT_EQ(entry.at("uri").as_string(), uri);
    EXPECT_EQ(entry.at("mimeType").as_string(), "application/json");
    return json::parse(entry.at("text").as_string()).as_object();
  }
  json::object complete(const std::string& uri_template, const std::string& name, const std::string& value) {
    json::object response = rpc("completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", uri_template}}},
                                                        {"argument", {{"name", name}, {"value", value}}}});
    return response.at("result").at("completion").as_object();
  }
  static std::vector<std::string> strings(const json::value& array) {
    std::vector<std::string> out;
    for (const auto& v : array.as_array()) out.emplace_back(v.as_string());
    return out;
  }
  std::size_t updates_for(const std::string& uri) const {
    std::size_t n = 0;
    for (const auto& m : h.standalone->with_method("notifications/resources/updated"))
      if (m.at("params").at("uri").as_string() == uri) ++n;
    return n;
  }
  void set_state(const std::string& entity_id, const std::string& state) {
    sim->store().set_state(entity_id, state, {}, sim->store().new_context());
  }
};

TEST_F(ResourcesTest, ListsTheHomeAndTheTemplates) {
  json::object list = rpc("resources/list", {});
  // The home's one fixed resource (the skills guide lists its own skill:// ones).
  std::vector<std::string> home_uris;
  for (const auto& r : list.at("result").at("resources").as_array())
    if (r.at("uri").as_string().starts_with("ha://")) home_uris.emplace_back(r.at("uri").as_string());
  EXPECT_EQ(home_uris, std::vector<std::string>{"ha://home"});
  json::object templates = rpc("resources/templates/list", {});
  std::vector<std::string> uris;
  for (const auto& t : templates.at("result").at("resourceTemplates").as_array())
    uris.emplace_back(t.at("uriTemplate").as_string());
  EXPECT_EQ(uris, (std::vector<std::string>{"ha://entity/{entity_id}", "ha://area/{area_id}", "ha://floor/{floor_id}",
                                            "ha://device/{device_id}"}));
  EXPECT_TRUE(h.server.capabilities().at("resources").at("subscribe").as_bool());
}

TEST_F(ResourcesTest, HomeSummarisesWithoutListingEveryEntity) {
  json::object home = read("ha://home");
  EXPECT_EQ(home.at("entity_count").to_number<std::uint64_t>(), ha->snapshot()->states.size());
  EXPECT_GT(home.at("domains").at("light").to_number<std::uint64_t>(), 0u);
  EXPECT_GE(home.at("floors").as_array().size(), 4u);
  EXPECT_GT(home.at("areas").as_array().size(), 5u);
  EXPECT_TRUE(home.at("unavailable").as_object().contains("count"));
  EXPECT_FALSE(home.contains("entities"));
  EXPECT_LT(json::serialize(home).size(), 16000u);  // sized for a model
}

TEST_F(ResourcesTest, ReadsAnEntityAnAreaAFloorAndADevice) {
  json::object entity = read("ha://entity/light.kitchen_ceiling_light");
  EXPECT_EQ(entity.at("entity_id").as_string(), "light.kitchen_ceiling_light");
  EXPECT_TRUE(entity.at("attributes").is_object());
  EXPECT_EQ(entity.at("area_id").as_string(), "kitchen");
  ASSERT_TRUE(entity.at("registry").as_object().contains("device_id"));
  const std::string device_id(entity.at("registry").at("device_id").as_string());

  json::object area = read("ha://area/kitchen");
  EXPECT_EQ(area.at("name").as_string(), "Kitchen");
  const auto& lines = area.at("entities").as_array();
  ASSERT_FALSE(lines.empty());
  bool found = false;
  for (const auto& l : lines) {
    EXPECT_FALSE(l.as_object().contains("attributes"));  // states, not every attribute
    found = found || l.at("entity_id").as_string() == "light.kitchen_ceiling_light";
  }
  EXPECT_TRUE(found);

  json::object floor = read("ha://floor/" + std::string(area.at("floor_id").as_string()));
  bool kitchen_on_floor = false;
  for (const auto& a : floor.at("areas").as_array()) kitchen_on_floor |= a.at("area_id").as_string() == "kitchen";
  EXPECT_TRUE(kitchen_on_floor);

  json::object device = read("ha://device/" + device_id);
  EXPECT_EQ(device.at("device_id").as_string(), device_id);
  EXPECT_GE(device.at("entity_count").to_number<std::uint64_t>(), 1u);
}

TEST_F(ResourcesTest, AnUnknownIdIsResourceNotFoundNamingIt) {
  for (const std::string uri : {"ha://entity/light.nowhere", "ha://area/nowhere", "ha://floor/nowhere",
                                "ha://device/nowhere", "ha://nowhere/here"}) {
    json::object response = rpc("resources/read", {{"uri", uri}});
    EXPECT_EQ(error_code_of(response), -32002) << uri;
    EXPECT_NE(json::serialize(response).find("nowhere"), std::string::npos) << json::serialize(response);
  }
  EXPECT_EQ(read("ha://home").at("entity_count").to_number<std::uint64_t>(),
            ha->snapshot()->states.size());  // still serving
}

TEST_F(ResourcesTest, CompletesTemplateVariablesByPrefixThenFuzzily) {
  json::object lights = complete("ha://entity/{entity_id}", "entity_id", "light.");
  std::size_t light_count = 0;
  ha->snapshot()->states.for_each(
      [&](const ha::EntityStatePtr& s) { light_count += s->entity_id.rfind("light.", 0) == 0; });
  EXPECT_EQ(lights.at("total").to_number<std::uint64_t>(), light_count);
  for (const auto& v : strings(lights.at("values"))) EXPECT_EQ(v.rfind("light.", 0), 0u) << v;

  json::object all = complete("ha://entity/{entity_id}", "entity_id", "");
  EXPECT_EQ(all.at("values").as_array().size(), std::min<std::size_t>(100, ha->snapshot()->states.size()));
  EXPECT_EQ(all.at("hasMore").as_bool(), ha->snapshot()->states.size() > 100);

  // Letters in order: a typo-tolerant match, ranked after exact prefixes.
  std::vector<std::string> fuzzy = strings(complete("ha://entity/{entity_id}", "entity_id", "lkitceil").at("values"));
  EXPECT_NE(std::find(fuzzy.begin(), fuzzy.end(), "light.kitchen_ceiling_light"), fuzzy.end());

  std::vector<std::string> areas = strings(complete("ha://area/{area_id}", "area_id", "kit").at("values"));
  ASSERT_FALSE(areas.empty());
  EXPECT_EQ(areas.front(), "kitchen");
  EXPECT_FALSE(complete("ha://floor/{floor_id}", "floor_id", "").at("values").as_array().empty());
  EXPECT_FALSE(complete("ha://device/{device_id}", "device_id", "").at("values").as_array().empty());
}

TEST_F(ResourcesTest, ASubscribedEntityIsUpdatedWhenItChanges) {
  const std::string light = "ha://entity/light.kitchen_ceiling_light";
  rpc("resources/subscribe", {{"uri", light}});
  rpc("resources/subscribe", {{"uri", "ha://area/kitchen"}});
  rpc("resources/subscribe", {{"uri", "ha://home"}});
  const std::string before(read(light).at("state").as_string());
  const std::string after = before == "on" ? "off" : "on";
  // The mirror's own full resync right after start may notify every
  // subscribed uri too; the updates are in mirror order, so once the light's
  // new state is readable and announced, everything older has been sent.
  auto announced = [&](const std::string& state, std::size_t seen) {
    for (int tries = 0; tries < 5; ++tries) {
      if (!eventually([&] { return updates_for(light) > seen; }, std::chrono::milliseconds(5000))) return false;
      seen = updates_for(light);  // before the read, which runs the loop (and may send more)
      if (read(light).at("state").as_string() == state) return true;
    }
    return false;
  };
  set_state("light.kitchen_ceiling_light", after);
  ASSERT_TRUE(announced(after, 0));
  ASSERT_TRUE(eventually([&] { return updates_for("ha://area/kitchen") > 0; }, std::chrono::milliseconds(2000)));

  const std::size_t home_seen = updates_for("ha://home"), light_seen = updates_for(light);
  const std::size_t area_seen = updates_for("ha://area/kitchen");
  set_state("light.kitchen_ceiling_light", before);
  ASSERT_TRUE(announced(before, light_seen));
  ASSERT_TRUE(
      eventually([&] { return updates_for("ha://area/kitchen") > area_seen; }, std::chrono::milliseconds(2000)));
  EXPECT_EQ(updates_for("ha://home"), home_seen);  // on/off is not news for the summary

  set_state("light.kitchen_ceiling_light", "unavailable");
  ASSERT_TRUE(eventually([&] { return updates_for("ha://home") > home_seen; }, std::chrono::milliseconds(5000)));
  const auto ids = strings(read("ha://home").at("unavailable").at("entity_ids"));
  EXPECT_NE(std::find(ids.begin(), ids.end(), "light.kitchen_ceiling_light"), ids.end());
  // Another entity's change does not concern this subscriber.
  EXPECT_EQ(updates_for("ha://entity/light.tv_backlight"), 0u);
}

// Until a session subscribes, the server says nobody watches (the feed then
// works out no uris); the first subscription says so for good.
TEST_F(ResourcesTest, TheServerTellsWhenAResourceIsFirstWatched) {
  EXPECT_FALSE(h.server.resources_watched()->load());
  rpc("resources/subscribe", {{"uri", "ha://entity/light.kitchen_ceiling_light"}});
  EXPECT_TRUE(h.server.resources_watched()->load());
  rpc("resources/unsubscribe", {{"uri", "ha://entity/light.kitchen_ceiling_light"}});
  EXPECT_TRUE(h.server.resources_watched()->load());
}

// A reconnect re-downloads the whole home (a full resync); only what changed
// meanwhile is announced, not every subscribed uri.
TEST_F(ResourcesTest, AResyncAnnouncesOnlyWhatChanged) {
  const std::string quiet = "ha://entity/light.tv_backlight", moved = "ha://entity/sensor.resync_probe";
  set_state("sensor.resync_probe", "1");
  ASSERT_TRUE(eventually([&] { return ha->snapshot()->states.find("sensor.resync_probe") != nullptr; },
                         std::chrono::milliseconds(5000)));
  rpc("resources/subscribe", {{"uri", quiet}});
  rpc("resources/subscribe", {{"uri", moved}});
  rpc("resources/subscribe", {{"uri", "ha://home"}});
  // Shared, not a reference to this frame: the listener may outlive a failed assertion.
  auto resync_count = std::make_shared<std::atomic<int>>(0);
  std::atomic<int>& resyncs = *resync_count;
  const std::size_t listener = ha->add_change_listener([resync_count](const ha::ChangeSet& c, const ha::SnapshotPtr&) {
    if (c.full_resync) ++*resync_count;
  });
  // Let the start-up's own resync (which may announce everything) pass first.
  h.run_for(std::chrono::milliseconds(300));
  const std::size_t quiet_seen = updates_for(quiet), home_seen = updates_for("ha://home");
  const std::size_t moved_seen = updates_for(moved);
  const int resyncs_before = resyncs.load();
  sim->drop_websockets();
  set_state("sensor.resync_probe", "2");  // while hamcp is reconnecting: only the resync brings it
  ASSERT_TRUE(eventually([&] { return resyncs.load() > resyncs_before; }, std::chrono::milliseconds(10000)));
  ASSERT_TRUE(eventually([&] { return updates_for(moved) > moved_seen; }, std::chrono::milliseconds(5000)));
  h.run_for(std::chrono::milliseconds(100));
  EXPECT_EQ(read(moved).at("state").as_string(), "2");
  EXPECT_EQ(updates_for(quiet), quiet_seen) << "an unchanged entity was announced after the resync";
  EXPECT_EQ(updates_for("ha://home"), home_seen) << "a state change is not news for the summary";
  ha->remove_change_listener(listener);
}

TEST_F(ResourcesTest, ABurstOfChangesOfOneEntityIsCoalesced) {
  rpc("resources/subscribe", {{"uri", "ha://entity/sensor.burst_probe"}});
  set_state("sensor.burst_probe", "0");
  ASSERT_TRUE(
      eventually([&] { return updates_for("ha://entity/sensor.burst_probe") > 0; }, std::chrono::milliseconds(5000)));
  const std::size_t first = updates_for("ha://entity/sensor.burst_probe");
  for (int i = 1; i <= 100; ++i) set_state("sensor.burst_probe", std::to_string(i));
  ASSERT_TRUE(eventually([&] { return read("ha://entity/sensor.burst_probe").at("state").as_string() == "100"; },
                         std::chrono::milliseconds(5000)));
  h.run_for(std::chrono::milliseconds(50));
  const std::size_t burst = updates_for("ha://entity/sensor.burst_probe") - first;
  EXPECT_GE(burst, 1u);
  EXPECT_LE(burst, 100u);  // never more than the changes; usually far fewer
}

}  // namespace
}  // namespace hamcp::resources::testing
