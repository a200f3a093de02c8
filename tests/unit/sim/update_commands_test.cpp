// The simulator's updates and HACS, as HA 2026.2 and HACS answer:
// update/release_notes (text, not_found, not_supported), update.install's
// checks and its progress steps, skip / clear_skipped; HACS's commands on
// the demo store, and "unknown_command" once there is no HACS config entry.
#include "sim/core/update_progress.hpp"
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim::testing {
namespace {

constexpr const char* kGarage = "update.garage_door_controller_firmware";

class UpdateCommandsTest : public WsCommandTest {
 protected:
  json::object call(const char* service, const std::string& entity_id, json::object data = {}) {
    return cmd(json::object{{"type", "call_service"},
                            {"domain", "update"},
                            {"service", service},
                            {"service_data", std::move(data)},
                            {"target", json::object{{"entity_id", entity_id}}}});
  }
  json::object attrs(const std::string& entity_id) { return core.store().get(entity_id)->attributes; }
};

TEST_F(UpdateCommandsTest, ReleaseNotes) {
  json::object r = cmd(json::object{{"type", "update/release_notes"}, {"entity_id", kGarage}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_NE(std::string(r.at("result").as_string()).find("ESPHome 2025.12.0"), std::string::npos);
  r = cmd(json::object{{"type", "update/release_notes"}, {"entity_id", "update.nope"}});
  EXPECT_EQ(code(r), "not_found");
  EXPECT_EQ(message(r), "Entity not found");
  r = cmd(json::object{{"type", "update/release_notes"}, {"entity_id", "update.hallway_led_strip_firmware"}});
  EXPECT_EQ(code(r), "not_supported");
}

TEST_F(UpdateCommandsTest, InstallChecksThenProgressesToTheNewVersion) {
  json::object r = call("install", kGarage, {{"backup", true}});
  EXPECT_EQ(code(r), "home_assistant_error");
  EXPECT_EQ(message(r), std::string("Backup is not supported for ") + kGarage);
  r = call("install", kGarage, {{"version", "2025.12.0"}});
  EXPECT_EQ(message(r), std::string("Installing a specific version is not supported for ") + kGarage);
  r = call("install", "update.home_assistant_supervisor_update");
  EXPECT_EQ(message(r), "No update available for update.home_assistant_supervisor_update");
  r = call("install", "update.hallway_led_strip_firmware");
  EXPECT_EQ(message(r), "Update installation already in progress for update.hallway_led_strip_firmware");

  r = call("install", kGarage);
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_EQ(attrs(kGarage).at("in_progress"), true);
  EXPECT_EQ(attrs(kGarage).at("update_percentage"), 0);
  EXPECT_FALSE(advance_update_install(core.store(), kGarage, "", 1));
  EXPECT_EQ(attrs(kGarage).at("update_percentage"), 25);
  for (int step = 2; step < kUpdateSteps; ++step) EXPECT_FALSE(advance_update_install(core.store(), kGarage, "", step));
  EXPECT_TRUE(advance_update_install(core.store(), kGarage, "", kUpdateSteps));
  EXPECT_EQ(attrs(kGarage).at("installed_version"), "2025.12.0");
  EXPECT_EQ(attrs(kGarage).at("in_progress"), false);
  EXPECT_TRUE(attrs(kGarage).at("update_percentage").is_null());
  EXPECT_EQ(core.store().get(kGarage)->state, "off");
}

TEST_F(UpdateCommandsTest, SkipAndClearSkipped) {
  ASSERT_TRUE(call("skip", kGarage).at("success").as_bool());
  EXPECT_EQ(attrs(kGarage).at("skipped_version"), "2025.12.0");
  EXPECT_EQ(core.store().get(kGarage)->state, "off");
  ASSERT_TRUE(call("clear_skipped", kGarage).at("success").as_bool());
  EXPECT_TRUE(attrs(kGarage).at("skipped_version").is_null());
  EXPECT_EQ(core.store().get(kGarage)->state, "on");
  EXPECT_EQ(message(call("skip", "update.home_assistant_supervisor_update")),
            "No update available to skip for update.home_assistant_supervisor_update");
}

TEST_F(UpdateCommandsTest, HacsCommands) {
  json::object r = cmd(json::object{{"type", "hacs/repositories/list"}, {"categories", json::array{"theme"}}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  ASSERT_EQ(r.at("result").as_array().size(), 1u);
  const json::object& theme = r.at("result").as_array()[0].as_object();
  EXPECT_EQ(theme.at("full_name"), "catppuccin/home-assistant");
  EXPECT_FALSE(theme.contains("releases")) << "list items carry no detail fields";
  r = cmd(json::object{{"type", "hacs/repository/info"}, {"repository_id", "0"}});
  EXPECT_EQ(code(r), "repository_not_found");
  EXPECT_EQ(message(r), "Repository with ID (0) not found");
  r = cmd(json::object{{"type", "hacs/repository/download"}, {"repository", "146194325"}, {"version", "4.1.1"}});
  ASSERT_TRUE(r.at("success").as_bool());
  r = cmd(json::object{{"type", "hacs/repository/info"}, {"repository_id", "146194325"}});
  EXPECT_EQ(r.at("result").at("installed_version"), "4.1.1");
  EXPECT_EQ(r.at("result").at("installed"), true);
  r = cmd(
      json::object{{"type", "hacs/repositories/add"}, {"repository", "https://github.com/a/b"}, {"category", "Theme"}});
  EXPECT_TRUE(r.at("result").as_object().empty());
  EXPECT_EQ(core.store().home().hacs_repositories.back().at("full_name"), "a/b");

  std::erase_if(core.store().home().config_entries,
                [](const json::object& e) { return e.at("entry").at("domain") == "hacs"; });
  r = cmd(json::object{{"type", "hacs/info"}});
  EXPECT_EQ(code(r), "unknown_command");
}

}  // namespace
}  // namespace hamcp::sim::testing
