// The integrations family (ha_get_integration / ha_set_integration and ha-mcp's
// ha_remove_helpers_integrations) against the demo home's sim_bridge hub and
// helper entries: lists, one entry with options, schema, subentries and
// diagnostics; config, options and reconfigure flows; enable/disable; removal
// with preview; log level; the errors that name the field and the fix.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string bridge_entry(ToolsTest& t, CallResult r) {
  (void)t;
  for (const auto& e : r.structured.at("entries").as_array())
    if (e.at("domain") == "sim_bridge") return std::string(e.at("entry_id").as_string());
  return {};
}

class IntegrationToolsTest : public ToolsTest {
 protected:
  std::string bridge() {
    CallResult r = call("ha_get_integration", R"({"domain":"sim_bridge"})");
    EXPECT_FALSE(r.is_error) << r.text;
    return bridge_entry(*this, r);
  }
};

TEST_F(IntegrationToolsTest, ListsFiltersAndPages) {
  start();
  CallResult r = call("ha_get_integration");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::int64_t total = r.structured.at("total").as_int64();
  EXPECT_GE(total, 3);
  const json::object& first = r.structured.at("entries").as_array().at(0).as_object();
  for (const char* k :
       {"entry_id", "domain", "title", "state", "source", "supports_options", "supports_reconfigure", "num_subentries"})
    EXPECT_TRUE(first.contains(k)) << k;
  r = call("ha_get_integration", R"({"limit":1,"offset":1})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("entries").as_array().size(), 1u);
  EXPECT_TRUE(r.structured.at("has_more").as_bool());
  r = call("ha_get_integration", R"({"query":"hallway"})");
  ASSERT_FALSE(r.is_error) << r.text;
  ASSERT_EQ(r.structured.at("entries").as_array().size(), 1u);
  EXPECT_EQ(r.structured.at("entries").at(0).at("domain"), "sim_bridge");
  EXPECT_EQ(r.structured.at("entries").at(0).at("num_subentries"), 2);
  r = call("ha_get_integration", R"({"query":"hallway","exact_match":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("total"), 0);
}

TEST_F(IntegrationToolsTest, OneEntryWithOptionsSchemaSubentriesAndDiagnostics) {
  start();
  const std::string id = bridge();
  ASSERT_FALSE(id.empty());
  CallResult r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_schema":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("options").at("poll_interval"), 30);
  EXPECT_EQ(r.structured.at("options_schema").as_array().at(0).at("name"), "poll_interval");
  EXPECT_EQ(r.structured.at("subentries").as_array().size(), 2u);
  EXPECT_EQ(r.structured.at("devices").as_array().size(), 1u);
  EXPECT_EQ(r.structured.at("entities").as_array().at(0), "sensor.hallway_bridge_status");

  r = call("ha_get_integration", R"({"entry_id":")" + id +
                                     R"(","include_diagnostics":true,"include_options":false,
"diagnostics_data_path":"bridge.radio_channels","diagnostics_data_offset":2,"diagnostics_data_limit":5})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::object& d = r.structured.at("diagnostics").as_object();
  EXPECT_EQ(d.at("data").as_array().size(), 5u);
  EXPECT_EQ(d.at("data").at(0).at("index"), 2);
  EXPECT_EQ(d.at("total"), 40);
  EXPECT_TRUE(d.at("has_more").as_bool());

  r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_diagnostics":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.text.find("sk-sim-bridge-secret"), std::string::npos) << "a secret in diagnostics was not redacted";
  EXPECT_GE(r.structured.at("diagnostics").at("redacted_keys").as_int64(), 1);

  r = call("ha_get_integration",
           R"({"entry_id":")" + id + R"(","include_diagnostics":true,"diagnostics_truncate_at_bytes":300})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("diagnostics").at("truncated").as_bool());
  EXPECT_LE(r.structured.at("diagnostics").at("data_text").as_string().size(), 300u);

  r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_options":false})");
  const std::string device_id(r.structured.at("devices").at(0).at("id").as_string());
  r = call("ha_get_integration", R"({"device_id":")" + device_id + R"(","include_diagnostics":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("entry_id"), id.c_str()) << "ha-mcp's device_id finds the device's entry";
  EXPECT_EQ(r.structured.at("diagnostics").at("data").at("device").at("id"), device_id.c_str());
  EXPECT_EQ(r.text.find("sk-sim-device-secret"), std::string::npos);

  r = call("ha_get_integration", R"({"entry_id":"nope"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("code"), "entry_not_found");
  r = call("ha_get_integration",
           R"({"entry_id":")" + id + R"(","include_diagnostics":true,"diagnostics_data_path":"x.y"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(std::string(r.error().at("message").as_string()).find("diagnostics_data_path"), std::string::npos);
}

TEST_F(IntegrationToolsTest, ConfigFlowAddsAnEntryOrSaysWhatItNeeds) {
  start();
  CallResult r = call("ha_set_integration", R"({"domain":"sim_bridge","menu_choice":"manual","config":{"port":81}})");
  ASSERT_TRUE(r.is_error) << r.text;
  EXPECT_EQ(r.error().at("code"), "invalid_config");
  EXPECT_EQ(r.error().at("step_id"), "manual");
  EXPECT_EQ(r.error().at("data_schema").at(0).at("name"), "host") << "the form to answer comes back";

  r = call("ha_set_integration", R"({"domain":"sim_bridge","menu_choice":"cloud","config":{"account":"me"}})");
  ASSERT_TRUE(r.is_error) << r.text;
  EXPECT_EQ(r.error().at("code"), "flow_aborted");
  EXPECT_EQ(r.error().at("reason"), "cloud_not_supported");

  r = call("ha_set_integration",
           R"({"domain":"sim_bridge","menu_choice":"manual","config":{"host":"10.0.0.9","name":"Attic Bridge"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "created");
  EXPECT_EQ(r.structured.at("steps"), json::parse(R"(["user","manual","settings"])"));
  EXPECT_EQ(r.structured.at("title"), "Attic Bridge");
  const std::string id(r.structured.at("entry_id").as_string());
  r = call("ha_get_integration", R"({"query":"Attic"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("total"), 1);

  r = call("ha_set_integration",
           R"({"domain":"sim_bridge","menu_choice":"manual","config":{"host":"10.0.0.9","name":"Again"}})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("reason"), "already_configured");
  EXPECT_NE(std::string(r.error().at("message").as_string()).find("already exists"), std::string::npos)
      << "a known abort reason is explained";
  r = call("ha_set_integration", R"({"domain":"no_such_integration"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("code"), "invalid_argument");
}

TEST_F(IntegrationToolsTest, OptionsFlowIsJournaledAndEnableDisableToggles) {
  start();
  const std::string id = bridge();
  CallResult r = call("ha_set_integration", R"({"entry_id":")" + id + R"(","config":{"poll_interval":60}})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("options_before").at("poll_interval"), 30);
  EXPECT_EQ(r.structured.at("options").at("poll_interval"), 60);
  ASSERT_TRUE(r.structured.contains("edit_id"));
  const std::string last_edit(r.structured.at("edit_id").as_string());
  r = call("ha_get_integration", R"({"entry_id":")" + id + R"("})");
  EXPECT_EQ(r.structured.at("options").at("poll_interval"), 60);
  CallResult undo = call("ha_config_set", R"({"restore":")" + last_edit + R"("})");
  ASSERT_FALSE(undo.is_error) << undo.text;
  EXPECT_EQ(undo.structured.at("result"), "restored");
  r = call("ha_get_integration", R"({"entry_id":")" + id + R"("})");
  EXPECT_EQ(r.structured.at("options").at("poll_interval"), 30) << "restore puts the options before back";

  r = call("ha_set_integration", R"({"entry_id":")" + id + R"(","enabled":false})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("disabled_by"), "user");
  r = call("ha_get_integration", R"({"domain":"sim_bridge"})");
  EXPECT_EQ(r.structured.at("entries").at(0).at("disabled_by"), "user");
  EXPECT_EQ(r.structured.at("entries").at(0).at("state"), "not_loaded");
  r = call("ha_set_integration", R"({"entry_id":")" + id + R"(","enabled":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("disabled_by_before"), "user");
  r = call("ha_get_integration", R"({"domain":"sim_bridge"})");
  EXPECT_FALSE(r.structured.at("entries").at(0).as_object().contains("disabled_by")) << "null: left out";

  r = call("ha_set_integration", R"({"entry_id":")" + id + R"(","log_level":"DEBUG"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("integration"), "sim_bridge");
  EXPECT_EQ(r.structured.at("after"), "DEBUG");
  r = call("ha_set_integration", R"({"entry_id":")" + id + R"("})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(std::string(r.error().at("message").as_string()).find("arguments.config"), std::string::npos);
}

TEST_F(IntegrationToolsTest, ReconfigureChecksIdentityPreviewsThenWrites) {
  start();
  const std::string id = bridge();
  const std::string base = R"({"entry_id":")" + id + R"(","reconfigure":true,"config":{"host":"192.168.1.41"})";
  CallResult r = call("ha_set_integration", base + R"(,"expected_mac":"00:11:22:33:44:55"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("code"), "identity_mismatch");
  EXPECT_EQ(r.error().at("written"), false);
  r = call("ha_set_integration", base + R"(,"expected_unique_id":"bridge-192.168.1.40-status",
"expected_entity_ids":["sensor.hallway_bridge_status"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE((r.structured.at("result") == "preview"));
  EXPECT_EQ(r.structured.at("form").at("step_id"), "reconfigure");
  const std::string token(r.structured.at("confirm_token").as_string());
  r = call("ha_set_integration", base + R"(,"confirm_token":"wrong"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE((r.structured.at("result") == "preview"));
  r = call("ha_set_integration", base + R"(,"confirm_token":")" + token + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "reconfigured");
  EXPECT_EQ(r.structured.at("before").at("host"), "192.168.1.40");
  EXPECT_TRUE(r.structured.contains("edit_id"));
  r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_diagnostics":true,
"diagnostics_data_path":"entry.data"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("diagnostics").at("data").at("host"), "192.168.1.41");
}

TEST_F(IntegrationToolsTest, RemovalPreviewsThenRemovesEntriesAndSubentries) {
  start();
  const std::string id = bridge();
  CallResult r =
      call("ha_remove_helpers_integrations",
           R"({"target":")" + id + R"(","helper_type":"config_subentry","subentry_id":"01JDEMOBRIDGEROOMKITCHEN01"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE((r.structured.at("result") == "preview"));
  r = call("ha_remove_helpers_integrations",
           R"({"target":")" + id +
               R"(","helper_type":"config_subentry","subentry_id":"01JDEMOBRIDGEROOMKITCHEN01","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "subentry_removed");
  r = call("ha_get_integration", R"({"entry_id":")" + id + R"(","include_subentries":true,"include_options":false})");
  EXPECT_EQ(r.structured.at("subentries").as_array().size(), 1u);
  r = call("ha_set_integration", R"({"entry_id":")" + id + R"(","remove":true,"subentry_id":"nope","confirm":true})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.error().at("code"), "subentry_not_found");

  r = call("ha_set_integration", R"({"entry_id":")" + id + R"(","remove":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE((r.structured.at("result") == "preview"));
  EXPECT_EQ(r.structured.at("would_remove").at("entities").at(0), "sensor.hallway_bridge_status");
  EXPECT_EQ(r.structured.at("would_remove").at("devices").as_array().size(), 1u);
  r = call("ha_get_integration", R"({"domain":"sim_bridge"})");
  EXPECT_EQ(r.structured.at("total"), 1) << "a preview removed nothing";
  r = call("ha_set_integration", R"({"entry_id":")" + id + R"(","remove":true,"confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "removed");
  EXPECT_TRUE(r.structured.contains("edit_id"));
  r = call("ha_get_integration", R"({"domain":"sim_bridge"})");
  EXPECT_EQ(r.structured.at("total"), 0);
}

TEST_F(IntegrationToolsTest, RemovesAStorageHelperUnderHaMcpsName) {
  start();
  CallResult r = call("ha_config_set_helper", R"({"helper_type":"input_boolean","config":{"name":"Guest mode x"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string helper_id(r.structured.at("item").at("id").as_string());
  r = call("ha_remove_helpers_integrations",
           R"({"target":")" + helper_id + R"(","helper_type":"input_boolean","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "removed");
  r = call("ha_config_set_helper", R"({"helper_type":"input_boolean","config":{"name":"Guest mode y"}})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string second(r.structured.at("entity_id").as_string());
  r = call("ha_remove_helpers_integrations", R"({"target":")" + second + R"(","helper_type":"input_boolean"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE((r.structured.at("result") == "preview"));
  r = call("ha_remove_helpers_integrations",
           R"({"target":")" + second + R"(","helper_type":"input_boolean","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("result"), "removed") << "an entity id as target names its helper";
}

}  // namespace
}  // namespace hamcp::tools::testing
