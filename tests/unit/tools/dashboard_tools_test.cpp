// The dashboard tools against the demo sim: list, read whole / one view /
// found cards with their paths, per-card and patch edits guarded by
// config_hash (stale and missing hashes write nothing), create + delete
// (preview, confirm) + restore from the journal, YAML read-only, resources,
// themes, and ha-mcp's names with their arguments.
#include "home/config_json.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::object& o, std::string_view key) { return std::string(o.at(key).as_string()); }

class DashboardToolsTest : public ToolsTest {
 protected:
  json::value sim_config(const std::string& url_path) {
    std::lock_guard lock(sim->store().mutex());
    const auto& configs = sim->store().home().lovelace.configs;
    auto it = configs.find(url_path);
    return it == configs.end() ? json::value(nullptr) : it->second;
  }
  bool sim_has_dashboard(const std::string& id) {
    std::lock_guard lock(sim->store().mutex());
    return sim->store().home().lovelace.dashboards.count(id) > 0;
  }
};

TEST_F(DashboardToolsTest, ListsReadsViewsAndFindsCardsWithPaths) {
  start();
  CallResult r = call("ha_get_dashboard");
  ASSERT_FALSE(r.is_error) << r.text;
  const auto& list = r.structured.at("dashboards").as_array();
  ASSERT_EQ(list.size(), 3u) << r.text;
  EXPECT_EQ(str(list[0].as_object(), "url_path"), "lovelace");
  EXPECT_EQ(str(list[1].as_object(), "url_path"), "dashboard-energy");
  EXPECT_EQ(str(list[2].as_object(), "mode"), "yaml");

  r = call("ha_get_dashboard", R"({"url_path":"lovelace"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "config_hash"), home::config_hash(sim_config("")));
  EXPECT_EQ(r.structured.at("config").at("views").as_array().size(), 2u);

  r = call("ha_get_dashboard", R"({"url_path":"lovelace","entity_id":"light.tv_backlight"})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_EQ(r.structured.at("cards").as_array().size(), 1u) << r.text;
  EXPECT_EQ(str(r.structured.at("cards").at(0).as_object(), "path"), "views[0].sections[0].cards[2]");
  EXPECT_FALSE(r.structured.contains("config"));  // only the matches

  r = call("ha_get_dashboard", R"({"url_path":"lovelace","card_type":"heading"})");
  EXPECT_EQ(r.structured.at("total").as_int64(), 2) << r.text;
  r = call("ha_get_dashboard", R"({"url_path":"lovelace","heading":"kitchen"})");
  EXPECT_EQ(str(r.structured.at("cards").at(0).as_object(), "path"), "views[0].sections[1].cards[0]") << r.text;

  r = call("ha_get_dashboard", R"({"url_path":"lovelace","view_path":"climate"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "path"), "views[1]");
  EXPECT_EQ(str(r.structured.at("view").as_object(), "title"), "Climate");
  r = call("ha_get_dashboard", R"({"url_path":"lovelace","view_path":"garage"})");
  EXPECT_EQ(r.code(), "view_not_found");
  r = call("ha_get_dashboard", R"({"url_path":"no-such"})");
  EXPECT_EQ(r.code(), "dashboard_not_found");
  r = call("ha_get_dashboard", R"({"describe":true})");
  EXPECT_TRUE(r.structured.at("card_types").as_object().contains("tile"));
}

TEST_F(DashboardToolsTest, PerCardEditSendsAndReturnsOnlyThatCardGuardedByHash) {
  start();
  CallResult r = call("ha_get_dashboard", R"({"url_path":"lovelace","entity_id":"light.tv_backlight"})");
  const std::string hash = str(r.structured, "config_hash");
  const std::string path = str(r.structured.at("cards").at(0).as_object(), "path");

  r = call("ha_set_dashboard", R"({"url_path":"lovelace","op":"replace","path":")" + path +
                                   R"(","value":{"type":"tile","entity":"light.tv_backlight","name":"TV"}})");
  EXPECT_EQ(r.code(), "invalid_argument") << r.text;  // no config_hash: nothing written
  EXPECT_EQ(home::config_hash(sim_config("")), hash);

  r = call("ha_set_dashboard", R"({"url_path":"lovelace","op":"replace","path":")" + path + R"(","config_hash":")" +
                                   hash + R"(","value":{"type":"tile","entity":"light.tv_backlight","name":"TV"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "path"), path);
  EXPECT_EQ(str(r.structured.at("card").as_object(), "name"), "TV");
  EXPECT_FALSE(r.structured.contains("config"));
  EXPECT_FALSE(r.structured.contains("diff"));
  const std::string new_hash = str(r.structured, "config_hash");
  EXPECT_EQ(new_hash, home::config_hash(sim_config("")));
  EXPECT_EQ(sim_config("").at("views").at(0).at("sections").at(0).at("cards").at(2).at("name"), "TV");
  const std::string edit = str(r.structured, "edit_id");

  // The old hash is stale now: nothing is written.
  r = call("ha_set_dashboard",
           R"({"url_path":"lovelace","op":"remove","path":")" + path + R"(","config_hash":")" + hash + R"("})");
  EXPECT_EQ(r.code(), "stale_config_hash") << r.text;
  EXPECT_EQ(home::config_hash(sim_config("")), new_hash);

  // Append a card; the answer names the index it landed at.
  r = call("ha_set_dashboard", R"({"url_path":"lovelace","op":"add","path":"views[1].cards[-]","config_hash":")" +
                                   new_hash + R"(","value":{"type":"markdown","content":"hi"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "path"), "views[1].cards[2]");

  // A patch that does not apply names its operation.
  const std::string h3 = str(r.structured, "config_hash");
  r = call("ha_set_dashboard",
           R"({"url_path":"lovelace","config_hash":")" + h3 + R"(","patch":[{"op":"remove","path":"/views/9"}]})");
  EXPECT_EQ(r.code(), "patch_failed") << r.text;
  r = call("ha_set_dashboard", R"({"url_path":"lovelace","config_hash":")" + h3 +
                                   R"(","patch":[{"op":"replace","path":"/title","value":"Maple"}]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(sim_config("").at("title"), "Maple");
  EXPECT_FALSE(r.structured.at("diff").as_array().empty());

  // Undo the card edit from the journal.
  r = call("ha_config_set", R"({"restore":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "restored");
  EXPECT_EQ(home::config_hash(sim_config("")), hash);
}

TEST_F(DashboardToolsTest, CreateViewReplaceDeleteWithConfirmAndRestore) {
  start();
  CallResult r = call("ha_set_dashboard", R"({"url_path":"my-test","title":"Mine","icon":"mdi:star",
      "config":{"views":[{"title":"A","path":"a","cards":[]},{"title":"B","path":"b","cards":[]}]}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("created").as_bool());
  ASSERT_TRUE(sim_has_dashboard("my_test"));
  const std::string hash = str(r.structured, "config_hash");

  r = call("ha_set_dashboard", R"({"url_path":"my-test","view_path":"b","config_hash":")" + hash +
                                   R"(","config":{"title":"Bee","path":"b","cards":[]}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "path"), "views[1]");
  EXPECT_EQ(sim_config("my-test").at("views").at(1).at("title"), "Bee");

  r = call("ha_set_dashboard", R"({"url_path":"my-test","title":"Renamed"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("metadata").as_object(), "title"), "Renamed");

  const json::value config_before = sim_config("my-test");
  for (const char* edit : {R"({"url_path":"my-test","title":"Confirmed","confirm":true})",
                           R"({"url_path":"my-test","remove":false,"confirm":true})",
                           R"({"url_path":"my-test","config":{"views":[]},"confirm":false})"}) {
    r = call("ha_set_dashboard", edit);  // confirm without remove=true: refused, not ignored
    EXPECT_EQ(r.code(), "invalid_argument") << edit << ": " << r.text;
    EXPECT_NE(r.text.find("arguments.confirm"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("remove=true"), std::string::npos) << r.text;
  }
  {
    std::lock_guard lock(sim->store().mutex());
    EXPECT_EQ(sim->store().home().lovelace.dashboards.at("my_test").at("title"), "Renamed") << "a refused edit wrote";
  }
  EXPECT_EQ(sim_config("my-test"), config_before) << "a refused edit wrote";
  r = call("ha_remove_dashboard", R"({"url_path":"my-test"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "preview");
  EXPECT_TRUE(sim_has_dashboard("my_test"));
  r = call("ha_config_delete_dashboard", R"({"url_path":"my-test","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "deleted");
  EXPECT_FALSE(sim_has_dashboard("my_test"));

  r = call("ha_config_set", R"({"restore":")" + str(r.structured, "edit_id") + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "recreated");
  EXPECT_TRUE(sim_has_dashboard("my_test"));
  EXPECT_EQ(sim_config("my-test").at("views").at(1).at("title"), "Bee");

  r = call("ha_remove_dashboard", R"({"url_path":"lovelace","confirm":true})");
  EXPECT_EQ(r.code(), "invalid_argument");
}

TEST_F(DashboardToolsTest, YamlDashboardIsReadOnlyAndHaMcpNamesWork) {
  start();
  CallResult r = call("ha_set_dashboard", R"({"url_path":"dashboard-wall","config":{"views":[]}})");
  EXPECT_EQ(r.code(), "dashboard_read_only") << r.text;
  r = call("ha_remove_dashboard", R"({"url_path":"dashboard-wall","confirm":true})");
  EXPECT_EQ(r.code(), "dashboard_read_only") << r.text;
  r = call("ha_set_dashboard", R"({"url_path":"nohyphen","config":{"views":[]}})");
  EXPECT_TRUE(r.is_error);
  EXPECT_FALSE(r.text.find("hyphen") == std::string::npos) << r.text;
  r = call("ha_config_get_dashboard", R"({"list_only":true})");
  EXPECT_EQ(r.structured.at("dashboards").as_array().size(), 3u) << r.text;
  r = call("ha_config_set_dashboard", R"({"url_path":"lovelace","python_transform":"config['x']=1"})");
  EXPECT_EQ(r.code(), "invalid_argument");
  r = call("ha_config_get_dashboard", R"({"url_path":"dashboard-energy","query":"energy today"})");
  EXPECT_EQ(r.structured.at("total").as_int64(), 1) << r.text;
}

TEST_F(DashboardToolsTest, ResourcesListSetRemoveAndHaMcpNames) {
  start();
  CallResult r = call("ha_config_list_dashboard_resources");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("resources").as_array().size(), 1u);
  r = call("ha_config_set_dashboard_resource", R"({"url":"/local/card.js","resource_type":"module"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "result"), "created");
  const std::string id = str(r.structured.at("resource").as_object(), "id");
  r = call("ha_manage_dashboard_resources", R"({"action":"set","content":"a{color:red}","resource_type":"css"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("resource").as_object(), "url").rfind("data:text/css;base64,", 0), 0u);
  r = call("ha_config_set_dashboard_resource", R"({"resource_id":")" + id + R"(","url":"/local/card2.js"})");
  EXPECT_EQ(str(r.structured, "result"), "updated") << r.text;
  r = call("ha_config_delete_dashboard_resource", R"({"resource_id":")" + id + R"("})");
  EXPECT_EQ(str(r.structured, "result"), "preview") << r.text;
  r = call("ha_config_delete_dashboard_resource", R"({"resource_id":")" + id + R"(","confirm":true})");
  EXPECT_EQ(str(r.structured, "result"), "removed") << r.text;
  r = call("ha_manage_dashboard_resources", R"({"action":"remove","resource_id":")" + id + R"(","confirm":true})");
  EXPECT_EQ(r.code(), "resource_not_found");
  r = call("ha_manage_dashboard_resources", R"({"action":"list"})");
  EXPECT_EQ(r.structured.at("total").as_int64(), 2);
}

TEST_F(DashboardToolsTest, ThemesListSetUnknownAndEngine) {
  start();
  CallResult r = call("ha_manage_theme", R"({"action":"list"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "default_theme"), "default");
  EXPECT_EQ(r.structured.at("themes").as_array().size(), 2u);
  r = call("ha_manage_theme", R"({"action":"set","theme_name":"midnight"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "default_theme"), "midnight");
  const std::string edit = str(r.structured, "edit_id");
  r = call("ha_manage_theme", R"({"action":"set","theme_name":"nope"})");
  EXPECT_EQ(r.code(), "theme_not_found");
  r = call("ha_manage_theme", R"({"action":"get_engine_theme"})");
  EXPECT_EQ(r.code(), "not_available");
  r = call("ha_config_set", R"({"restore":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_manage_theme", R"({"action":"list"})");
  EXPECT_EQ(str(r.structured, "default_theme"), "default");
}

}  // namespace
}  // namespace hamcp::tools::testing
