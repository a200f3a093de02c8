// The configuration tools against the demo sim: get by entity id / config id /
// alias (and by the ha-mcp names), create/update by config or JSON Patch,
// config_hash locking, validation errors naming the path, remove + restore
// from the edit journal, runtime actions, traces.
#include "tools/config/config_write.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::object& o, std::string_view key) { return std::string(o.at(key).as_string()); }

class ConfigToolsTest : public ToolsTest {
 protected:
  // The stored config's hash, as ha_config_get reports it.
  std::string hash_of(const std::string& kind, const std::string& id) {
    CallResult r = call("ha_config_get", R"({"kind":")" + kind + R"(","id":")" + id + R"("})");
    EXPECT_FALSE(r.is_error) << r.text;
    return r.is_error ? std::string() : str(r.structured, "config_hash");
  }
};

TEST_F(ConfigToolsTest, GetFindsAnItemByEntityIdConfigIdOrAliasAndByHaMcpNames) {
  start();
  CallResult by_alias = call("ha_config_get", R"({"kind":"automation","id":"leak ALERT"})");
  ASSERT_FALSE(by_alias.is_error) << by_alias.text;
  EXPECT_EQ(str(by_alias.structured, "entity_id"), "automation.leak_alert");
  const std::string id = str(by_alias.structured, "id");
  const std::string hash = str(by_alias.structured, "config_hash");
  EXPECT_EQ(by_alias.structured.at("config").at("alias").as_string(), "Leak alert");

  CallResult by_entity = call("ha_config_get", R"({"id":"automation.leak_alert"})");  // kind from the domain
  ASSERT_FALSE(by_entity.is_error) << by_entity.text;
  EXPECT_EQ(str(by_entity.structured, "config_hash"), hash);
  CallResult by_id = call("ha_config_get_automation", R"({"identifier":")" + id + R"("})");
  ASSERT_FALSE(by_id.is_error) << by_id.text;
  EXPECT_EQ(str(by_id.structured, "config_hash"), hash);

  CallResult script = call("ha_config_get_script", R"({"script_id":"goodnight"})");
  ASSERT_FALSE(script.is_error) << script.text;
  EXPECT_EQ(str(script.structured, "entity_id"), "script.goodnight");
  EXPECT_TRUE(script.structured.at("config").as_object().contains("sequence"));
  CallResult scene = call("ha_config_get_scene", R"({"scene_id":"scene.dinner"})");
  ASSERT_FALSE(scene.is_error) << scene.text;
  EXPECT_EQ(scene.structured.at("config").at("name").as_string(), "Dinner");
  CallResult listed = call("ha_config_get_scene", R"({"query":"movie"})");  // no kind: every kind
  ASSERT_FALSE(listed.is_error) << listed.text;
  EXPECT_EQ(ids_of(listed.structured.at("items").as_array()),
            (std::vector<std::string>{"scene.movie_night", "script.movie_time"}));
  listed = call("ha_config_get", R"({"kind":"scene","query":"MOVIE"})");
  ASSERT_FALSE(listed.is_error) << listed.text;
  EXPECT_EQ(ids_of(listed.structured.at("items").as_array()), (std::vector<std::string>{"scene.movie_night"}));
}

TEST_F(ConfigToolsTest, SearchInConfigMatchesInsideTheConfigs) {
  start();
  CallResult warm = call("ha_search", R"({"query":"warm","config_time_budget":5})");  // waits for the config cache
  ASSERT_FALSE(warm.structured.contains("config_status")) << warm.text;
  CallResult by_name = call("ha_config_get_scene", R"({"query":"light.tv_backlight"})");
  ASSERT_FALSE(by_name.is_error) << by_name.text;
  EXPECT_TRUE(by_name.structured.at("items").as_array().empty()) << by_name.text;
  CallResult in_config =
      call("ha_config_get_scene", R"({"query":"LIGHT.TV_BACKLIGHT","search_in_config":true,"kind":"scene"})");
  ASSERT_FALSE(in_config.is_error) << in_config.text;
  const json::array& items = in_config.structured.at("items").as_array();
  ASSERT_EQ(ids_of(items), (std::vector<std::string>{"scene.movie_night"})) << in_config.text;
  EXPECT_TRUE(items.at(0).at("matched_in_config").as_bool());
}

TEST_F(ConfigToolsTest, UnknownItemIsNamedWithSuggestions) {
  start();
  CallResult r = call("ha_config_get", R"({"kind":"automation","id":"Leak alrt"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "config_not_found");
  EXPECT_FALSE(r.error().at("suggestions").as_array().empty()) << r.text;
  r = call("ha_config_remove", R"({"id":"script.nope"})");
  EXPECT_EQ(r.code(), "config_not_found") << r.text;
  r = call("ha_config_get", R"({"id":"nothing"})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;  // no kind, no domain
  r = call("ha_config_set", R"({"config":{"alias":"x"}})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;  // which kind to create?
}

TEST_F(ConfigToolsTest, CreateWaitsForTheEntityAndJournalsTheWrite) {
  start();
  CallResult r = call("ha_config_set", R"({"kind":"automation","config":{"alias":"Porch light at dusk",
      "triggers":[{"trigger":"sun","event":"sunset"}],"actions":[{"action":"light.turn_on",
      "target":{"entity_id":"light.hallway_light"}}]}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "created");
  EXPECT_TRUE(r.structured.at("wait").at("appeared").as_bool()) << r.text;
  const std::string eid = str(r.structured, "entity_id");
  EXPECT_EQ(eid, "automation.porch_light_at_dusk");
  EXPECT_TRUE(ha->snapshot()->states.find(eid));
  EXPECT_EQ(hash_of("automation", eid), str(r.structured, "config_hash"));
  auto edits = env->journal.list("automation", str(r.structured, "id"));
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].id, str(r.structured, "edit_id"));
  EXPECT_EQ(edits[0].action, "create");
}

TEST_F(ConfigToolsTest, PatchWithTheCurrentHashUpdatesAndShowsTheDiff) {
  start();
  const std::string hash = hash_of("automation", "automation.leak_alert");
  CallResult r = call("ha_config_set", R"({"id":"automation.leak_alert","config_hash":")" + hash +
                                           R"(","patch":[{"op":"replace","path":"/alias","value":"Water alarm"}]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "updated");
  EXPECT_EQ(str(r.structured, "previous_hash"), hash);
  const auto& op = r.structured.at("diff").at(0).as_object();
  EXPECT_EQ(str(op, "op"), "replace");
  EXPECT_EQ(str(op, "path"), "/alias");
  EXPECT_EQ(hash_of("automation", "automation.leak_alert"), str(r.structured, "config_hash"));
  // Writing the same again changes nothing and journals nothing.
  const std::size_t journaled = env->journal.size();
  r = call("ha_config_set", R"({"id":"automation.leak_alert","config_hash":")" + str(r.structured, "config_hash") +
                                R"(","patch":[{"op":"replace","path":"/alias","value":"Water alarm"}]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "unchanged");
  EXPECT_EQ(env->journal.size(), journaled);
}

TEST_F(ConfigToolsTest, StaleHashWritesNothingAndSaysWhatChanged) {
  start();
  const std::string old_hash = hash_of("automation", "automation.leak_alert");
  CallResult first = call("ha_config_set", R"({"id":"automation.leak_alert","config_hash":")" + old_hash +
                                               R"(","patch":[{"op":"replace","path":"/mode","value":"queued"}]})");
  ASSERT_FALSE(first.is_error) << first.text;
  const std::string now = str(first.structured, "config_hash");
  // A second writer still holding the old hash.
  CallResult r = call("ha_config_set", R"({"id":"automation.leak_alert","config_hash":")" + old_hash +
                                           R"(","patch":[{"op":"replace","path":"/alias","value":"Lost update"}]})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "stale_config_hash");
  EXPECT_FALSE(r.error().at("written").as_bool());
  EXPECT_EQ(str(r.error(), "current_hash"), now);
  EXPECT_EQ(r.error().at("changed_since").at(0).at("path").as_string(), "/mode") << r.text;
  EXPECT_EQ(hash_of("automation", "automation.leak_alert"), now);  // nothing written
  r = call("ha_config_set", R"({"id":"automation.leak_alert","config_hash":"0000000000000000","config":{"alias":"x",
      "triggers":[],"actions":[]}})");
  EXPECT_EQ(r.code(), "stale_config_hash") << r.text;
  EXPECT_EQ(hash_of("automation", "automation.leak_alert"), now);
}

TEST_F(ConfigToolsTest, PatchThatDoesNotApplyWritesNothing) {
  start();
  const std::string hash = hash_of("script", "goodnight");
  CallResult r = call("ha_config_set", R"({"kind":"script","id":"goodnight","config_hash":")" + hash +
                                           R"(","patch":[{"op":"replace","path":"/alias","value":"x"},
      {"op":"remove","path":"/sequence/9"}]})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "patch_failed");
  EXPECT_EQ(r.error().at("op_index").as_int64(), 1);
  EXPECT_EQ(str(r.error(), "path"), "/sequence/9");
  EXPECT_EQ(hash_of("script", "goodnight"), hash);
  r = call("ha_config_set", R"({"kind":"script","id":"goodnight","patch":[{"op":"remove","path":"/icon"}]})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;  // a patch needs the hash it was written against
  EXPECT_NE(r.text.find("config_hash"), std::string::npos);
  r = call("ha_config_set_script", R"({"script_id":"goodnight","python_transform":"config['alias']='x'"})");
  EXPECT_EQ(r.code(), "invalid_argument");
  EXPECT_NE(r.text.find("patch"), std::string::npos) << r.text;
  EXPECT_EQ(hash_of("script", "goodnight"), hash);
}

TEST_F(ConfigToolsTest, InvalidConfigIsRefusedNamingThePath) {
  start();
  const std::size_t automations_before = env->journal.size();
  CallResult r = call("ha_config_set", R"({"kind":"automation","config":{"alias":"Broken",
      "triggers":[{"trigger":"time","at":"07:00:00"}],"actions":[{"action":"light.turn_on"},{"frobnicate":1}]}})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "invalid_config");
  EXPECT_EQ(str(r.error(), "path"), "/actions/1") << r.text;
  EXPECT_FALSE(r.error().at("written").as_bool());
  r = call("ha_config_set", R"({"kind":"automation","config":{"alias":"Broken","trigger":[{"at":"07:00:00"}],
      "actions":[]}})");
  EXPECT_EQ(str(r.error(), "path"), "/trigger/0/trigger") << r.text;
  r = call("ha_config_set", R"({"kind":"scene","config":{"name":"No entities"}})");  // HA's editor refuses it
  EXPECT_EQ(r.code(), "invalid_config") << r.text;
  EXPECT_EQ(str(r.error(), "path"), "/entities") << r.text;
  EXPECT_EQ(env->journal.size(), automations_before);
  EXPECT_FALSE(ha->snapshot()->states.find("automation.broken"));
}

// Issue 14 item 5: without confirm=true a removal, under any of its names,
// answers the one preview shape naming the item (kind, id, alias, entity id)
// and removes nothing.
TEST_F(ConfigToolsTest, RemoveWithoutConfirmOnlyNamesWhatWouldGo) {
  start();
  const std::string key = str(call("ha_config_get", R"({"id":"automation.leak_alert"})").structured, "id");
  const std::string hash = hash_of("automation", "automation.leak_alert");
  const std::size_t journaled = env->journal.size();
  struct Case {
    const char* tool;
    const char* args;
    json::object names;
  };
  const Case cases[] = {
      {"ha_config_remove",
       R"({"id":"automation.leak_alert"})",
       {{"kind", "automation"}, {"id", key}, {"alias", "Leak alert"}, {"entity_id", "automation.leak_alert"}}},
      {"ha_config_remove",
       R"({"kind":"automation","id":"leak ALERT","confirm":false})",
       {{"kind", "automation"}, {"id", key}, {"alias", "Leak alert"}, {"entity_id", "automation.leak_alert"}}},
      {"ha_config_remove_automation",
       R"({"identifier":"automation.leak_alert"})",
       {{"kind", "automation"}, {"id", key}, {"alias", "Leak alert"}, {"entity_id", "automation.leak_alert"}}},
      {"ha_config_remove_scene",
       R"({"scene_id":"Dinner"})",
       {{"kind", "scene"},
        {"id", str(call("ha_config_get", R"({"id":"scene.dinner"})").structured, "id")},
        {"alias", "Dinner"},
        {"entity_id", "scene.dinner"}}},
  };
  for (const Case& c : cases) {
    CallResult r = call(c.tool, c.args);
    ASSERT_FALSE(r.is_error) << c.tool << " " << c.args << ": " << r.text;
    EXPECT_EQ(str(r.structured, "result"), "preview") << r.text;
    EXPECT_EQ(r.structured.at("confirm_required"), true) << r.text;
    EXPECT_EQ(r.structured.at("removed"), false) << r.text;
    EXPECT_EQ(r.structured.at("would_change").at("removes"), c.names) << c.tool << " " << c.args << ": " << r.text;
  }
  EXPECT_EQ(hash_of("automation", "automation.leak_alert"), hash);
  EXPECT_TRUE(ha->snapshot()->states.find("scene.dinner"));
  EXPECT_EQ(env->journal.size(), journaled);
}

TEST_F(ConfigToolsTest, RemoveThenRestoreFromTheJournal) {
  start();
  CallResult removed = call("ha_config_remove_scene", R"({"scene_id":"Dinner","confirm":true})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_TRUE(removed.structured.at("wait").at("removed").as_bool()) << removed.text;
  EXPECT_FALSE(ha->snapshot()->states.find("scene.dinner"));
  CallResult restored = call("ha_config_set", R"({"restore":")" + str(removed.structured, "edit_id") + R"("})");
  ASSERT_FALSE(restored.is_error) << restored.text;
  EXPECT_EQ(str(restored.structured, "result"), "restored");
  EXPECT_EQ(str(restored.structured, "config_hash"), str(removed.structured, "previous_hash"));
  EXPECT_TRUE(restored.structured.at("wait").at("appeared").as_bool()) << restored.text;
  EXPECT_EQ(call("ha_config_set", R"({"restore":"e99999999"})").code(), "edit_not_found");
}

TEST_F(ConfigToolsTest, RuntimeActionsEnableRunStopActivate) {
  start();
  CallResult r = call("ha_config_set_automation", R"({"identifier":"automation.leak_alert","enabled":false})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(eventually([&] { return ha->snapshot()->states.find("automation.leak_alert")->state == "off"; }));
  r = call("ha_config_set", R"({"id":"script.movie_time","run":"start","variables":{"who":"guest"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("actions").at("run").as_string(), "script.turn_on");
  r = call("ha_config_set_scene", R"({"scene_id":"scene.dinner","activate":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(eventually([&] { return ha->snapshot()->states.find("light.dining_table_pendant")->state == "on"; }));
  r = call("ha_config_set", R"({"id":"scene.dinner","run":"stop"})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
  r = call("ha_config_set", R"({"id":"script.movie_time","enabled":true})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;
}

TEST_F(ConfigToolsTest, CategoryIsSetInTheEntityRegistryAndWaitCanBeSkipped) {
  start();
  std::string security;
  for (const json::value& c : ha->snapshot()->registry(ha::RegistryKind::category).items())
    if (c.at("name").as_string() == "Security") security = std::string(c.at("category_id").as_string());
  ASSERT_FALSE(security.empty());
  CallResult r = call("ha_config_set_automation",
                      R"({"identifier":"automation.guest_mode_welcome","category":")" + security + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("actions").as_object(), "category"), security);
  EXPECT_TRUE(eventually([&] {
    ha::RegistryItem e = ha->snapshot()->registry(ha::RegistryKind::entity).find("automation.guest_mode_welcome");
    const json::value* cats = e ? e->if_contains("categories") : nullptr;
    const json::value* mine = cats && cats->is_object() ? cats->as_object().if_contains("automation") : nullptr;
    return mine && mine->is_string() && mine->as_string() == security;
  }));
  r = call("ha_config_set", R"({"kind":"scene","wait":false,"config":{"name":"Quick","entities":{}}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "created");
  EXPECT_FALSE(r.structured.contains("wait")) << r.text;
}

TEST_F(ConfigToolsTest, TracesListRunsAndShowOneRunsSteps) {
  start();
  ASSERT_FALSE(call("ha_config_set", R"({"id":"automation.hallway_light_on_motion","run":"start"})").is_error);
  ASSERT_FALSE(call("ha_config_set", R"({"id":"automation.hallway_light_on_motion","run":"start"})").is_error);
  CallResult list = call("ha_get_automation_traces", R"({"automation_id":"Hallway light on motion"})");
  ASSERT_FALSE(list.is_error) << list.text;
  const auto& runs = list.structured.at("runs").as_array();
  ASSERT_EQ(runs.size(), 2u) << list.text;
  EXPECT_GE(str(runs[0].as_object(), "start"), str(runs[1].as_object(), "start"));  // newest first
  EXPECT_EQ(runs[0].at("script_execution").as_string(), "finished");
  CallResult one = call("ha_get_automation_traces",
                        R"({"automation_id":"automation.hallway_light_on_motion","run_id":")" +
                            std::string(runs[0].at("run_id").as_string()) + R"(","sections":"steps,config"})");
  ASSERT_FALSE(one.is_error) << one.text;
  const auto& steps = one.structured.at("steps").as_array();
  ASSERT_EQ(steps.size(), 2u) << one.text;
  EXPECT_EQ(steps[0].at("path").as_string(), "trigger");
  EXPECT_EQ(steps[1].at("path").as_string(), "action/0");
  EXPECT_TRUE(one.structured.contains("config"));
  CallResult script = call("ha_config_set", R"({"id":"script.movie_time","run":"start","variables":{"who":"x"}})");
  ASSERT_FALSE(script.is_error) << script.text;
  list = call("ha_get_automation_traces", R"({"automation_id":"script.movie_time","order":"oldest"})");
  ASSERT_FALSE(list.is_error) << list.text;
  ASSERT_EQ(list.structured.at("runs").as_array().size(), 1u);
  one = call("ha_get_automation_traces", R"({"automation_id":"script.movie_time","detailed":true,"run_id":")" +
                                             std::string(list.structured.at("runs").at(0).at("run_id").as_string()) +
                                             R"("})");
  ASSERT_FALSE(one.is_error) << one.text;
  EXPECT_EQ(one.structured.at("steps").at(0).at("changed_variables").at("who").as_string(), "x") << one.text;
  CallResult missing =
      call("ha_get_automation_traces", R"({"automation_id":"automation.hallway_light_on_motion","run_id":"nope"})");
  EXPECT_EQ(missing.code(), "trace_not_found") << missing.text;
}

// A repeat loop records one step per iteration under the same path (HA's
// trace keeps a list per node): deduplicate (the default) shows it once with
// "repeated": n, deduplicate=false shows every iteration. The sim runs no
// repeat loops, so the iterations are added to a real run's stored trace.
TEST_F(ConfigToolsTest, TraceStepsOfARepeatLoopAreDeduplicated) {
  start();
  ASSERT_FALSE(call("ha_config_set", R"({"id":"automation.hallway_light_on_motion","run":"start"})").is_error);
  CallResult list = call("ha_get_automation_traces", R"({"automation_id":"automation.hallway_light_on_motion"})");
  ASSERT_FALSE(list.is_error) << list.text;
  const std::string run_id(list.structured.at("runs").at(0).at("run_id").as_string());
  bool added = false;
  {
    std::lock_guard lock(sim->store().mutex());
    for (auto& [key, runs] : sim->store().home().traces)
      for (auto& run : runs) {
        if (run.at("run_id") != run_id.c_str()) continue;
        json::array loop;
        for (int i = 1; i <= 3; ++i)
          loop.push_back(json::object{{"path", "action/1/repeat/sequence/0"},
                                      {"timestamp", "2099-01-01T00:00:0" + std::to_string(i) + ".000000+00:00"}});
        run.at("trace").as_object()["action/1/repeat/sequence/0"] = std::move(loop);
        added = true;
      }
  }
  ASSERT_TRUE(added);
  const std::string args = R"({"automation_id":"automation.hallway_light_on_motion","run_id":")" + run_id + R"(")";
  CallResult one = call("ha_get_automation_traces", args + "}");
  ASSERT_FALSE(one.is_error) << one.text;
  const auto& steps = one.structured.at("steps").as_array();
  ASSERT_EQ(steps.size(), 3u) << one.text;  // trigger, action/0, the loop once
  EXPECT_EQ(steps[2].at("path").as_string(), "action/1/repeat/sequence/0");
  EXPECT_EQ(steps[2].at("repeated").as_int64(), 3) << one.text;
  CallResult every = call("ha_get_automation_traces", args + R"(,"deduplicate":false})");
  ASSERT_FALSE(every.is_error) << every.text;
  EXPECT_EQ(every.structured.at("steps").as_array().size(), 5u) << every.text;
  EXPECT_FALSE(every.structured.at("steps").at(4).as_object().contains("repeated")) << every.text;
}

TEST_F(ConfigToolsTest, NewScriptByHaMcpNameGetsItsObjectId) {
  start();
  CallResult r = call("ha_config_set_script", R"({"script_id":"porch_on","config":{"alias":"Porch on",
      "sequence":[{"action":"light.turn_on","target":{"entity_id":"light.hallway_light"}}]}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "created");
  EXPECT_EQ(str(r.structured, "entity_id"), "script.porch_on");
  r = call("ha_config_set_script", R"({"script_id":"Porch On!","config":{"sequence":[]}})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;  // not a slug
}

}  // namespace
}  // namespace hamcp::tools::testing

namespace hamcp::tools::config {
namespace {

TEST(ConfigWrite, PathsInHaMessagesBecomePathsInTheConfig) {
  EXPECT_EQ(path_in_message("Unable to determine action @ data[1]"), "/1");
  EXPECT_EQ(path_in_message("required key not provided @ data['actions'][0]['target']"), "/actions/0/target");
  EXPECT_EQ(path_in_message("expected a dictionary"), "");
  // A scene is validated wrapped in {"states":[...]}: the caller's config has no such level.
  EXPECT_EQ(path_in_config(Kind::scene, "required key not provided @ data['states'][0]['entities']"), "/entities");
  EXPECT_EQ(path_in_config(Kind::automation, "extra keys not allowed @ data['states'][0]"), "/states/0");
}

}  // namespace
}  // namespace hamcp::tools::config
