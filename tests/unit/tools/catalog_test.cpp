// The family's tools/list: names, schemas, annotations; 6.x aliases callable
// but never listed.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

const std::vector<std::string> kTools = {
    "ha_search", "ha_get_overview", "ha_get_state", "ha_call_service", "ha_bulk_control", "ha_get_operation_status",
    "ha_list_services", "ha_call_event", "ha_get_entity", "ha_set_entity", "ha_remove_entity", "ha_eval_template",
    "ha_get_history", "ha_get_logs", "ha_config_get", "ha_config_set", "ha_config_remove", "ha_get_automation_traces",
    "ha_manage_blueprints",
    // helpers and old-style groups
    "ha_config_list_helpers", "ha_config_set_helper", "ha_config_list_groups", "ha_config_set_group",
    "ha_config_remove_group",
    // system administration
    "ha_get_system_health", "ha_restart", "ha_reload_core", "ha_set_log_level", "ha_report_issue",
    // registries: devices, areas, floors, labels, categories, zones, exposure
    "ha_get_registry", "ha_set_registry", "ha_remove_registry",
    // dashboards, resources, themes
    "ha_get_dashboard", "ha_set_dashboard", "ha_manage_dashboard_resources", "ha_manage_theme",
    // calendars, to-do lists, cameras
    "ha_manage_calendar", "ha_manage_todo", "ha_get_camera_image",
    // safety
    "ha_get_audit_log",
    // backups and the edit journal
    "ha_manage_backup",
    // updates and HACS
    "ha_manage_updates", "ha_manage_hacs",
    // integrations (config entries and their flows)
    "ha_get_integration", "ha_set_integration",
    // energy preferences, Assist pipelines
    "ha_manage_energy_prefs", "ha_manage_pipeline",
    // Supervisor add-ons
    "ha_get_app", "ha_manage_app",
    // hamcp's skills guide
    "ha_get_skill_guide",
    // radio networks (Z-Wave, Zigbee, Thread, Matter)
    "ha_manage_radio",
    // hamcp's own settings
    "ha_get_settings"};

TEST_F(ToolsTest, ListsEveryToolWithSchemasAndAnnotations) {
  start();
  json::object r = list_tools();
  const auto& tools = r.at("result").at("tools").as_array();
  std::vector<std::string> names;
  for (const auto& t : tools) {
    const auto& o = t.as_object();
    const std::string name(o.at("name").as_string());
    names.push_back(name);
    EXPECT_FALSE(o.at("description").as_string().empty()) << name;
    EXPECT_LT(o.at("description").as_string().size(), 320u) << name << ": keep descriptions short";
    EXPECT_EQ(o.at("inputSchema").at("type").as_string(), "object") << name;
    EXPECT_EQ(o.at("outputSchema").at("type").as_string(), "object") << name;
    const auto& a = o.at("annotations").as_object();
    for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})
      EXPECT_TRUE(a.contains(hint)) << name << " lacks " << hint;
    // A read-only tool is never destructive.
    if (a.at("readOnlyHint").as_bool()) {
      EXPECT_FALSE(a.at("destructiveHint").as_bool()) << name;
    }
  }
  EXPECT_EQ(names, kTools);
  auto hint = [&](const std::string& tool, const char* key) {
    for (const auto& t : tools)
      if (t.at("name").as_string() == tool) return t.at("annotations").at(key).as_bool();
    return false;
  };
  EXPECT_TRUE(hint("ha_search", "readOnlyHint"));
  EXPECT_FALSE(hint("ha_call_service", "readOnlyHint"));
  EXPECT_TRUE(hint("ha_call_service", "destructiveHint"));
  EXPECT_TRUE(hint("ha_remove_entity", "destructiveHint"));
  EXPECT_FALSE(hint("ha_remove_entity", "idempotentHint"));
  EXPECT_TRUE(hint("ha_set_entity", "idempotentHint"));
  EXPECT_FALSE(hint("ha_call_event", "destructiveHint"));
}

TEST_F(ToolsTest, OldNamesAreCallableButHidden) {
  start();
  json::object r = list_tools();
  std::string listing = json::serialize(r);
  for (const char* alias : {"ha_search_entities", "ha_deep_search", "ha_rename_entity", "ha_get_system_version",
                            "ha_get_logbook", "ha_get_statistics", "ha_get_bulk_status", "ha_config_get_automation",
                            "ha_config_set_script", "ha_config_remove_scene"})
    EXPECT_EQ(listing.find(std::string("\"") + alias + "\""), std::string::npos) << alias << " is listed";

  // 6.x argument names keep working.
  CallResult s = call("ha_search_entities", R"({"query":"kitchen ceiling","domain_filter":"light","limit":3})");
  ASSERT_FALSE(s.is_error) << s.text;
  EXPECT_EQ(ids_of(s.structured.at("results").as_array()).front(), "light.kitchen_ceiling_light");
  for (const auto& id : ids_of(s.structured.at("results").as_array())) EXPECT_EQ(id.rfind("light.", 0), 0u) << id;

  CallResult deep = call("ha_deep_search", R"({"query":"movie time","search_types":["automation","script"]})");
  ASSERT_FALSE(deep.is_error) << deep.text;
  ASSERT_FALSE(deep.structured.at("results").as_array().empty()) << deep.text;
  EXPECT_EQ(ids_of(deep.structured.at("results").as_array()).front(), "script.movie_time");
  for (const auto& id : ids_of(deep.structured.at("results").as_array()))
    EXPECT_TRUE(id.rfind("automation.", 0) == 0 || id.rfind("script.", 0) == 0) << id;

  CallResult v = call("ha_get_system_version");
  ASSERT_FALSE(v.is_error) << v.text;
  EXPECT_FALSE(v.structured.at("home").at("version").as_string().empty());

  CallResult lb = call("ha_get_logbook", R"({"hours_back":2})");
  ASSERT_FALSE(lb.is_error) << lb.text;
  EXPECT_EQ(lb.structured.at("source").as_string(), "logbook");

  CallResult st =
      call("ha_get_statistics",
           R"({"entity_ids":["sensor.living_room_climate_temperature"],"start_time":"2d","period":"hour"})");
  ASSERT_FALSE(st.is_error) << st.text;
  EXPECT_EQ(st.structured.at("source").as_string(), "statistics");

  CallResult bulk = call("ha_get_bulk_status", R"({"operation_ids":["op_999999"]})");
  ASSERT_FALSE(bulk.is_error) << bulk.text;
  EXPECT_EQ(bulk.structured.at("not_found").as_array().size(), 1u);

  CallResult rename =
      call("ha_rename_entity", R"({"entity_id":"light.porch_light","new_entity_id":"light.front_porch"})");
  ASSERT_FALSE(rename.is_error) << rename.text;
  EXPECT_EQ(rename.structured.at("entity_id").as_string(), "light.front_porch");
}

TEST_F(ToolsTest, SchemaViolationsNameTheField) {
  start();
  CallResult r = call("ha_search", R"({"limit":-3})");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("arguments.limit"), std::string::npos) << r.text;

  r = call("ha_get_state", R"({})");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("entity_id"), std::string::npos) << r.text;

  r = call("ha_get_overview", R"({"detail":"huge"})");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("arguments.detail"), std::string::npos) << r.text;

  r = call("ha_call_event", R"({"event_type":"bad type with spaces"})");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("arguments.event_type"), std::string::npos) << r.text;

  r = call("ha_bulk_control", R"({"operations":[]})");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("arguments.operations"), std::string::npos) << r.text;

  // Unknown arguments (schemas stay open for 6.x names) are refused by name.
  r = call("ha_search", R"({"qurey":"kitchen"})");
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "invalid_argument");
  EXPECT_NE(r.error().at("message").as_string().find("arguments.qurey"), std::string::npos) << r.text;
  EXPECT_NE(r.error().at("suggestion").as_string().find("query"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
