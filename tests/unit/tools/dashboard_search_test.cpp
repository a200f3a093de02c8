// ha_search over dashboards: a dashboard found by its title, by an entity one
// of its cards shows, by a card type or heading; from the config cache (a
// search downloads nothing), kept current by lovelace_updated (a config saved
// or deleted) and panels_updated (a dashboard created, renamed, removed).
#include <thread>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class DashboardSearchTest : public ToolsTest {
 protected:
  CallResult search(const std::string& query, const std::string& extra = R"(,"search_types":["dashboard"])") {
    return call("ha_search", R"({"query":")" + query + R"(","config_time_budget":5)" + extra + "}");
  }
  // url_path of each dashboard result, best first.
  static std::vector<std::string> dashboards(const CallResult& r) {
    std::vector<std::string> out;
    if (const json::value* v = r.structured.if_contains("config_results"))
      for (const auto& item : v->as_array())
        if (item.as_object().at("kind") == "dashboard") out.emplace_back(item.as_object().at("url_path").as_string());
    return out;
  }
  static bool has(const std::vector<std::string>& list, const std::string& url) {
    return std::find(list.begin(), list.end(), url) != list.end();
  }
  // Polls (bounded: 10 s) until `pred` holds for the dashboards a search finds.
  template <class Pred>
  bool eventually_found(const std::string& query, Pred pred) {
    for (int i = 0; i < 200; ++i) {
      if (pred(dashboards(search(query)))) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  void set_sim_config_quietly(const std::string& url_path, json::value config) {
    std::lock_guard lock(sim->store().mutex());
    sim->store().home().lovelace.configs[url_path] = std::move(config);
  }
};

TEST_F(DashboardSearchTest, FindsADashboardByTitleEntityCardTypeAndHeading) {
  start();
  CallResult r = search("Energy");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_FALSE(dashboards(r).empty()) << r.text;
  EXPECT_EQ(dashboards(r).front(), "dashboard-energy") << r.text;
  const json::object& hit = r.structured.at("config_results").at(0).as_object();
  EXPECT_EQ(hit.at("title"), "Energy");
  EXPECT_FALSE(hit.contains("entity_id")) << "a dashboard is named by url_path";

  r = search("climate.living_room_radiator");
  EXPECT_EQ(dashboards(r), std::vector<std::string>{"lovelace"}) << r.text;
  EXPECT_NE(r.text.find("climate.living_room_radiator"), std::string::npos) << "says what matched: " << r.text;

  EXPECT_TRUE(has(dashboards(search("light.tv_backlight")), "dashboard-wall")) << "YAML dashboards are indexed too";
  EXPECT_TRUE(has(dashboards(search("thermostat")), "lovelace"));
  EXPECT_TRUE(has(dashboards(search("Wall panel")), "dashboard-wall"));

  // include_config shows the views; without search_types dashboards come with the other configs.
  r = search("Maple House", R"(,"search_types":["dashboard"],"include_config":true)");
  ASSERT_TRUE(has(dashboards(r), "lovelace")) << r.text;
  EXPECT_NE(r.text.find("Climate"), std::string::npos) << r.text;
  EXPECT_TRUE(has(dashboards(search("sensor.coffee_machine_energy", "")), "dashboard-energy"));
  // Entity-only filters and other types leave dashboards out.
  EXPECT_TRUE(dashboards(search("Energy", R"(,"search_types":["automation"])")).empty());
}

TEST_F(DashboardSearchTest, SearchReadsTheCacheAndFollowsSavesCreatesAndDeletes) {
  start();
  ASSERT_TRUE(has(dashboards(search("Energy")), "dashboard-energy"));
  // Changed behind HA's back (no event): a search does not download the config again.
  set_sim_config_quietly(
      "dashboard-energy",
      json::object{
          {"views", json::array{json::object{
                        {"title", "Garage"},
                        {"cards", json::array{json::object{{"type", "tile"}, {"entity", "cover.garage_door"}}}}}}}});
  EXPECT_FALSE(has(dashboards(search("cover.garage_door")), "dashboard-energy"));

  // A save through HA fires lovelace_updated: that dashboard is read again.
  CallResult r = call("ha_get_dashboard", R"({"url_path":"dashboard-energy"})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_set_dashboard", R"({"url_path":"dashboard-energy","config_hash":")" +
                                   std::string(r.structured.at("config_hash").as_string()) +
                                   R"(","config":{"views":[{"title":"Power","cards":[{"type":"gauge",
      "entity":"sensor.solar_power_xyz"}]}]}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(eventually_found("sensor.solar_power_xyz", [](const auto& d) { return has(d, "dashboard-energy"); }));

  // Created (panels_updated), found by its title before anything is saved in it.
  r = call("ha_set_dashboard", R"({"url_path":"garden-view","title":"Greenhouse"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(eventually_found("Greenhouse", [](const auto& d) { return has(d, "garden-view"); }));

  r = call("ha_remove_dashboard", R"({"url_path":"garden-view","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(eventually_found("Greenhouse", [](const auto& d) { return !has(d, "garden-view"); }));
}

}  // namespace
}  // namespace hamcp::tools::testing
