// The simulator's lovelace/* and frontend commands against HA 2026.2's shapes
// and errors: configs (none saved, unknown dashboard, YAML read-only),
// dashboards (hyphen rule, taken url, merge update, delete with its config),
// resources and themes (frontend.set_theme).
#include <gtest/gtest.h>

#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim {
namespace {

class LovelaceTest : public testing::WsCommandTest {};

TEST_F(LovelaceTest, ConfigsReadSaveDeleteWithHasErrors) {
  json::object r = cmd({{"type", "lovelace/config"}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_EQ(r.at("result").at("views").as_array().size(), 2u);
  r = cmd({{"type", "lovelace/config"}, {"url_path", "nope-x"}});
  EXPECT_EQ(code(r), "config_not_found");
  EXPECT_EQ(message(r), "Unknown config specified: nope-x");
  r = cmd({{"type", "lovelace/config/save"}, {"url_path", "dashboard-wall"}, {"config", json::object{}}});
  EXPECT_EQ(code(r), "error");
  EXPECT_EQ(message(r), "Not supported");
  r = cmd({{"type", "lovelace/config/delete"}, {"url_path", "dashboard-energy"}});
  ASSERT_TRUE(r.at("success").as_bool());
  r = cmd({{"type", "lovelace/config"}, {"url_path", "dashboard-energy"}});
  EXPECT_EQ(code(r), "config_not_found");
  EXPECT_EQ(message(r), "No config found.");
  r = cmd({{"type", "lovelace/config/save"}, {"url_path", "dashboard-energy"}, {"config", json::object{{"views", 1}}}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_TRUE(r.at("result").is_null());
}

TEST_F(LovelaceTest, DashboardsCreateUpdateDelete) {
  json::object r = cmd({{"type", "lovelace/dashboards/create"}, {"url_path", "nohyphen"}, {"title", "X"}});
  EXPECT_EQ(code(r), "invalid_format");
  EXPECT_EQ(message(r), "Url path needs to contain a hyphen (-)");
  r = cmd({{"type", "lovelace/dashboards/create"}, {"url_path", "dashboard-energy"}, {"title", "X"}});
  EXPECT_EQ(code(r), "home_assistant_error");
  r = cmd({{"type", "lovelace/dashboards/create"}, {"url_path", "my-test"}});
  EXPECT_EQ(code(r), "invalid_format");  // title is required
  r = cmd({{"type", "lovelace/dashboards/create"}, {"url_path", "my-test"}, {"title", "Mine"}, {"icon", "mdi:star"}});
  ASSERT_TRUE(r.at("success").as_bool());
  const json::object item = r.at("result").as_object();
  EXPECT_EQ(item.at("id"), "my_test");
  EXPECT_EQ(item.at("mode"), "storage");
  EXPECT_EQ(item.at("show_in_sidebar"), true);
  EXPECT_EQ(item.at("require_admin"), false);
  r = cmd({{"type", "lovelace/dashboards/update"}, {"dashboard_id", "my_test"}, {"icon", nullptr}});
  ASSERT_TRUE(r.at("success").as_bool());
  EXPECT_FALSE(r.at("result").as_object().contains("icon"));
  EXPECT_EQ(r.at("result").at("title"), "Mine");
  r = cmd({{"type", "lovelace/dashboards/update"}, {"dashboard_id", "my_test"}, {"url_path", "x-y"}});
  EXPECT_EQ(code(r), "invalid_format");
  cmd({{"type", "lovelace/config/save"}, {"url_path", "my-test"}, {"config", json::object{{"views", json::array()}}}});
  r = cmd({{"type", "lovelace/dashboards/delete"}, {"dashboard_id", "my_test"}});
  ASSERT_TRUE(r.at("success").as_bool());
  r = cmd({{"type", "lovelace/config"}, {"url_path", "my-test"}});
  EXPECT_EQ(message(r), "Unknown config specified: my-test");
  r = cmd({{"type", "lovelace/dashboards/delete"}, {"dashboard_id", "my_test"}});
  EXPECT_EQ(code(r), "not_found");
  EXPECT_EQ(message(r), "Unable to find dashboard_id my_test");
  r = cmd({{"type", "lovelace/dashboards/list"}});
  EXPECT_EQ(r.at("result").as_array().size(), 2u);  // energy (storage) and wall (yaml)
}

// HA's LovelaceStorage.async_delete fires lovelace_updated for a removed dashboard (the
// frontend panel's removal fires panels_updated): hamcp's search cache follows both.
TEST_F(LovelaceTest, DeletingADashboardFiresLovelaceUpdatedAndPanelsUpdated) {
  ASSERT_TRUE(cmd({{"type", "subscribe_events"}, {"event_type", "lovelace_updated"}}).at("success").as_bool());
  ASSERT_TRUE(cmd({{"type", "subscribe_events"}, {"event_type", "panels_updated"}}).at("success").as_bool());
  ASSERT_TRUE(
      cmd({{"type", "lovelace/dashboards/delete"}, {"dashboard_id", "dashboard_energy"}}).at("success").as_bool());
  bool lovelace_updated = false, panels_updated = false;
  for (const auto& frame : out) {
    const json::object* o = frame.if_object();
    const json::value* event = o && o->contains("event") ? &o->at("event") : nullptr;
    if (!event || !event->is_object()) continue;
    const json::object& e = event->get_object();
    if (e.at("event_type") == "lovelace_updated" && e.at("data").at("url_path") == "dashboard-energy")
      lovelace_updated = true;
    if (e.at("event_type") == "panels_updated") panels_updated = true;
  }
  EXPECT_TRUE(lovelace_updated);
  EXPECT_TRUE(panels_updated);
}

TEST_F(LovelaceTest, ResourcesAndThemes) {
  json::object r = cmd({{"type", "lovelace/resources/create"}, {"res_type", "module"}, {"url", "/local/x.js"}});
  ASSERT_TRUE(r.at("success").as_bool());
  const std::string id(r.at("result").at("id").as_string());
  EXPECT_EQ(id.size(), 32u);
  EXPECT_EQ(r.at("result").at("type"), "module");
  r = cmd({{"type", "lovelace/resources/create"}, {"res_type", "wasm"}, {"url", "/local/x.js"}});
  EXPECT_EQ(code(r), "invalid_format");
  r = cmd({{"type", "lovelace/resources/update"}, {"resource_id", id}, {"url", "/local/y.js"}});
  EXPECT_EQ(r.at("result").at("url"), "/local/y.js");
  r = cmd({{"type", "lovelace/resources"}});
  EXPECT_EQ(r.at("result").as_array().size(), 2u);
  r = cmd({{"type", "lovelace/resources/delete"}, {"resource_id", id}});
  ASSERT_TRUE(r.at("success").as_bool());
  r = cmd({{"type", "lovelace/resources/delete"}, {"resource_id", id}});
  EXPECT_EQ(message(r), "Unable to find resource_id " + id);

  r = cmd({{"type", "frontend/get_themes"}});
  EXPECT_EQ(r.at("result").at("default_theme"), "default");
  EXPECT_TRUE(r.at("result").at("default_dark_theme").is_null());
  EXPECT_TRUE(r.at("result").at("themes").as_object().contains("maple"));
  cmd({{"type", "call_service"},
       {"domain", "frontend"},
       {"service", "set_theme"},
       {"service_data", json::object{{"name", "maple"}, {"mode", "dark"}}}});
  cmd({{"type", "call_service"},
       {"domain", "frontend"},
       {"service", "set_theme"},
       {"service_data", json::object{{"name", "no-such-theme"}}}});
  r = cmd({{"type", "frontend/get_themes"}});
  EXPECT_EQ(r.at("result").at("default_dark_theme"), "maple");
  EXPECT_EQ(r.at("result").at("default_theme"), "default");  // an unknown name changes nothing
}

}  // namespace
}  // namespace hamcp::sim
