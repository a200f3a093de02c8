// ha_search's config results: automations, scripts and scenes found by what
// is inside them (entity ids, services, blueprint inputs), from the config
// cache, kept current when a config is written or removed.
#include <thread>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::vector<std::string> config_hits(const CallResult& r) {
  std::vector<std::string> ids;
  if (const json::value* v = r.structured.if_contains("config_results"))
    for (const auto& item : v->as_array()) ids.emplace_back(item.at("entity_id").as_string());
  return ids;
}

bool has(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

class ConfigSearchTest : public ToolsTest {
 protected:
  CallResult search(const std::string& query, const std::string& extra = "") {
    return call("ha_search", R"({"query":")" + query + R"(","config_time_budget":5)" + extra + "}");
  }
  // Polls (bounded: 10 s) until `pred` holds for the search's config hits.
  template <class Pred>
  bool eventually(const std::string& query, Pred pred) {
    for (int i = 0; i < 200; ++i) {
      if (pred(config_hits(search(query)))) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
};

TEST_F(ConfigSearchTest, FindsItemsByWhatIsInsideThem) {
  start();
  CallResult r = search("binary_sensor.hallway_motion_motion");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(has(config_hits(r), "automation.hallway_light_on_motion")) << r.text;
  EXPECT_FALSE(r.structured.contains("config_status")) << r.text;  // warm after the bounded wait
  EXPECT_TRUE(has(config_hits(search("notify.notify")), "automation.leak_alert"));
  // A blueprint automation is found by the entity ids in its inputs.
  CallResult landing = search("light.landing_light");
  EXPECT_TRUE(has(config_hits(landing), "automation.landing_motion_light")) << landing.text;
  // A scene by an entity it sets; include_config brings the config along.
  CallResult scene = search("light.tv_backlight", R"(,"include_config":true)");
  ASSERT_TRUE(has(config_hits(scene), "scene.movie_night")) << scene.text;
  for (const auto& item : scene.structured.at("config_results").as_array())
    if (item.at("entity_id") == "scene.movie_night") EXPECT_TRUE(item.as_object().contains("config"));
}

TEST_F(ConfigSearchTest, EntityFiltersAndOtherDomainsSkipConfigs) {
  start();
  CallResult filtered = search("light.tv_backlight", R"(,"area":"living_room")");
  EXPECT_FALSE(filtered.structured.contains("config_results")) << filtered.text;
  CallResult lights = search("light.tv_backlight", R"(,"domain":"light")");
  EXPECT_FALSE(lights.structured.contains("config_results")) << lights.text;
  CallResult scripts = search("light.tv_backlight", R"(,"search_types":["script"])");
  EXPECT_FALSE(has(config_hits(scripts), "scene.movie_night")) << scripts.text;
}

TEST_F(ConfigSearchTest, FollowsWritesAndRemovals) {
  start();
  const std::string unique = "input_boolean.config_search_probe";
  ASSERT_TRUE(eventually(unique, [](const auto& ids) { return ids.empty(); }));
  CallResult made = call("ha_config_set", R"({"kind":"automation","config":{"alias":"Probe watcher",
      "triggers":[{"trigger":"state","entity_id":")" +
                                              unique + R"("}],"actions":[{"action":"light.turn_on"}]}})");
  ASSERT_FALSE(made.is_error) << made.text;
  EXPECT_TRUE(eventually(unique, [](const auto& ids) { return has(ids, "automation.probe_watcher"); }));
  CallResult removed = call("ha_config_remove", R"({"id":"automation.probe_watcher"})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_TRUE(eventually(unique, [](const auto& ids) { return !has(ids, "automation.probe_watcher"); }));
}

}  // namespace
}  // namespace hamcp::tools::testing
