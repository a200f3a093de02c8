// The hand-made demo house: a family home over three floors (the top floor is
// a German-speaking granny flat), a basement, garage and garden. Rooms and
// devices are tables; the order of the device table is the order entities are
// made in (entity ids and generated attributes depend on it).
#include <map>

#include "sim/core/blueprints.hpp"
#include "sim/core/time_util.hpp"
#include "sim/flows/flow_engine.hpp"
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

struct DemoRoom {
  const char* name;
  const char* floor;  // floor name; nullptr = outdoors, no floor
  const char* icon;
  std::vector<std::string> aliases;
  bool german;
  bool outdoor;
  std::vector<const char*> labels;  // label names
};

const std::vector<DemoRoom> kRooms = {
    {"Living Room", "Ground Floor", "mdi:sofa", {"Lounge", "Family room"}, false, false, {}},
    {"Kitchen", "Ground Floor", "mdi:stove", {}, false, false, {}},
    {"Dining Room", "Ground Floor", "mdi:table-chair", {}, false, false, {}},
    {"Hallway", "Ground Floor", "mdi:door", {"Entrance", "Hall"}, false, false, {}},
    {"Office", "Ground Floor", "mdi:desk", {"Study"}, false, false, {}},
    {"Guest Toilet", "Ground Floor", "mdi:toilet", {"Downstairs loo"}, false, false, {}},
    {"Bedroom", "First Floor", "mdi:bed-king", {"Master bedroom", "Main bedroom"}, false, false, {}},
    {"Kids Room", "First Floor", "mdi:teddy-bear", {"Emma's room"}, false, false, {"Kids"}},
    {"Bathroom", "First Floor", "mdi:shower", {"Main bathroom"}, false, false, {}},
    {"Landing", "First Floor", "mdi:stairs", {}, false, false, {}},
    {"Wohnzimmer", "Dachgeschoss", "mdi:sofa-single", {"Oma's living room"}, true, false, {}},
    {"Küche", "Dachgeschoss", "mdi:countertop", {"Kitchenette"}, true, false, {}},
    {"Schlafzimmer", "Dachgeschoss", "mdi:bed", {"Oma's bedroom"}, true, false, {}},
    {"Badezimmer", "Dachgeschoss", "mdi:bathtub", {}, true, false, {}},
    {"Laundry Room", "Basement", "mdi:washing-machine", {"Utility room"}, false, false, {}},
    {"Workshop", "Basement", "mdi:hammer-wrench", {}, false, false, {}},
    {"Garage", nullptr, "mdi:garage", {}, false, true, {}},
    {"Garden", nullptr, "mdi:flower", {"Backyard"}, false, true, {}},
    {"Front Yard", nullptr, "mdi:home-outline", {"Driveway"}, false, true, {}},
};

struct DemoDevice {
  KindFn kind;
  const char* room;  // a kRooms name
  const char* name;
  std::vector<std::string> aliases;
  std::vector<const char*> labels;  // label names
  bool on;
};

const std::vector<DemoDevice> kDevices = {
    {kind_color_light,
     "Living Room",
     "Living Room Ceiling Light",
     {"Main light", "Big light"},
     {"Energy saving"},
     true},
    {kind_color_light, "Living Room", "Living Room Floor Lamp", {"Reading lamp"}, {"Night light"}, false},
    {kind_ambiance_light, "Living Room", "Living Room Spotlights", {}, {}, false},
    {kind_color_light, "Living Room", "TV Backlight", {"Ambilight"}, {"Energy saving"}, false},
    {kind_tv, "Living Room", "Living Room TV", {"Telly", "Television"}, {"Energy saving"}, true},
    {kind_speaker, "Living Room", "Living Room Sonos", {}, {}, false},
    {kind_climate_sensor, "Living Room", "Living Room Climate", {}, {}, false},
    {kind_thermostat, "Living Room", "Living Room Radiator", {"Heating"}, {}, true},
    {kind_blind, "Living Room", "Living Room Blinds", {"Shades"}, {}, false},
    {kind_window_contact, "Living Room", "Living Room Window", {}, {}, false},
    {kind_motion_sensor, "Living Room", "Living Room Motion", {}, {}, false},
    {kind_air_purifier, "Living Room", "Living Room Air Purifier", {}, {}, false},
    {kind_dimmable_light, "Kitchen", "Kitchen Ceiling Light", {}, {"Energy saving"}, true},
    {kind_ambiance_light, "Kitchen", "Kitchen Under-Cabinet Lights", {"Counter lights"}, {}, false},
    {kind_smart_plug, "Kitchen", "Coffee Machine", {"Espresso machine", "Coffee maker"}, {"Energy saving"}, false},
    {kind_smart_plug, "Kitchen", "Dishwasher", {}, {}, false},
    {kind_climate_sensor, "Kitchen", "Kitchen Climate", {}, {}, false},
    {kind_speaker, "Kitchen", "Kitchen Speaker", {}, {}, false},
    {kind_leak_sensor, "Kitchen", "Kitchen Sink Leak Sensor", {}, {"Security", "Battery"}, false},
    {kind_smoke_detector, "Kitchen", "Kitchen Smoke Detector", {}, {"Security"}, false},
    {kind_color_light, "Dining Room", "Dining Table Pendant", {"Dinner light"}, {}, false},
    {kind_blind, "Dining Room", "Dining Room Blinds", {}, {}, false},
    {kind_window_contact, "Dining Room", "Dining Room Patio Door", {}, {}, false},
    {kind_dimmable_light, "Hallway", "Hallway Light", {"Hall light"}, {"Night light"}, false},
    {kind_door_lock, "Hallway", "Front Door Lock", {"Front door"}, {"Security"}, false},
    {kind_door_contact, "Hallway", "Front Door Sensor", {}, {"Security"}, false},
    {kind_motion_sensor, "Hallway", "Hallway Motion", {}, {}, false},
    {kind_camera, "Hallway", "Doorbell Camera", {"Doorbell"}, {"Security"}, false},
    {kind_ambiance_light, "Office", "Office Desk Lamp", {"Desk light"}, {}, false},
    {kind_dimmable_light, "Office", "Office Ceiling Light", {}, {}, false},
    {kind_smart_plug, "Office", "Office Monitor Plug", {"Monitors"}, {"Energy saving"}, false},
    {kind_climate_sensor, "Office", "Office Climate", {}, {}, false},
    {kind_thermostat, "Office", "Office Radiator", {}, {}, false},
    {kind_fan, "Office", "Office Fan", {"Desk fan"}, {}, false},
    {kind_onoff_light, "Guest Toilet", "Guest Toilet Light", {}, {}, false},
    {kind_motion_sensor, "Guest Toilet", "Guest Toilet Motion", {}, {}, false},
    {kind_color_light, "Bedroom", "Bedroom Ceiling Light", {}, {}, false},
    {kind_ambiance_light, "Bedroom", "Bedside Lamp Left", {"Alex's lamp"}, {"Night light"}, false},
    {kind_ambiance_light, "Bedroom", "Bedside Lamp Right", {"Sam's lamp"}, {"Night light"}, false},
    {kind_blind, "Bedroom", "Bedroom Blinds", {}, {}, false},
    {kind_climate_sensor, "Bedroom", "Bedroom Climate", {}, {}, false},
    {kind_thermostat, "Bedroom", "Bedroom Radiator", {}, {}, false},
    {kind_fan, "Bedroom", "Bedroom Ceiling Fan", {}, {}, false},
    {kind_speaker, "Bedroom", "Bedroom Speaker", {}, {}, false},
    {kind_color_light, "Kids Room", "Kids Room Light", {"Emma's light"}, {"Kids"}, false},
    {kind_color_light, "Kids Room", "Star Projector", {"Night light"}, {"Kids", "Night light"}, false},
    {kind_climate_sensor, "Kids Room", "Kids Room Climate", {}, {}, false},
    {kind_thermostat, "Kids Room", "Kids Room Radiator", {}, {}, false},
    {kind_window_contact, "Kids Room", "Kids Room Window", {}, {"Kids"}, false},
    {kind_ambiance_light, "Bathroom", "Bathroom Mirror Light", {}, {}, false},
    {kind_dimmable_light, "Bathroom", "Bathroom Ceiling Light", {}, {}, false},
    {kind_climate_sensor, "Bathroom", "Bathroom Climate", {}, {}, false},
    {kind_thermostat, "Bathroom", "Bathroom Towel Rail", {"Towel warmer"}, {}, false},
    {kind_fan, "Bathroom", "Bathroom Extractor Fan", {"Vent"}, {}, false},
    {kind_leak_sensor, "Bathroom", "Bathroom Leak Sensor", {}, {"Battery"}, false},
    {kind_dimmable_light, "Landing", "Landing Light", {"Stairs light"}, {"Night light"}, false},
    {kind_motion_sensor, "Landing", "Landing Motion", {}, {}, false},
    {kind_smoke_detector, "Landing", "Landing Smoke Detector", {}, {"Security"}, false},
    {kind_vacuum, "Landing", "Robbie", {"Vacuum", "Robot vacuum", "Hoover"}, {}, false},
    {kind_color_light, "Wohnzimmer", "Wohnzimmer Deckenlampe", {"Omas Licht"}, {}, false},
    {kind_dimmable_light, "Wohnzimmer", "Wohnzimmer Stehlampe", {}, {}, false},
    {kind_tv, "Wohnzimmer", "Wohnzimmer Fernseher", {"Omas Fernseher"}, {}, false},
    {kind_thermostat, "Wohnzimmer", "Wohnzimmer Heizung", {}, {}, false},
    {kind_climate_sensor, "Wohnzimmer", "Wohnzimmer Klima", {}, {}, false},
    {kind_dimmable_light, "Küche", "Küche Deckenlampe", {}, {}, false},
    {kind_smart_plug, "Küche", "Küche Wasserkocher", {"Kettle"}, {}, false},
    {kind_smoke_detector, "Küche", "Küche Rauchmelder", {}, {"Security"}, false},
    {kind_ambiance_light, "Schlafzimmer", "Schlafzimmer Nachttischlampe", {}, {}, false},
    {kind_blind, "Schlafzimmer", "Schlafzimmer Rollladen", {}, {}, false},
    {kind_thermostat, "Schlafzimmer", "Schlafzimmer Heizung", {}, {}, false},
    {kind_onoff_light, "Badezimmer", "Badezimmer Licht", {}, {}, false},
    {kind_climate_sensor, "Badezimmer", "Badezimmer Klima", {}, {}, false},
    {kind_onoff_light, "Laundry Room", "Laundry Light", {}, {}, false},
    {kind_washing_machine, "Laundry Room", "Washing Machine", {"Washer"}, {}, false},
    {kind_washing_machine, "Laundry Room", "Tumble Dryer", {"Dryer"}, {}, false},
    {kind_leak_sensor, "Laundry Room", "Laundry Leak Sensor", {}, {"Battery"}, false},
    {kind_energy_meter, "Laundry Room", "Grid Meter", {"Electricity meter", "Smart meter"}, {}, false},
    {kind_onoff_light, "Workshop", "Workshop Light", {}, {}, false},
    {kind_smart_plug, "Workshop", "3D Printer Plug", {"Printer"}, {}, false},
    {kind_garage_door, "Garage", "Garage Door", {"Garage"}, {"Security"}, false},
    {kind_onoff_light, "Garage", "Garage Light", {}, {}, false},
    {kind_smart_plug, "Garage", "EV Charger", {"Car charger", "Wallbox"}, {"Energy saving"}, false},
    {kind_color_light, "Garden", "Garden Lights", {"Patio lights"}, {"Holiday mode"}, false},
    {kind_wall_switch, "Garden", "Garden Fountain", {"Fountain"}, {}, false},
    {kind_smart_plug, "Garden", "Irrigation Pump", {"Sprinkler"}, {}, false},
    {kind_climate_sensor, "Garden", "Outdoor Climate", {"Outside temperature"}, {}, false},
    {kind_camera, "Garden", "Garden Camera", {}, {"Security"}, false},
    {kind_onoff_light, "Front Yard", "Porch Light", {"Front light"}, {"Holiday mode"}, false},
    {kind_camera, "Front Yard", "Driveway Camera", {}, {"Security"}, false},
    {kind_motion_sensor, "Front Yard", "Driveway Motion", {}, {}, false},
};

// Labels, categories and floors; ids by name.
struct Taxonomy {
  std::map<std::string, std::string> labels, floors;
  std::string cat_light, cat_sec, cat_climate, cat_notify, cat_routines;
  const std::string& label(const std::string& name) const { return labels.at(name); }
  std::vector<std::string> label_ids(const std::vector<const char*>& names) const {
    std::vector<std::string> ids;
    for (const char* n : names) ids.push_back(label(n));
    return ids;
  }
};

Taxonomy add_taxonomy(HomeBuilder& b) {
  Taxonomy t;
  auto label = [&](const char* name, const char* color, const char* icon, const char* description) {
    t.labels[name] = b.add_label(name, color, icon, description);
  };
  label("Security", "red", "mdi:shield-home", "Doors, locks, cameras and alarms");
  label("Energy saving", "green", "mdi:leaf", "Turn off when nobody is home");
  label("Night light", "indigo", "mdi:weather-night", "Stays on dimmed at night");
  label("Kids", "amber", "mdi:teddy-bear", "");
  label("Battery", "orange", "mdi:battery", "Battery-powered devices");
  label("Holiday mode", "cyan", "mdi:airplane", "Used by the holiday presence simulation");
  t.cat_light = b.add_category("automation", "Lighting", "mdi:lightbulb-group");
  t.cat_sec = b.add_category("automation", "Security", "mdi:shield");
  t.cat_climate = b.add_category("automation", "Climate", "mdi:thermostat");
  t.cat_notify = b.add_category("automation", "Notifications", "mdi:bell");
  t.cat_routines = b.add_category("script", "Routines", "mdi:routes");
  b.add_category("helpers", "Presence", "mdi:account-group");
  t.floors["Basement"] = b.add_floor("Basement", -1, "mdi:home-floor-negative-1", {"Cellar"});
  t.floors["Ground Floor"] = b.add_floor("Ground Floor", 0, "mdi:home-floor-0", {"Downstairs"});
  t.floors["First Floor"] = b.add_floor("First Floor", 1, "mdi:home-floor-1", {"Upstairs"});
  t.floors["Dachgeschoss"] = b.add_floor("Dachgeschoss", 2, "mdi:home-roof", {"Attic", "Top floor", "Oma's flat"});
  return t;
}

std::map<std::string, Room> add_rooms(HomeBuilder& b, const Taxonomy& t) {
  std::map<std::string, Room> rooms;
  for (const auto& d : kRooms) {
    Room r;
    std::optional<std::string> floor;
    if (d.floor) floor = t.floors.at(d.floor);
    r.area_id = b.add_area(d.name, floor, d.icon, d.aliases, t.label_ids(d.labels));
    r.name = d.name;
    r.german = d.german;
    r.outdoor = d.outdoor;
    rooms[d.name] = r;
  }
  return rooms;
}

void add_devices(HomeBuilder& b, const Taxonomy& t, const std::map<std::string, Room>& rooms) {
  for (const auto& d : kDevices) {
    KindOptions o;
    o.device_name = d.name;
    o.aliases = d.aliases;
    o.labels = t.label_ids(d.labels);
    o.on = d.on;
    d.kind(b, rooms.at(d.room), o);
  }
}

struct Helpers {
  std::string guest_mode, vacation_mode, house_mode;
};

Helpers add_helpers(HomeBuilder& b) {
  Helpers h;
  h.guest_mode = add_input_boolean(b, "Guest Mode", false, "mdi:account-multiple");
  h.vacation_mode = add_input_boolean(b, "Vacation Mode", false, "mdi:airplane");
  add_input_boolean(b, "Night Mode", false, "mdi:weather-night");
  add_input_number(b, "Target Temperature Day", 15, 25, 0.5, 21, "°C", "mdi:thermometer");
  add_input_number(b, "Wake-up Brightness", 0, 100, 5, 60, "%", "mdi:brightness-6");
  h.house_mode = add_input_select(b, "House Mode", {"Home", "Away", "Night", "Vacation"}, "Home", "mdi:home-switch");
  add_input_select(b, "Living Room Scene", {"Relax", "Movie", "Bright", "Off"}, "Relax", "mdi:palette");
  add_input_text(b, "Welcome Message", "Welcome home!");
  add_input_datetime(b, "Wake-up Time", false, true);
  add_input_datetime(b, "Holiday Start", true, false);
  add_input_button(b, "Doorbell Test", "mdi:bell-ring");
  add_counter(b, "Coffee Cups Today", 3, 1);
  add_counter(b, "Door Openings", 17, 1);
  add_timer(b, "Laundry Timer", "1:30:00");
  add_timer(b, "Kitchen Timer", "0:10:00");
  return h;
}

// The scripts; returns the Goodnight script's entity id.
std::string add_scripts(HomeBuilder& b, const Taxonomy& t) {
  const std::string goodnight = add_script(
      b, "Goodnight", "mdi:weather-night",
      json::array{call("light.turn_off", {{"area_id", json::array{"living_room", "kitchen", "dining_room"}}}),
                  call("lock.lock", {{"entity_id", "lock.front_door_lock"}}),
                  call("cover.close_cover", {{"area_id", "bedroom"}})},
      t.cat_routines);
  add_script(b, "Leave Home", "mdi:exit-run",
             json::array{call("light.turn_off", {{"entity_id", "all"}}),
                         call("climate.set_preset_mode", {{"entity_id", "climate.living_room_radiator"}},
                              {{"preset_mode", "away"}})},
             t.cat_routines);
  add_script(b, "Movie Time", "mdi:movie-open",
             json::array{call("light.turn_on", {{"entity_id", "light.tv_backlight"}}, {{"brightness_pct", 20}}),
                         call("light.turn_off", {{"entity_id", "light.living_room_ceiling_light"}}),
                         call("cover.close_cover", {{"entity_id", "cover.living_room_blinds"}})});
  add_script(b, "Morgenroutine Oma", "mdi:weather-sunset-up",
             json::array{call("light.turn_on", {{"area_id", "wohnzimmer"}}),
                         call("switch.turn_on", {{"entity_id", "switch.kuche_wasserkocher"}})});
  return goodnight;
}

void add_scenes(HomeBuilder& b) {
  add_scene(b, "Movie Night",
            {{"light.living_room_ceiling_light", {{"state", "off"}}},
             {"light.tv_backlight", {{"state", "on"}, {"brightness", 60}}},
             {"cover.living_room_blinds", {{"state", "closed"}}}},
            "mdi:movie");
  add_scene(b, "Dinner", {{"light.dining_table_pendant", {{"state", "on"}, {"brightness", 150}}}}, "mdi:silverware");
  add_scene(b, "Bright Living Room", {{"light.living_room_ceiling_light", {{"state", "on"}, {"brightness", 255}}}},
            "mdi:brightness-7");
  add_scene(
      b, "All Off Downstairs",
      {{"light.living_room_ceiling_light", {{"state", "off"}}}, {"light.kitchen_ceiling_light", {{"state", "off"}}}},
      "mdi:lightbulb-off");
}

void add_automations(HomeBuilder& b, const Taxonomy& t, const Helpers& h, const std::string& goodnight) {
  add_automation(b, "Hallway light on motion", "Turn the hallway light on when motion is detected after sunset",
                 json::array{state_trigger("binary_sensor.hallway_motion_motion", "on")},
                 json::array{call("light.turn_on", {{"entity_id", "light.hallway_light"}})}, true, t.cat_light,
                 {t.label("Night light")});
  add_automation(b, "Lock front door at night", "", json::array{json::object{{"trigger", "time"}, {"at", "23:00:00"}}},
                 json::array{call("lock.lock", {{"entity_id", "lock.front_door_lock"}})}, true, t.cat_sec,
                 {t.label("Security")});
  add_automation(
      b, "Leak alert", "Notify everybody when any leak sensor gets wet",
      json::array{state_trigger("binary_sensor.kitchen_sink_leak_sensor_water_leak", "on"),
                  state_trigger("binary_sensor.bathroom_leak_sensor_water_leak", "on")},
      json::array{json::object{{"action", "notify.notify"}, {"data", {{"message", "Water leak detected!"}}}}}, true,
      t.cat_notify, {t.label("Security")});
  add_automation(b, "Heating eco when away", "", json::array{state_trigger(h.house_mode, "Away")},
                 json::array{call("climate.set_preset_mode", {{"area_id", json::array{"living_room", "bedroom"}}},
                                  {{"preset_mode", "eco"}})},
                 true, t.cat_climate);
  add_automation(b, "Bathroom fan on humidity", "",
                 json::array{json::object{
                     {"trigger", "numeric_state"}, {"entity_id", "sensor.bathroom_climate_humidity"}, {"above", 70}}},
                 json::array{call("fan.turn_on", {{"entity_id", "fan.bathroom_extractor_fan"}})}, true, t.cat_climate);
  add_automation(b, "Goodnight at 23:30", "", json::array{json::object{{"trigger", "time"}, {"at", "23:30:00"}}},
                 json::array{json::object{{"action", "script.turn_on"}, {"target", {{"entity_id", goodnight}}}}}, false,
                 t.cat_light);
  add_automation(b, "Holiday presence simulation", "Random lights while on vacation",
                 json::array{json::object{{"trigger", "sun"}, {"event", "sunset"}}},
                 json::array{call("light.turn_on", {{"label_id", t.label("Holiday mode")}})}, false, t.cat_light,
                 {t.label("Holiday mode")});
  add_automation(b, "Guest mode welcome", "", json::array{state_trigger(h.guest_mode, "on")},
                 json::array{call("light.turn_on", {{"area_id", "hallway"}})}, true);
  add_automation(b, "Vacation mode off on arrival", "", json::array{state_trigger("person.alex", "home")},
                 json::array{call("input_boolean.turn_off", {{"entity_id", h.vacation_mode}})}, true, t.cat_sec);
  add_automation(
      b, "Wäsche fertig Benachrichtigung", "Meldung wenn die Waschmaschine fertig ist",
      json::array{state_trigger("sensor.washing_machine_operation_state", "finished")},
      json::array{json::object{{"action", "notify.notify"}, {"data", {{"message", "Die Wäsche ist fertig"}}}}}, true,
      t.cat_notify);
}

// HA's motion-light blueprint and an automation using it, so blueprint tools have something to show.
void add_blueprint_automation(HomeBuilder& b, const Taxonomy& t) {
  const std::string path = "homeassistant/motion_light.yaml";
  b.home().blueprints[blueprint_key("automation", path)] = demo_motion_light_blueprint();
  const std::string alias = "Landing motion light";
  add_automation(b, alias, "", json::array{}, json::array{}, true, t.cat_light);
  for (auto& [id, cfg] : b.home().automation_configs) {
    if (cfg.at("alias") != alias.c_str()) continue;
    json::object input{{"motion_entity", "binary_sensor.landing_motion_motion"},
                       {"light_target", json::object{{"entity_id", "light.landing_light"}}}};
    cfg = json::object{{"id", id},
                       {"alias", alias},
                       {"description", "Landing light follows motion (from a blueprint)"},
                       {"use_blueprint", json::object{{"path", path}, {"input", std::move(input)}}}};
  }
}

}  // namespace

void add_calendar_and_todo(HomeBuilder& b);        // demo_everyday.cpp
void add_flow_helpers_and_groups(HomeBuilder& b);  // demo_helpers.cpp
void add_demo_repairs(Home& home);                 // demo_helpers.cpp
void add_demo_backups(Home& home);                 // demo_backups.cpp
void add_demo_updates(HomeBuilder& b);             // demo_updates.cpp
void add_integration_entries(HomeBuilder& b);      // demo_integrations.cpp
void add_demo_radios(HomeBuilder& b);              // demo_radios.cpp
void add_energy_and_assist(HomeBuilder& b);        // demo_energy.cpp

Home demo_home() {
  HomeBuilder b(20260101);
  b.home().config.location_name = "Maple House";
  const Taxonomy t = add_taxonomy(b);
  const auto rooms = add_rooms(b, t);
  add_devices(b, t, rooms);
  add_home_singletons(b, {"Alex", "Sam", "Emma", "Oma Ingrid"});
  const Helpers h = add_helpers(b);
  add_flow_helpers_and_groups(b);
  const std::string goodnight = add_scripts(b, t);
  add_scenes(b);
  add_automations(b, t, h, goodnight);
  add_blueprint_automation(b, t);
  add_demo_repairs(b.home());
  add_demo_lovelace(b.home());
  add_calendar_and_todo(b);
  add_demo_backups(b.home());
  add_demo_updates(b);
  add_demo_radios(b);
  add_integration_entries(b);
  add_energy_and_assist(b);
  b.home().supervisor = demo_supervisor();
  // A hidden entity, as every real registry has some.
  for (auto& e : b.home().entities) {
    if (e.entity_id == "sensor.living_room_air_purifier_pm2_5") e.hidden_by = "user";
  }
  return b.take();
}

}  // namespace hamcp::sim
