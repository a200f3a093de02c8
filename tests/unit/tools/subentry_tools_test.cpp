// ha_config_set_helper helper_type=config_subentry (ha-mcp's way to add and
// reconfigure a config entry's subentries) against the demo's sim_bridge hub
// and its "room" subentries: create, a duplicate refused by HA's abort, the
// arguments each action needs, reconfigure journaled and restored, a removed
// subentry restored with its values.
#include "sim/flows/flow_engine.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class SubentryToolsTest : public ToolsTest {
 protected:
  std::string bridge() {
    CallResult r = call("ha_get_integration", R"({"domain":"sim_bridge"})");
    EXPECT_FALSE(r.is_error) << r.text;
    for (const auto& e : r.structured.at("entries").as_array())
      if (e.at("domain") == "sim_bridge") return std::string(e.at("entry_id").as_string());
    return {};
  }
  json::array subentries(const std::string& id) {
    CallResult r =
        call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_subentries":true,"include_options":false})");
    EXPECT_FALSE(r.is_error) << r.text;
    return r.structured.at("subentries").as_array();
  }
  // An "Office" room with 3 sensors, created through the subentry flow.
  CallResult add_office(const std::string& id) {
    return call("ha_config_set_helper", R"({"helper_type":"config_subentry","entry_id":")" + id +
                                            R"(","subentry_type":"room","name":"Office","config":{"sensors":3}})");
  }
};

TEST_F(SubentryToolsTest, CreatesASubentryThroughItsFlow) {
  start();
  const std::string id = bridge();
  CallResult r = add_office(id);
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "created");
  EXPECT_EQ(r.structured.at("subentry").at("title"), "Office");
  EXPECT_EQ(r.structured.at("subentry").at("unique_id"), "room-office");
  EXPECT_FALSE(r.structured.at("subentry_id").as_string().empty());
  EXPECT_TRUE(r.structured.contains("edit_id"));
  EXPECT_EQ(subentries(id).size(), 3u);

  r = call("ha_config_set_helper",
           R"({"helper_type":"config_subentry","entry_id":")" + id + R"(","subentry_type":"room","name":"Kitchen"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("code"), "flow_aborted");
  EXPECT_EQ(r.error().at("reason"), "already_configured");
  EXPECT_EQ(r.error().at("written"), false);
  EXPECT_EQ(subentries(id).size(), 3u) << "nothing added";
}

TEST_F(SubentryToolsTest, NamesWhatEachActionNeeds) {
  start();
  const std::string id = bridge();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"config_subentry","name":"X"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("entry_id"), std::string::npos) << r.text;
  r = call("ha_config_set_helper", R"({"helper_type":"config_subentry","entry_id":")" + id + R"(","name":"X"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("subentry_type"), std::string::npos) << r.text;
  r = call("ha_config_set_helper",
           R"({"helper_type":"config_subentry","entry_id":")" + id + R"(","subentry_type":"garage","name":"X"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("supported_subentry_types").at(0), "room") << r.text;
  r = call("ha_config_set_helper", R"({"helper_type":"config_subentry","entry_id":")" + id +
                                       R"(","subentry_type":"room","config":{"sensors":2}})");
  ASSERT_TRUE(r.is_error) << "the form requires a name";
  EXPECT_EQ(r.error().at("written"), false);
  EXPECT_NE(r.text.find("name"), std::string::npos) << r.text;
  r = call("ha_config_set_helper", R"({"helper_type":"config_subentry","entry_id":")" + id +
                                       R"(","subentry_id":"nope","config":{"sensors":2}})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("code"), "subentry_not_found");
  EXPECT_EQ(subentries(id).size(), 2u);
}

TEST_F(SubentryToolsTest, ReconfigureIsJournaledAndRestored) {
  start();
  const std::string id = bridge();
  CallResult r = call("ha_config_set_helper",
                      R"({"helper_type":"config_subentry","entry_id":")" + id +
                          R"(","subentry_id":"01JDEMOBRIDGEROOMKITCHEN01","name":"Galley","config":{"sensors":5}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "updated");
  EXPECT_EQ(r.structured.at("subentry").at("title"), "Galley");
  const std::string edit(r.structured.at("edit_id").as_string());
  r = call("ha_config_set", R"({"restore":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "restored");
  bool back = false;
  for (const auto& s : subentries(id)) back |= s.at("title") == "Kitchen";
  EXPECT_TRUE(back) << "the title before the edit is back";
  r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_diagnostics":true,
"diagnostics_data_path":"subentries"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(json::serialize(r.structured).find(R"("sensors":2)"), std::string::npos) << "the data before is back";
}

// A removed subentry comes back from the journal with its old values: its
// reconfigure form's suggested values, read before the removal, answer the
// type's creation form (HA gives it a new id).
TEST_F(SubentryToolsTest, RemovedSubentryIsRestoredWithItsValues) {
  start();
  const std::string id = bridge();
  CallResult r =
      call("ha_remove_helpers_integrations",
           R"({"target":")" + id +
               R"(","helper_type":"config_subentry","subentry_id":"01JDEMOBRIDGEROOMKITCHEN01","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_EQ(subentries(id).size(), 1u);
  const std::string edit(r.structured.at("edit_id").as_string());
  r = call("ha_config_set", R"({"restore":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "restored");
  EXPECT_EQ(r.structured.at("restored_edit"), edit.c_str());
  EXPECT_EQ(r.structured.at("subentry").at("title"), "Kitchen");
  EXPECT_EQ(r.structured.at("subentry").at("unique_id"), "room-kitchen");
  EXPECT_EQ(subentries(id).size(), 2u);
  r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_diagnostics":true,
"diagnostics_data_path":"subentries"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string diagnostics = json::serialize(r.structured);
  EXPECT_NE(diagnostics.find(R"("sensors":2)"), std::string::npos) << "the old value, not the form's default 1";
}

// A subentry whose values Home Assistant does not show (its type has no
// reconfigure form here; kitchen_sink's form suggests none) comes back with
// the values hamcp gave it itself: its creation and reconfigure, journaled.
TEST_F(SubentryToolsTest, RemovedSubentryWithoutAFormIsRestoredWithTheValuesHamcpWrote) {
  start();
  const std::string id = bridge();
  CallResult r = add_office(id);
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string sub(r.structured.at("subentry_id").as_string());
  r = call("ha_config_set_helper", R"({"helper_type":"config_subentry","entry_id":")" + id + R"(","subentry_id":")" +
                                       sub + R"(","config":{"sensors":5}})");
  ASSERT_FALSE(r.is_error) << r.text;
  {
    std::lock_guard lock(sim->store().mutex());
    json::object* stored = sim::flows::stored_entry(sim->store(), id);
    ASSERT_NE(stored, nullptr);
    stored->at("entry").as_object()["supported_subentry_types"] =
        json::object{{"room", json::object{{"supports_reconfigure", false}}}};
  }
  r = call(
      "ha_remove_helpers_integrations",
      R"({"target":")" + id + R"(","helper_type":"config_subentry","subentry_id":")" + sub + R"(","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string edit(r.structured.at("edit_id").as_string());
  r = call("ha_config_set", R"({"restore":")" + edit + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("subentry").at("title"), "Office");
  r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_diagnostics":true,
"diagnostics_data_path":"subentries"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(json::serialize(r.structured).find(R"("sensors":5)"), std::string::npos) << "the value hamcp wrote last";
}

// A subentry hamcp never wrote, whose values Home Assistant does not show (no
// API lists a subentry's data; here its type has no reconfigure form, and
// kitchen_sink's suggests none): the removal's preview and its answer say
// plainly that the journal cannot bring its data back, and the restore is
// refused as they said.
TEST_F(SubentryToolsTest, RemovingASubentryWhoseDataNobodyShowsSaysItCannotComeBack) {
  start();
  const std::string id = bridge();
  {
    std::lock_guard lock(sim->store().mutex());
    json::object* stored = sim::flows::stored_entry(sim->store(), id);
    ASSERT_NE(stored, nullptr);
    stored->at("entry").as_object()["supported_subentry_types"] =
        json::object{{"room", json::object{{"supports_reconfigure", false}}}};
  }
  const std::string args =
      R"({"target":")" + id + R"(","helper_type":"config_subentry","subentry_id":"01JDEMOBRIDGEROOMKITCHEN01")";
  CallResult preview = call("ha_remove_helpers_integrations", args + "}");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_EQ(preview.structured.at("result"), "preview");
  EXPECT_NE(preview.text.find("a restore from the journal cannot make it again with its data"), std::string::npos)
      << preview.text;
  CallResult removed = call("ha_remove_helpers_integrations", args + R"(,"confirm":true})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_NE(std::string(removed.structured.at("restore").as_string()).find("cannot make it again with its data"),
            std::string::npos);
  CallResult restore =
      call("ha_config_set", R"({"restore":")" + std::string(removed.structured.at("edit_id").as_string()) + R"("})");
  EXPECT_EQ(restore.code(), "not_restorable") << restore.text;
  EXPECT_EQ(subentries(id).size(), 1u);
}

TEST_F(SubentryToolsTest, ShowsEachSubentryTypesForm) {
  start();
  const std::string id = bridge();
  CallResult r = call("ha_get_integration",
                      R"({"entry_id":")" + id + R"(","include_options":false,"include_subentry_schema":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::value& form = r.structured.at("subentry_forms").at("room");
  EXPECT_EQ(form.at("step_id"), "user");
  EXPECT_EQ(form.at("data_schema").at(0).at("name"), "name");
  r = call(
      "ha_get_integration",
      R"({"entry_id":")" + id +
          R"(","include_options":false,"include_subentry_schema":true,"subentry_id":"01JDEMOBRIDGEROOMKITCHEN01"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(
      r.structured.at("subentry_forms").at("room").at("data_schema").at(1).at("description").at("suggested_value"), 2)
      << r.text;
  EXPECT_EQ(subentries(id).size(), 2u) << "reading forms changed nothing";
}

}  // namespace
}  // namespace hamcp::tools::testing
