// ha_search's config results: automations, scripts, scenes and helpers found
// by what is inside them (entity ids, also in templates, services, blueprint
// inputs, names, icons), from the config cache, kept current when a config is
// written or removed, also when the write changes no entity (HA's reload
// events, config_entries/subscribe).
#include <thread>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::vector<std::string> config_hits(const CallResult& r) {
  std::vector<std::string> ids;
  if (const json::value* v = r.structured.if_contains("config_results"))
    for (const auto& item : v->as_array()) {
      const json::object& o = item.as_object();
      const char* key = o.contains("entity_id") ? "entity_id" : o.contains("entry_id") ? "entry_id" : "url_path";
      ids.emplace_back(o.at(key).as_string());  // url_path: a dashboard
    }
  return ids;
}

bool has(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The config result of `id` (entity id, or for a config entry its entry_id), or null.
const json::object* result_of(const CallResult& r, const std::string& id) {
  if (const json::value* v = r.structured.if_contains("config_results"))
    for (const auto& item : v->as_array())
      for (const char* key : {"entity_id", "entry_id"})
        if (const json::value* k = item.as_object().if_contains(key); k && k->is_string() && k->get_string() == id)
          return &item.as_object();
  return nullptr;
}

bool has_entry(const std::vector<std::string>& ids, const std::string& entry_id) { return has(ids, entry_id); }

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
  for (const auto& item : scene.structured.at("config_results").as_array()) {
    if (const json::value* id = item.as_object().if_contains("entity_id"); id && *id == "scene.movie_night") {
      EXPECT_TRUE(item.as_object().contains("config"));
    }
  }
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
  CallResult removed = call("ha_config_remove", R"({"id":"automation.probe_watcher","confirm":true})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_TRUE(eventually(unique, [](const auto& ids) { return !has(ids, "automation.probe_watcher"); }));
}

TEST_F(ConfigSearchTest, FindsHelpersByWhatIsInsideThem) {
  start();
  // A config-flow helper by the entity id in its options; the result names what the helper tools take.
  CallResult meter = search("sensor.grid_meter_energy_import");
  const json::object* entry = result_of(meter, "01JDEMOUTILITYMETER0000001");
  ASSERT_TRUE(entry) << meter.text;
  EXPECT_EQ(entry->at("kind"), "helper");
  EXPECT_EQ(entry->at("helper_type"), "utility_meter");
  EXPECT_EQ(entry->at("entities").at(0), "sensor.grid_energy_daily") << meter.text;
  // A storage helper by its name and by its icon.
  CallResult vacation = search("Vacation Mode", R"(,"search_types":["helper"])");
  const json::object* item = result_of(vacation, "input_boolean.vacation_mode");
  ASSERT_TRUE(item) << vacation.text;
  EXPECT_EQ(item->at("helper_type"), "input_boolean");
  EXPECT_EQ(item->at("helper_id"), "vacation_mode");
  EXPECT_TRUE(has(config_hits(search("mdi:airplane")), "input_boolean.vacation_mode"));
  // A helper domain as the filter keeps that type only.
  CallResult counters = search("Vacation Mode", R"(,"domain":"counter")");
  EXPECT_FALSE(result_of(counters, "input_boolean.vacation_mode")) << counters.text;
}

TEST_F(ConfigSearchTest, FlowHelperFollowsItsOptionsThroughConfigEntryChanges) {
  start();
  CallResult made = call("ha_config_set_helper", R"({"helper_type":"template","name":"Probe Sum",
      "config":{"template_type":"sensor","state":"{{ states('sensor.cfg_probe_one') | float(0) + 1 }}"}})");
  ASSERT_FALSE(made.is_error) << made.text;
  const std::string entry = made.structured.at("entry_id").as_string().c_str();
  EXPECT_TRUE(eventually("sensor.cfg_probe_one", [&](const auto& ids) { return has_entry(ids, entry); }));
  // An options-flow update: the entry changes, no entity does; config_entries/subscribe says so.
  CallResult updated =
      call("ha_config_set_helper", R"({"helper_type":"template","helper_id":")" + entry +
                                       R"(","config":{"state":"{{ is_state('binary_sensor.kettle_watch', 'on') }}"}})");
  ASSERT_FALSE(updated.is_error) << updated.text;
  EXPECT_TRUE(eventually("binary_sensor.kettle_watch", [&](const auto& ids) { return has_entry(ids, entry); }));
  CallResult now = search("binary_sensor.kettle_watch", R"(,"include_config":true)");
  const json::object* item = result_of(now, entry);
  ASSERT_TRUE(item) << now.text;
  EXPECT_EQ(json::serialize(item->at("config")).find("cfg_probe_one"), std::string::npos) << now.text;
  CallResult removed =
      call("ha_config_set_helper",
           R"({"helper_type":"template","action":"remove","confirm":true,"helper_id":")" + entry + R"("})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_TRUE(eventually("binary_sensor.kettle_watch", [&](const auto& ids) { return !has_entry(ids, entry); }));
}

TEST_F(ConfigSearchTest, AnEditThatChangesNoEntityIsFoundThroughTheReloadEvent) {
  start();
  const std::string probe = "input_boolean.cfg_reload_probe";
  ASSERT_TRUE(eventually(probe, [](const auto& ids) { return ids.empty(); }));
  const std::string before = ha->snapshot()->states.find("automation.leak_alert")->attributes.text().data();
  // Same alias, same mode: the entity stays as it was; only automation_reloaded tells.
  CallResult read = call("ha_config_get", R"({"id":"automation.leak_alert"})");
  ASSERT_FALSE(read.is_error) << read.text;
  const std::string hash = read.structured.at("config_hash").as_string().c_str();
  CallResult edited = call("ha_config_set", R"({"id":"automation.leak_alert","config_hash":")" + hash +
                                                R"(","patch":[{"op":"add",
      "path":"/conditions","value":[{"condition":"state","entity_id":")" +
                                                probe + R"(","state":"off"}]}]})");
  ASSERT_FALSE(edited.is_error) << edited.text;
  EXPECT_TRUE(eventually(probe, [](const auto& ids) { return has(ids, "automation.leak_alert"); }));
  EXPECT_EQ(ha->snapshot()->states.find("automation.leak_alert")->attributes.text(), before);
}

TEST_F(ConfigSearchTest, StorageHelperEditIsFollowed) {
  start();
  CallResult renamed = call("ha_config_set_helper", R"({"helper_type":"input_boolean","helper_id":"night_mode",
      "action":"update","name":"Night Mode","icon":"mdi:cfg-probe-icon"})");
  ASSERT_FALSE(renamed.is_error) << renamed.text;
  EXPECT_TRUE(eventually("mdi:cfg-probe-icon", [](const auto& ids) { return has(ids, "input_boolean.night_mode"); }));
}

}  // namespace
}  // namespace hamcp::tools::testing
