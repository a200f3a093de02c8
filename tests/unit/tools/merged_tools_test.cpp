// Tools that used to be several: ha_manage_calendar and ha_manage_todo
// (action get|set|remove), ha_set_dashboard remove=true, ha_manage_updates
// reached as ha_ignore_repair. The old names stay callable, and every action
// is held to the old tool's own schema (required fields, bounds, its own
// arguments only), whichever name it is called by.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class MergedToolsTest : public ToolsTest {
 protected:
  void expect_refused(const std::string& tool, const std::string& args, std::string_view names) {
    CallResult r = call(tool, args);
    ASSERT_TRUE(r.is_error) << tool << " " << args;
    EXPECT_NE(r.text.find(names), std::string::npos) << r.text;  // the schema's refusal or the action's
  }
};

TEST_F(MergedToolsTest, EachActionKeepsItsOldRequiredFieldsAndBounds) {
  start();
  // set needs summary/start/end: by the merged name and by ha-mcp's.
  expect_refused("ha_manage_calendar", R"({"action":"set","entity_id":"calendar.family","start":"2026-06-01"})",
                 "summary");
  expect_refused("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","start":"2026-06-01"})", "summary");
  expect_refused("ha_manage_calendar", R"({"action":"remove","entity_id":"calendar.family"})", "uid");
  expect_refused("ha_manage_calendar", R"({"action":"get","entity_id":"calendar.family","max_results":0})",
                 "max_results");
  expect_refused("ha_manage_todo", R"({"action":"remove","entity_id":"todo.shopping_list"})", "item");
  expect_refused("ha_remove_todo_item", R"({"entity_id":"todo.shopping_list"})", "item");
  // An argument of another action is not silently ignored.
  expect_refused("ha_manage_todo", R"({"action":"get","entity_id":"todo.shopping_list","summary":"Tea"})", "summary");
  expect_refused("ha_config_get_calendar_events", R"({"entity_id":"calendar.family","confirm":true})", "confirm");
  expect_refused("ha_set_dashboard", R"({"url_path":"dashboard-energy","remove":true,"config":{"views":[]}})",
                 "config");
  expect_refused("ha_ignore_repair", R"({"domain":"homeassistant"})", "issue_id");
}

TEST_F(MergedToolsTest, MergedAndOldNamesDoTheSameWork) {
  start();
  CallResult r = call("ha_manage_calendar", R"({"action":"get"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_GT(r.structured.at("count").as_int64(), 0) << r.text;
  r = call("ha_manage_todo", R"({"action":"set","entity_id":"todo.shopping_list","summary":"Merged tea"})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_get_todo", R"({"entity_id":"todo.shopping_list"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("Merged tea"), std::string::npos) << r.text;
  r = call("ha_manage_todo",
           R"({"action":"remove","entity_id":"todo.shopping_list","item":"Merged tea","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_manage_todo", R"({"action":"get","entity_id":"todo.shopping_list"})");
  EXPECT_EQ(r.text.find("Merged tea"), std::string::npos) << r.text;
  // ha-mcp's recurrence_range "" (this occurrence only) passes, as the old tool's also_accepts let it.
  r = call("ha_config_remove_calendar_event",
           R"({"entity_id":"calendar.family","uid":"demo-oma","recurrence_id":"x","recurrence_range":""})");
  EXPECT_EQ(r.text.find("recurrence_range"), std::string::npos) << r.text;
  // ha_remove_dashboard is ha_set_dashboard remove=true: a preview without confirm.
  r = call("ha_remove_dashboard", R"({"url_path":"dashboard-energy"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("preview"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
