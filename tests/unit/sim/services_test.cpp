#include <gtest/gtest.h>

#include <algorithm>

#include "sim/core/sim_core.hpp"

namespace hamcp::sim {
namespace {

class ServicesTest : public ::testing::Test {
 protected:
  SimCore core{demo_home(), "tok"};
  StateStore& store = core.store();

  ServiceOutcome call(const std::string& domain, const std::string& service, json::object data,
                      json::object target = {}, bool response = false) {
    return core.services().call(
        ServiceCall{domain, service, std::move(data), std::move(target), store.new_context(), response});
  }
  StatePtr st(const std::string& id) {
    StatePtr s = store.get(id);
    EXPECT_TRUE(s) << id;
    return s;
  }
  std::string error_code(const std::string& domain, const std::string& service, json::object data,
                         json::object target = {}) {
    try {
      call(domain, service, std::move(data), std::move(target));
    } catch (const ServiceError& e) {
      return e.code + ": " + e.message;
    }
    return "no error";
  }
};

TEST_F(ServicesTest, LightTurnOnSetsColourAttributesConsistently) {
  auto out = call("light", "turn_on", {{"brightness_pct", 50}, {"rgb_color", json::array{255, 0, 0}}},
                  {{"entity_id", "light.living_room_floor_lamp"}});
  ASSERT_EQ(out.changed.size(), 1u);
  auto s = st("light.living_room_floor_lamp");
  EXPECT_EQ(s->state, "on");
  EXPECT_EQ(s->attributes.at("brightness"), 128);
  EXPECT_EQ(s->attributes.at("color_mode"), "xy");
  EXPECT_EQ(s->attributes.at("rgb_color"), (json::array{255, 0, 0}));
  EXPECT_EQ(s->attributes.at("hs_color"), (json::array{0.0, 100.0}));
  EXPECT_TRUE(s->attributes.at("color_temp_kelvin").is_null());

  call("light", "turn_on", {{"color_temp_kelvin", 2700}}, {{"entity_id", "light.living_room_floor_lamp"}});
  s = st("light.living_room_floor_lamp");
  EXPECT_EQ(s->attributes.at("color_mode"), "color_temp");
  EXPECT_EQ(s->attributes.at("color_temp_kelvin"), 2700);
  EXPECT_EQ(s->attributes.at("color_temp"), 370);
  EXPECT_EQ(s->attributes.at("brightness"), 128);  // kept

  call("light", "turn_off", {}, {{"entity_id", "light.living_room_floor_lamp"}});
  s = st("light.living_room_floor_lamp");
  EXPECT_EQ(s->state, "off");
  EXPECT_TRUE(s->attributes.at("brightness").is_null());
  EXPECT_TRUE(s->attributes.at("color_mode").is_null());
  EXPECT_TRUE(s->attributes.at("rgb_color").is_null());
  EXPECT_EQ(s->attributes.at("supported_color_modes"), (json::array{"color_temp", "xy"}));

  call("light", "toggle", {}, {{"entity_id", "light.living_room_floor_lamp"}});
  EXPECT_EQ(st("light.living_room_floor_lamp")->state, "on");
  call("light", "turn_on", {{"brightness", 0}}, {{"entity_id", "light.living_room_floor_lamp"}});
  EXPECT_EQ(st("light.living_room_floor_lamp")->state, "off");
}

TEST_F(ServicesTest, ValidationUsesVoluptuousMessages) {
  EXPECT_EQ(error_code("light", "turn_on", {{"brightness", 300}}, {{"entity_id", "light.hallway_light"}}),
            "invalid_format: value must be at most 255 for dictionary value @ data['brightness']");
  EXPECT_EQ(error_code("light", "turn_on", {{"colour", 3}}, {{"entity_id", "light.hallway_light"}}),
            "invalid_format: extra keys not allowed @ data['colour']");
  EXPECT_EQ(error_code("light", "turn_on", {{"brightness", "bright"}}, {{"entity_id", "light.hallway_light"}}),
            "invalid_format: expected int for dictionary value @ data['brightness']");
  EXPECT_EQ(error_code("cover", "set_cover_position", {}, {{"entity_id", "cover.living_room_blinds"}}),
            "invalid_format: required key not provided @ data['position']");
  EXPECT_EQ(error_code("light", "explode", {}), "not_found: Service light.explode not found.");
  EXPECT_EQ(
      error_code("input_select", "select_option", {{"option", "Mars"}}, {{"entity_id", "input_select.house_mode"}}),
      "service_validation_error: Invalid option: Mars (possible options: Home, Away, Night, Vacation)");
  EXPECT_NE(
      error_code("climate", "set_temperature", {{"temperature", 40}}, {{"entity_id", "climate.living_room_radiator"}})
          .find("service_validation_error: Provided temperature 40.0 is not valid. Accepted range is 5.0 to 30.0."),
      std::string::npos);
  // numeric strings are coerced like vol.Coerce(int)
  EXPECT_EQ(error_code("light", "turn_on", {{"brightness", "100"}}, {{"entity_id", "light.hallway_light"}}),
            "no error");
  EXPECT_EQ(st("light.hallway_light")->attributes.at("brightness"), 100);
}

TEST_F(ServicesTest, MissingEntityIsIgnoredLikeHa) {
  auto out = call("light", "turn_on", {}, {{"entity_id", "light.does_not_exist"}});
  EXPECT_TRUE(out.changed.empty());
}

TEST_F(ServicesTest, TargetsExpandAreasFloorsLabelsDevicesAndAll) {
  auto by_area = core.services().expand_target({{"area_id", "kitchen"}});
  EXPECT_NE(std::find(by_area.begin(), by_area.end(), "light.kitchen_ceiling_light"), by_area.end());
  // diagnostic entities (battery) are not targeted through areas
  for (const auto& id : by_area) EXPECT_EQ(id.find("_battery"), std::string::npos) << id;

  auto by_floor = core.services().expand_target({{"floor_id", "dachgeschoss"}});
  EXPECT_NE(std::find(by_floor.begin(), by_floor.end(), "light.kuche_deckenlampe"), by_floor.end());
  EXPECT_EQ(std::find(by_floor.begin(), by_floor.end(), "light.kitchen_ceiling_light"), by_floor.end());

  auto by_label = core.services().expand_target({{"label_id", "night_light"}});
  EXPECT_NE(std::find(by_label.begin(), by_label.end(), "light.hallway_light"), by_label.end());

  auto* reg = store.entity_entry("light.hallway_light");
  ASSERT_TRUE(reg && reg->device_id);
  auto by_device = core.services().expand_target({{"device_id", *reg->device_id}});
  EXPECT_EQ(by_device, std::vector<std::string>{"light.hallway_light"});

  auto out = call("light", "turn_off", {}, {{"entity_id", "all"}});
  for (const auto& s : store.all())
    if (domain_of(s->entity_id) == "light") {
      EXPECT_EQ(s->state, "off") << s->entity_id;
    }
  EXPECT_GT(out.changed.size(), 5u);

  // legacy: targets inside service data
  call("light", "turn_on", {{"area_id", "garden"}});
  EXPECT_EQ(st("light.garden_lights")->state, "on");
  // only lights are touched by light.turn_on even when the area has switches
  EXPECT_EQ(st("switch.garden_fountain")->state, st("switch.garden_fountain")->state);
}

TEST_F(ServicesTest, HomeassistantTurnOffSpansDomains) {
  call("homeassistant", "turn_on", {},
       {{"entity_id", json::array{"light.office_desk_lamp", "switch.coffee_machine", "cover.living_room_blinds"}}});
  EXPECT_EQ(st("light.office_desk_lamp")->state, "on");
  EXPECT_EQ(st("switch.coffee_machine")->state, "on");
  EXPECT_EQ(st("cover.living_room_blinds")->state, "open");
  call("homeassistant", "turn_off", {},
       {{"entity_id", json::array{"light.office_desk_lamp", "switch.coffee_machine", "cover.living_room_blinds"}}});
  EXPECT_EQ(st("light.office_desk_lamp")->state, "off");
  EXPECT_EQ(st("switch.coffee_machine")->state, "off");
  EXPECT_EQ(st("cover.living_room_blinds")->state, "closed");
  EXPECT_EQ(st("cover.living_room_blinds")->attributes.at("current_position"), 0);
}

TEST_F(ServicesTest, DomainsChangeStateRealistically) {
  call("cover", "set_cover_position", {{"position", 40}}, {{"entity_id", "cover.living_room_blinds"}});
  EXPECT_EQ(st("cover.living_room_blinds")->state, "open");
  EXPECT_EQ(st("cover.living_room_blinds")->attributes.at("current_position"), 40);
  call("lock", "unlock", {}, {{"entity_id", "lock.front_door_lock"}});
  EXPECT_EQ(st("lock.front_door_lock")->state, "unlocked");
  call("climate", "set_hvac_mode", {{"hvac_mode", "off"}}, {{"entity_id", "climate.office_radiator"}});
  EXPECT_EQ(st("climate.office_radiator")->state, "off");
  EXPECT_EQ(st("climate.office_radiator")->attributes.at("hvac_action"), "off");
  call("climate", "set_temperature", {{"temperature", 21.5}, {"hvac_mode", "heat"}},
       {{"entity_id", "climate.office_radiator"}});
  EXPECT_EQ(st("climate.office_radiator")->state, "heat");
  EXPECT_EQ(st("climate.office_radiator")->attributes.at("temperature"), 21.5);
  call("media_player", "volume_set", {{"volume_level", 0.3}}, {{"entity_id", "media_player.kitchen_speaker"}});
  EXPECT_EQ(st("media_player.kitchen_speaker")->attributes.at("volume_level"), 0.3);
  call("media_player", "media_play", {}, {{"entity_id", "media_player.kitchen_speaker"}});
  EXPECT_EQ(st("media_player.kitchen_speaker")->state, "playing");
  call("fan", "set_percentage", {{"percentage", 50}}, {{"entity_id", "fan.office_fan"}});
  EXPECT_EQ(st("fan.office_fan")->state, "on");
  EXPECT_EQ(st("fan.office_fan")->attributes.at("percentage"), 50);
  call("input_boolean", "toggle", {}, {{"entity_id", "input_boolean.guest_mode"}});
  EXPECT_EQ(st("input_boolean.guest_mode")->state, "on");
  call("input_number", "set_value", {{"value", 22}}, {{"entity_id", "input_number.target_temperature_day"}});
  EXPECT_EQ(st("input_number.target_temperature_day")->state, "22.0");
  call("input_select", "select_option", {{"option", "Night"}}, {{"entity_id", "input_select.house_mode"}});
  EXPECT_EQ(st("input_select.house_mode")->state, "Night");
  call("input_text", "set_value", {{"value", "Hi"}}, {{"entity_id", "input_text.welcome_message"}});
  EXPECT_EQ(st("input_text.welcome_message")->state, "Hi");
  call("counter", "increment", {}, {{"entity_id", "counter.coffee_cups_today"}});
  EXPECT_EQ(st("counter.coffee_cups_today")->state, "4");
  call("timer", "start", {}, {{"entity_id", "timer.kitchen_timer"}});
  EXPECT_EQ(st("timer.kitchen_timer")->state, "active");
  EXPECT_TRUE(st("timer.kitchen_timer")->attributes.contains("finishes_at"));
  call("vacuum", "start", {}, {{"entity_id", "vacuum.robbie"}});
  EXPECT_EQ(st("vacuum.robbie")->state, "cleaning");
}

TEST_F(ServicesTest, ScenesScriptsAndAutomationsRunTheirActions) {
  call("light", "turn_on", {}, {{"entity_id", "light.living_room_ceiling_light"}});
  call("scene", "turn_on", {}, {{"entity_id", "scene.movie_night"}});
  EXPECT_EQ(st("light.living_room_ceiling_light")->state, "off");
  EXPECT_EQ(st("light.tv_backlight")->state, "on");
  EXPECT_EQ(st("light.tv_backlight")->attributes.at("brightness"), 60);
  EXPECT_EQ(st("cover.living_room_blinds")->state, "closed");
  EXPECT_NE(st("scene.movie_night")->state, "unknown");

  call("script", "turn_on", {}, {{"entity_id", "script.movie_time"}});
  EXPECT_FALSE(st("script.movie_time")->attributes.at("last_triggered").is_null());
  call("script", "goodnight", {});  // script.<object_id> service
  EXPECT_EQ(st("lock.front_door_lock")->state, "locked");

  call("automation", "turn_off", {}, {{"entity_id", "automation.hallway_light_on_motion"}});
  EXPECT_EQ(st("automation.hallway_light_on_motion")->state, "off");
  call("light", "turn_off", {}, {{"entity_id", "light.hallway_light"}});
  call("automation", "trigger", {}, {{"entity_id", "automation.hallway_light_on_motion"}});
  EXPECT_EQ(st("light.hallway_light")->state, "on");
}

TEST_F(ServicesTest, ResponseSupportIsEnforced) {
  EXPECT_NE(error_code("weather", "get_forecasts", {{"type", "daily"}}, {{"entity_id", "weather.forecast_home"}})
                .find("service_validation_error"),
            std::string::npos);
  auto out = call("weather", "get_forecasts", {{"type", "hourly"}}, {{"entity_id", "weather.forecast_home"}}, true);
  ASSERT_TRUE(out.response);
  EXPECT_EQ(out.response->at("weather.forecast_home").at("forecast").as_array().size(), 24u);
  try {
    call("light", "turn_on", {}, {{"entity_id", "light.hallway_light"}}, true);
    FAIL();
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.translation_key.value_or(""), "service_does_not_support_response");
  }
}

TEST_F(ServicesTest, StateChangesRecordHistoryAndLogbook) {
  double t0 = store.started_at() - 1;
  call("switch", "turn_on", {}, {{"entity_id", "switch.office_monitor_plug"}});
  call("switch", "turn_off", {}, {{"entity_id", "switch.office_monitor_plug"}});
  auto h = store.history("switch.office_monitor_plug", t0, 4e9);
  ASSERT_GE(h.size(), 2u);
  EXPECT_EQ(h.back()->state, "off");
  auto log = store.logbook(t0, 4e9);
  int n = 0;
  for (const auto& e : log) n += e.entity_id == "switch.office_monitor_plug";
  EXPECT_GE(n, 1);
  // sensors with units stay out of the logbook
  for (const auto& e : log) EXPECT_NE(e.entity_id.rfind("sensor.", 0), 0u) << e.entity_id;
}

TEST_F(ServicesTest, DescriptionsHaveHaShape) {
  auto ws = core.services().describe_ws();
  const auto& turn_on = ws.at("light").at("turn_on").as_object();
  EXPECT_TRUE(turn_on.at("fields").as_object().contains("brightness_pct"));
  EXPECT_EQ(turn_on.at("target").at("entity").as_array().front().at("domain"), (json::array{"light"}));
  EXPECT_FALSE(ws.at("weather").at("get_forecasts").at("response").at("optional").as_bool());
  auto rest = core.services().describe_rest();
  ASSERT_FALSE(rest.empty());
  EXPECT_TRUE(rest.front().as_object().at("services").is_object());
}

}  // namespace
}  // namespace hamcp::sim
