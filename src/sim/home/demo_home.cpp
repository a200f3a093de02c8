// The hand-made demo house: a family home over three floors (the top floor is
// a German-speaking granny flat), a basement, garage and garden.
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {
namespace {

json::object call(const char* service, json::object target, json::object data = {}) {
  json::object a{{"action", service}, {"target", std::move(target)}};
  if (!data.empty()) a["data"] = std::move(data);
  return a;
}

json::object state_trigger(const std::string& entity, const char* to) {
  return {{"trigger", "state"}, {"entity_id", entity}, {"to", to}};
}

}  // namespace

Home demo_home() {
  HomeBuilder b(20260101);
  auto& cfg = b.home().config;
  cfg.location_name = "Maple House";

  std::string security = b.add_label("Security", "red", "mdi:shield-home", "Doors, locks, cameras and alarms");
  std::string energy = b.add_label("Energy saving", "green", "mdi:leaf", "Turn off when nobody is home");
  std::string night = b.add_label("Night light", "indigo", "mdi:weather-night", "Stays on dimmed at night");
  std::string kids = b.add_label("Kids", "amber", "mdi:teddy-bear", "");
  std::string battery = b.add_label("Battery", "orange", "mdi:battery", "Battery-powered devices");
  std::string holiday = b.add_label("Holiday mode", "cyan", "mdi:airplane", "Used by the holiday presence simulation");

  std::string cat_light = b.add_category("automation", "Lighting", "mdi:lightbulb-group");
  std::string cat_sec = b.add_category("automation", "Security", "mdi:shield");
  std::string cat_climate = b.add_category("automation", "Climate", "mdi:thermostat");
  std::string cat_notify = b.add_category("automation", "Notifications", "mdi:bell");
  std::string cat_routines = b.add_category("script", "Routines", "mdi:routes");
  b.add_category("helpers", "Presence", "mdi:account-group");

  std::string basement = b.add_floor("Basement", -1, "mdi:home-floor-negative-1", {"Cellar"});
  std::string ground = b.add_floor("Ground Floor", 0, "mdi:home-floor-0", {"Downstairs"});
  std::string first = b.add_floor("First Floor", 1, "mdi:home-floor-1", {"Upstairs"});
  std::string dach = b.add_floor("Dachgeschoss", 2, "mdi:home-roof", {"Attic", "Top floor", "Oma's flat"});

  auto area = [&](const char* name, const std::string& floor, const char* icon, std::vector<std::string> aliases = {},
                  bool german = false, bool outdoor = false, std::vector<std::string> labels = {}) {
    Room r;
    r.area_id = b.add_area(name, floor.empty() ? std::nullopt : std::optional<std::string>(floor), icon,
                           std::move(aliases), std::move(labels));
    r.name = name;
    r.german = german;
    r.outdoor = outdoor;
    return r;
  };
  Room living = area("Living Room", ground, "mdi:sofa", {"Lounge", "Family room"});
  Room kitchen = area("Kitchen", ground, "mdi:stove");
  Room dining = area("Dining Room", ground, "mdi:table-chair");
  Room hallway = area("Hallway", ground, "mdi:door", {"Entrance", "Hall"});
  Room office = area("Office", ground, "mdi:desk", {"Study"});
  Room toilet = area("Guest Toilet", ground, "mdi:toilet", {"Downstairs loo"});
  Room bedroom = area("Bedroom", first, "mdi:bed-king", {"Master bedroom", "Main bedroom"});
  Room kids_room = area("Kids Room", first, "mdi:teddy-bear", {"Emma's room"}, false, false, {kids});
  Room bathroom = area("Bathroom", first, "mdi:shower", {"Main bathroom"});
  Room landing = area("Landing", first, "mdi:stairs");
  Room wohnzimmer = area("Wohnzimmer", dach, "mdi:sofa-single", {"Oma's living room"}, true);
  Room kueche = area("Küche", dach, "mdi:countertop", {"Kitchenette"}, true);
  Room schlafzimmer = area("Schlafzimmer", dach, "mdi:bed", {"Oma's bedroom"}, true);
  Room bad = area("Badezimmer", dach, "mdi:bathtub", {}, true);
  Room laundry = area("Laundry Room", basement, "mdi:washing-machine", {"Utility room"});
  Room workshop = area("Workshop", basement, "mdi:hammer-wrench");
  Room garage = area("Garage", "", "mdi:garage", {}, false, true);
  Room garden = area("Garden", "", "mdi:flower", {"Backyard"}, false, true);
  Room front = area("Front Yard", "", "mdi:home-outline", {"Driveway"}, false, true);

  auto k = [&](KindFn fn, const Room& r, KindOptions o = {}) { fn(b, r, o); };
  auto named = [](std::string device_name, std::vector<std::string> aliases = {}, std::vector<std::string> labels = {},
                  bool on = false) {
    KindOptions o;
    o.device_name = std::move(device_name);
    o.aliases = std::move(aliases);
    o.labels = std::move(labels);
    o.on = on;
    return o;
  };

  // Living room
  k(kind_color_light, living, named("Living Room Ceiling Light", {"Main light", "Big light"}, {energy}, true));
  k(kind_color_light, living, named("Living Room Floor Lamp", {"Reading lamp"}, {night}));
  k(kind_ambiance_light, living, named("Living Room Spotlights"));
  k(kind_color_light, living, named("TV Backlight", {"Ambilight"}, {energy}));
  k(kind_tv, living, named("Living Room TV", {"Telly", "Television"}, {energy}, true));
  k(kind_speaker, living, named("Living Room Sonos"));
  k(kind_climate_sensor, living, named("Living Room Climate"));
  k(kind_thermostat, living, named("Living Room Radiator", {"Heating"}, {}, true));
  k(kind_blind, living, named("Living Room Blinds", {"Shades"}));
  k(kind_window_contact, living, named("Living Room Window"));
  k(kind_motion_sensor, living, named("Living Room Motion"));
  k(kind_air_purifier, living, named("Living Room Air Purifier"));
  // Kitchen
  k(kind_dimmable_light, kitchen, named("Kitchen Ceiling Light", {}, {energy}, true));
  k(kind_ambiance_light, kitchen, named("Kitchen Under-Cabinet Lights", {"Counter lights"}));
  k(kind_smart_plug, kitchen, named("Coffee Machine", {"Espresso machine", "Coffee maker"}, {energy}));
  k(kind_smart_plug, kitchen, named("Dishwasher"));
  k(kind_climate_sensor, kitchen, named("Kitchen Climate"));
  k(kind_speaker, kitchen, named("Kitchen Speaker"));
  k(kind_leak_sensor, kitchen, named("Kitchen Sink Leak Sensor", {}, {security, battery}));
  k(kind_smoke_detector, kitchen, named("Kitchen Smoke Detector", {}, {security}));
  // Dining
  k(kind_color_light, dining, named("Dining Table Pendant", {"Dinner light"}));
  k(kind_blind, dining, named("Dining Room Blinds"));
  k(kind_window_contact, dining, named("Dining Room Patio Door"));
  // Hallway
  k(kind_dimmable_light, hallway, named("Hallway Light", {"Hall light"}, {night}));
  k(kind_door_lock, hallway, named("Front Door Lock", {"Front door"}, {security}));
  k(kind_door_contact, hallway, named("Front Door Sensor", {}, {security}));
  k(kind_motion_sensor, hallway, named("Hallway Motion"));
  k(kind_camera, hallway, named("Doorbell Camera", {"Doorbell"}, {security}));
  // Office
  k(kind_ambiance_light, office, named("Office Desk Lamp", {"Desk light"}));
  k(kind_dimmable_light, office, named("Office Ceiling Light"));
  k(kind_smart_plug, office, named("Office Monitor Plug", {"Monitors"}, {energy}));
  k(kind_climate_sensor, office, named("Office Climate"));
  k(kind_thermostat, office, named("Office Radiator"));
  k(kind_fan, office, named("Office Fan", {"Desk fan"}));
  // Guest toilet
  k(kind_onoff_light, toilet, named("Guest Toilet Light"));
  k(kind_motion_sensor, toilet, named("Guest Toilet Motion"));
  // Bedroom
  k(kind_color_light, bedroom, named("Bedroom Ceiling Light"));
  k(kind_ambiance_light, bedroom, named("Bedside Lamp Left", {"Alex's lamp"}, {night}));
  k(kind_ambiance_light, bedroom, named("Bedside Lamp Right", {"Sam's lamp"}, {night}));
  k(kind_blind, bedroom, named("Bedroom Blinds"));
  k(kind_climate_sensor, bedroom, named("Bedroom Climate"));
  k(kind_thermostat, bedroom, named("Bedroom Radiator"));
  k(kind_fan, bedroom, named("Bedroom Ceiling Fan"));
  k(kind_speaker, bedroom, named("Bedroom Speaker"));
  // Kids room
  k(kind_color_light, kids_room, named("Kids Room Light", {"Emma's light"}, {kids}));
  k(kind_color_light, kids_room, named("Star Projector", {"Night light"}, {kids, night}));
  k(kind_climate_sensor, kids_room, named("Kids Room Climate"));
  k(kind_thermostat, kids_room, named("Kids Room Radiator"));
  k(kind_window_contact, kids_room, named("Kids Room Window", {}, {kids}));
  // Bathroom
  k(kind_ambiance_light, bathroom, named("Bathroom Mirror Light"));
  k(kind_dimmable_light, bathroom, named("Bathroom Ceiling Light"));
  k(kind_climate_sensor, bathroom, named("Bathroom Climate"));
  k(kind_thermostat, bathroom, named("Bathroom Towel Rail", {"Towel warmer"}));
  k(kind_fan, bathroom, named("Bathroom Extractor Fan", {"Vent"}));
  k(kind_leak_sensor, bathroom, named("Bathroom Leak Sensor", {}, {battery}));
  // Landing
  k(kind_dimmable_light, landing, named("Landing Light", {"Stairs light"}, {night}));
  k(kind_motion_sensor, landing, named("Landing Motion"));
  k(kind_smoke_detector, landing, named("Landing Smoke Detector", {}, {security}));
  k(kind_vacuum, landing, named("Robbie", {"Vacuum", "Robot vacuum", "Hoover"}));
  // Dachgeschoss (German)
  k(kind_color_light, wohnzimmer, named("Wohnzimmer Deckenlampe", {"Omas Licht"}));
  k(kind_dimmable_light, wohnzimmer, named("Wohnzimmer Stehlampe"));
  k(kind_tv, wohnzimmer, named("Wohnzimmer Fernseher", {"Omas Fernseher"}));
  k(kind_thermostat, wohnzimmer, named("Wohnzimmer Heizung"));
  k(kind_climate_sensor, wohnzimmer, named("Wohnzimmer Klima"));
  k(kind_dimmable_light, kueche, named("Küche Deckenlampe"));
  k(kind_smart_plug, kueche, named("Küche Wasserkocher", {"Kettle"}));
  k(kind_smoke_detector, kueche, named("Küche Rauchmelder", {}, {security}));
  k(kind_ambiance_light, schlafzimmer, named("Schlafzimmer Nachttischlampe"));
  k(kind_blind, schlafzimmer, named("Schlafzimmer Rollladen"));
  k(kind_thermostat, schlafzimmer, named("Schlafzimmer Heizung"));
  k(kind_onoff_light, bad, named("Badezimmer Licht"));
  k(kind_climate_sensor, bad, named("Badezimmer Klima"));
  // Basement
  k(kind_onoff_light, laundry, named("Laundry Light"));
  k(kind_washing_machine, laundry, named("Washing Machine", {"Washer"}));
  k(kind_washing_machine, laundry, named("Tumble Dryer", {"Dryer"}));
  k(kind_leak_sensor, laundry, named("Laundry Leak Sensor", {}, {battery}));
  k(kind_energy_meter, laundry, named("Grid Meter", {"Electricity meter", "Smart meter"}));
  k(kind_onoff_light, workshop, named("Workshop Light"));
  k(kind_smart_plug, workshop, named("3D Printer Plug", {"Printer"}));
  // Outside
  k(kind_garage_door, garage, named("Garage Door", {"Garage"}, {security}));
  k(kind_onoff_light, garage, named("Garage Light"));
  k(kind_smart_plug, garage, named("EV Charger", {"Car charger", "Wallbox"}, {energy}));
  k(kind_color_light, garden, named("Garden Lights", {"Patio lights"}, {holiday}));
  k(kind_wall_switch, garden, named("Garden Fountain", {"Fountain"}));
  k(kind_smart_plug, garden, named("Irrigation Pump", {"Sprinkler"}));
  k(kind_climate_sensor, garden, named("Outdoor Climate", {"Outside temperature"}));
  k(kind_camera, garden, named("Garden Camera", {}, {security}));
  k(kind_onoff_light, front, named("Porch Light", {"Front light"}, {holiday}));
  k(kind_camera, front, named("Driveway Camera", {}, {security}));
  k(kind_motion_sensor, front, named("Driveway Motion"));

  add_home_singletons(b, {"Alex", "Sam", "Emma", "Oma Ingrid"});

  // Helpers
  std::string guest = add_input_boolean(b, "Guest Mode", false, "mdi:account-multiple");
  std::string vacation = add_input_boolean(b, "Vacation Mode", false, "mdi:airplane");
  add_input_boolean(b, "Night Mode", false, "mdi:weather-night");
  add_input_number(b, "Target Temperature Day", 15, 25, 0.5, 21, "°C", "mdi:thermometer");
  add_input_number(b, "Wake-up Brightness", 0, 100, 5, 60, "%", "mdi:brightness-6");
  std::string mode =
      add_input_select(b, "House Mode", {"Home", "Away", "Night", "Vacation"}, "Home", "mdi:home-switch");
  add_input_select(b, "Living Room Scene", {"Relax", "Movie", "Bright", "Off"}, "Relax", "mdi:palette");
  add_input_text(b, "Welcome Message", "Welcome home!");
  add_input_datetime(b, "Wake-up Time", false, true);
  add_input_datetime(b, "Holiday Start", true, false);
  add_input_button(b, "Doorbell Test", "mdi:bell-ring");
  add_counter(b, "Coffee Cups Today", 3, 1);
  add_counter(b, "Door Openings", 17, 1);
  add_timer(b, "Laundry Timer", "1:30:00");
  add_timer(b, "Kitchen Timer", "0:10:00");

  // Scripts
  std::string goodnight = add_script(
      b, "Goodnight", "mdi:weather-night",
      json::array{call("light.turn_off", {{"area_id", json::array{"living_room", "kitchen", "dining_room"}}}),
                  call("lock.lock", {{"entity_id", "lock.front_door_lock"}}),
                  call("cover.close_cover", {{"area_id", "bedroom"}})},
      cat_routines);
  add_script(b, "Leave Home", "mdi:exit-run",
             json::array{call("light.turn_off", {{"entity_id", "all"}}),
                         call("climate.set_preset_mode", {{"entity_id", "climate.living_room_radiator"}},
                              {{"preset_mode", "away"}})},
             cat_routines);
  add_script(b, "Movie Time", "mdi:movie-open",
             json::array{call("light.turn_on", {{"entity_id", "light.tv_backlight"}}, {{"brightness_pct", 20}}),
                         call("light.turn_off", {{"entity_id", "light.living_room_ceiling_light"}}),
                         call("cover.close_cover", {{"entity_id", "cover.living_room_blinds"}})});
  add_script(b, "Morgenroutine Oma", "mdi:weather-sunset-up",
             json::array{call("light.turn_on", {{"area_id", "wohnzimmer"}}),
                         call("switch.turn_on", {{"entity_id", "switch.kuche_wasserkocher"}})});

  // Scenes
  add_scene(b, "Movie Night",
            {{"light.living_room_ceiling_light", {{"state", "off"}}},
             {"light.tv_backlight", {{"state", "on"}, {"brightness", 60}}},
             {"cover.living_room_blinds", {{"state", "closed"}}}},
            "mdi:movie");
  add_scene(b, "Dinner", {{"light.dining_table_pendant", {{"state", "on"}, {"brightness", 150}}}}, "mdi:silverware");
  add_scene(b, "Bright Living Room", {{"light.living_room_ceiling_light", {{"state", "on"}, {"brightness", 255}}}},
            "mdi:brightness-7");
  add_scene(b, "All Off Downstairs",
            {{"light.living_room_ceiling_light", {{"state", "off"}}}, {"light.kitchen_ceiling_light", {{"state", "off"}}}},
            "mdi:lightbulb-off");

  // Automations
  add_automation(b, "Hallway light on motion", "Turn the hallway light on when motion is detected after sunset",
                 json::array{state_trigger("binary_sensor.hallway_motion_motion", "on")},
                 json::array{call("light.turn_on", {{"entity_id", "light.hallway_light"}})}, true, cat_light, {night});
  add_automation(b, "Lock front door at night", "",
                 json::array{json::object{{"trigger", "time"}, {"at", "23:00:00"}}},
                 json::array{call("lock.lock", {{"entity_id", "lock.front_door_lock"}})}, true, cat_sec, {security});
  add_automation(b, "Leak alert", "Notify everybody when any leak sensor gets wet",
                 json::array{state_trigger("binary_sensor.kitchen_sink_leak_sensor_water_leak", "on"),
                             state_trigger("binary_sensor.bathroom_leak_sensor_water_leak", "on")},
                 json::array{json::object{{"action", "notify.notify"},
                                          {"data", {{"message", "Water leak detected!"}}}}},
                 true, cat_notify, {security});
  add_automation(b, "Heating eco when away", "",
                 json::array{state_trigger(mode, "Away")},
                 json::array{call("climate.set_preset_mode", {{"area_id", json::array{"living_room", "bedroom"}}},
                                  {{"preset_mode", "eco"}})},
                 true, cat_climate);
  add_automation(b, "Bathroom fan on humidity", "",
                 json::array{json::object{{"trigger", "numeric_state"},
                                          {"entity_id", "sensor.bathroom_climate_humidity"},
                                          {"above", 70}}},
                 json::array{call("fan.turn_on", {{"entity_id", "fan.bathroom_extractor_fan"}})}, true, cat_climate);
  add_automation(b, "Goodnight at 23:30", "",
                 json::array{json::object{{"trigger", "time"}, {"at", "23:30:00"}}},
                 json::array{json::object{{"action", "script.turn_on"}, {"target", {{"entity_id", goodnight}}}}},
                 false, cat_light);
  add_automation(b, "Holiday presence simulation", "Random lights while on vacation",
                 json::array{json::object{{"trigger", "sun"}, {"event", "sunset"}}},
                 json::array{call("light.turn_on", {{"label_id", holiday}})}, false, cat_light, {holiday});
  add_automation(b, "Guest mode welcome", "",
                 json::array{state_trigger(guest, "on")},
                 json::array{call("light.turn_on", {{"area_id", "hallway"}})}, true);
  add_automation(b, "Vacation mode off on arrival", "",
                 json::array{state_trigger("person.alex", "home")},
                 json::array{call("input_boolean.turn_off", {{"entity_id", vacation}})}, true, cat_sec);
  add_automation(b, "Wäsche fertig Benachrichtigung", "Meldung wenn die Waschmaschine fertig ist",
                 json::array{state_trigger("sensor.washing_machine_operation_state", "finished")},
                 json::array{json::object{{"action", "notify.notify"},
                                          {"data", {{"message", "Die Wäsche ist fertig"}}}}},
                 true, cat_notify);

  // A disabled and a hidden entity, as every real registry has some.
  for (auto& e : b.home().entities) {
    if (e.entity_id == "sensor.living_room_air_purifier_pm2_5") e.hidden_by = "user";
  }
  return b.take();
}

}  // namespace hamcp::sim
