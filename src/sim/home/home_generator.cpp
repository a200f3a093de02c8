// generate_home(N, seed): a home of exactly N entities that looks like a real
// installation. Small N: one house (floors, rooms, some German-named rooms).
// Large N: a building of units ("Apt 12 Kitchen") on numbered floors, so names
// stay realistic and unique at 100k entities.
#include <algorithm>
#include <map>

#include "sim/home/home_builder.hpp"

namespace hamcp::sim {
namespace {

struct RoomType {
  const char* en;
  const char* de;
  const char* icon;
  bool outdoor;
  std::vector<KindFn> kinds;  // in the order a user would add them
  std::vector<const char*> aliases;
};

// Room types in the order homes get them (a table, so the data reads as data).
const std::vector<RoomType> kRoomTypes = {
    {"Living Room",
     "Wohnzimmer",
     "mdi:sofa",
     false,
     {kind_color_light, kind_tv, kind_climate_sensor, kind_thermostat, kind_blind, kind_color_light, kind_speaker,
      kind_window_contact, kind_motion_sensor, kind_ambiance_light, kind_smart_plug, kind_air_purifier},
     {"Lounge", "Family Room"}},
    {"Kitchen",
     "Küche",
     "mdi:stove",
     false,
     {kind_dimmable_light, kind_smart_plug, kind_climate_sensor, kind_ambiance_light, kind_smoke_detector,
      kind_leak_sensor, kind_speaker, kind_smart_plug, kind_motion_sensor},
     {"Cooking area"}},
    {"Bedroom",
     "Schlafzimmer",
     "mdi:bed",
     false,
     {kind_color_light, kind_ambiance_light, kind_blind, kind_climate_sensor, kind_thermostat, kind_ambiance_light,
      kind_window_contact, kind_fan, kind_speaker},
     {"Master bedroom", "Sleeping room"}},
    {"Bathroom",
     "Badezimmer",
     "mdi:shower",
     false,
     {kind_ambiance_light, kind_climate_sensor, kind_fan, kind_thermostat, kind_leak_sensor, kind_dimmable_light},
     {"Washroom"}},
    {"Office",
     "Arbeitszimmer",
     "mdi:desk",
     false,
     {kind_ambiance_light, kind_smart_plug, kind_climate_sensor, kind_dimmable_light, kind_thermostat, kind_fan,
      kind_window_contact},
     {"Study", "Den"}},
    {"Hallway",
     "Flur",
     "mdi:door",
     false,
     {kind_dimmable_light, kind_motion_sensor, kind_door_contact, kind_door_lock, kind_smoke_detector, kind_camera},
     {"Entrance", "Hall"}},
    {"Kids Room",
     "Kinderzimmer",
     "mdi:teddy-bear",
     false,
     {kind_color_light, kind_climate_sensor, kind_thermostat, kind_color_light, kind_window_contact, kind_blind},
     {"Nursery", "Playroom"}},
    {"Guest Room",
     "Gästezimmer",
     "mdi:bed-empty",
     false,
     {kind_dimmable_light, kind_thermostat, kind_climate_sensor, kind_window_contact, kind_blind},
     {"Spare room"}},
    {"Dining Room",
     "Esszimmer",
     "mdi:table-chair",
     false,
     {kind_color_light, kind_blind, kind_window_contact, kind_ambiance_light, kind_speaker},
     {"Dining area"}},
    {"Laundry Room",
     "Waschküche",
     "mdi:washing-machine",
     false,
     {kind_onoff_light, kind_washing_machine, kind_leak_sensor, kind_energy_meter, kind_smart_plug},
     {"Utility room"}},
    {"Garage",
     "Garage",
     "mdi:garage",
     true,
     {kind_garage_door, kind_onoff_light, kind_smart_plug, kind_camera, kind_motion_sensor},
     {"Carport"}},
    {"Garden",
     "Garten",
     "mdi:flower",
     true,
     {kind_color_light, kind_wall_switch, kind_climate_sensor, kind_camera, kind_smart_plug, kind_motion_sensor},
     {"Backyard", "Yard"}},
    {"Basement",
     "Keller",
     "mdi:stairs-down",
     false,
     {kind_onoff_light, kind_leak_sensor, kind_climate_sensor, kind_smart_plug, kind_vacuum},
     {"Cellar"}},
    {"Patio",
     "Terrasse",
     "mdi:table-furniture",
     true,
     {kind_color_light, kind_smart_plug, kind_climate_sensor, kind_blind},
     {"Terrace", "Deck"}},
};

const std::vector<RoomType>& room_types() { return kRoomTypes; }

const std::vector<std::string>& alias_nouns(std::string_view domain) {
  static const std::map<std::string_view, std::vector<std::string>> nouns = {
      {"light", {"lamp", "main light", "lights"}},
      {"climate", {"heating", "radiator"}},
      {"media_player", {"telly", "music", "speaker"}},
      {"cover", {"blinds", "shades"}},
      {"switch", {"plug", "socket"}},
      {"fan", {"fan", "ventilation"}},
      {"sensor", {"temperature", "thermometer"}},
      {"binary_sensor", {"sensor", "detector"}},
      {"lock", {"lock", "door"}},
      {"vacuum", {"robot", "hoover"}},
      {"camera", {"cam", "camera"}}};
  static const std::vector<std::string> fallback = {"device"};
  auto it = nouns.find(domain);
  return it == nouns.end() ? fallback : it->second;
}
const std::vector<std::string> kPersonNames = {"Alex",   "Sam",  "Jordan", "Taylor", "Lena", "Jonas",
                                               "Mia",    "Noah", "Sofia",  "Lukas",  "Emma", "Liam",
                                               "Hannah", "Ben",  "Olivia", "Felix"};

}  // namespace

namespace {

// The labels and categories every installation of some size has.
struct Taxonomy {
  std::vector<std::string> labels;           // [0] Security … [6] Outdoor
  std::vector<std::string> auto_categories;  // Lighting, Security, Climate
  std::string script_category;
};

Taxonomy add_taxonomy(HomeBuilder& b) {
  Taxonomy t;
  t.labels = {
      b.add_label("Security", "red", "mdi:shield-home", "Doors, locks, cameras"),
      b.add_label("Energy saving", "green", "mdi:leaf", "Off when nobody is home"),
      b.add_label("Night light", "indigo", "mdi:weather-night", ""),
      b.add_label("Battery", "orange", "mdi:battery", "Battery-powered devices"),
      b.add_label("Holiday mode", "cyan", "mdi:airplane", ""),
      b.add_label("Critical", "deep-orange", "mdi:alert", "Must never be turned off"),
      b.add_label("Outdoor", "light-green", "mdi:tree", ""),
  };
  t.auto_categories = {b.add_category("automation", "Lighting", "mdi:lightbulb-group"),
                       b.add_category("automation", "Security", "mdi:shield"),
                       b.add_category("automation", "Climate", "mdi:thermostat")};
  t.script_category = b.add_category("script", "Routines", "mdi:routes");

  return t;
}

struct Rooms {
  std::vector<Room> rooms;
  std::vector<const RoomType*> type_of;  // per room
};

// About 25 entities per room; above 40 rooms the home is a building of flats.
Rooms add_rooms(HomeBuilder& b, std::size_t entity_count, const Taxonomy& tax) {
  Rng& rng = b.rng();
  const auto& types = room_types();
  const auto& labels = tax.labels;
  std::size_t area_count = std::max<std::size_t>(3, entity_count / 25);
  bool building = area_count > 40;
  std::size_t rooms_per_unit = 8;
  std::size_t units_per_floor = 6;
  Rooms out;
  std::vector<std::string> floors;
  if (!building) {
    floors.push_back(b.add_floor("Ground Floor", 0, "mdi:home-floor-0", {"Downstairs"}));
    floors.push_back(b.add_floor("First Floor", 1, "mdi:home-floor-1", {"Upstairs"}));
    if (area_count > 12) floors.push_back(b.add_floor("Dachgeschoss", 2, "mdi:home-roof", {"Attic"}));
    if (area_count > 20) floors.push_back(b.add_floor("Basement", -1, "mdi:home-floor-negative-1", {"Cellar"}));
  }
  std::vector<int> type_seen(types.size(), 0);
  for (std::size_t i = 0; i < area_count; ++i) {
    std::size_t t = building ? (i % rooms_per_unit) : (i % types.size());
    if (building && t >= types.size()) t %= types.size();
    const RoomType& type = types[t];
    Room room;
    std::optional<std::string> floor;
    std::vector<std::string> aliases;
    if (building) {
      std::size_t unit = i / rooms_per_unit;
      std::size_t level = unit / units_per_floor;
      if (unit % units_per_floor == 0 && i % rooms_per_unit == 0)
        floors.push_back(b.add_floor("Floor " + std::to_string(level + 1), static_cast<int>(level + 1),
                                     "mdi:home-floor-" + std::to_string(std::min<std::size_t>(level + 1, 3))));
      floor = floors.back();
      std::string unit_name = "Apt " + std::to_string(level + 1) + static_cast<char>('A' + unit % units_per_floor);
      room.name = unit_name + " " + type.en;
      room.outdoor = false;
      if (rng.chance(0.1)) aliases.push_back(unit_name + " " + type.aliases[0]);
    } else {
      bool german = (floors.size() > 2 && i % 3 == 2) || rng.chance(0.08);
      room.german = german;
      room.name = german ? type.de : type.en;
      if (++type_seen[t] > 1) room.name += " " + std::to_string(type_seen[t]);
      room.outdoor = type.outdoor;
      if (!type.outdoor) floor = floors[(i * floors.size()) / area_count % floors.size()];
      if (rng.chance(0.4)) aliases.push_back(type.aliases[rng.below(type.aliases.size())]);
    }
    std::vector<std::string> area_labels;
    if (type.outdoor) area_labels.push_back(labels[6]);
    room.area_id = b.add_area(room.name, floor, type.icon, aliases, area_labels);
    out.rooms.push_back(room);
    out.type_of.push_back(&type);
  }

  return out;
}

// Devices room by room, round-robin, until `device_target` entities; returns the lights made.
std::vector<std::string> add_devices(HomeBuilder& b, const Rooms& r, const Taxonomy& tax, std::size_t device_target) {
  Rng& rng = b.rng();
  const auto& rooms = r.rooms;
  const auto& room_type_of = r.type_of;
  const auto& labels = tax.labels;
  std::vector<std::string> lights;
  for (std::size_t round = 0; b.entity_count() < device_target; ++round) {
    for (std::size_t i = 0; i < rooms.size() && b.entity_count() < device_target; ++i) {
      const RoomType& type = *room_type_of[i];
      KindFn fn = round < type.kinds.size() ? type.kinds[round] : type.kinds[rng.below(type.kinds.size())];
      KindOptions o;
      if (rng.chance(0.1)) o.labels.push_back(labels[rng.below(labels.size())]);
      std::size_t before = b.home().states.size();
      fn(b, rooms[i], o);
      const auto& st = b.home().states;
      if (before < st.size() && st[before].entity_id.rfind("light.", 0) == 0) lights.push_back(st[before].entity_id);
      // Some users give the main entity a spoken name: "Lounge lamp", "Kitchen heating".
      if (before < st.size() && rng.chance(0.15)) {
        const std::string& eid = st[before].entity_id;
        const auto& nouns = alias_nouns(domain_of(eid));
        const Area& area = b.home().areas[i];
        std::string place = !area.aliases.empty() && rng.chance(0.5) ? area.aliases[0] : area.name;
        for (auto it = b.home().entities.rbegin(); it != b.home().entities.rend(); ++it)
          if (it->entity_id == eid) {
            it->aliases.push_back(place + " " + nouns[rng.below(nouns.size())]);
            break;
          }
      }
    }
    if (round > 10000) break;  // cannot happen; guards an endless loop if kinds ever add nothing
  }

  return lights;
}

// Helpers, automations, scripts and scenes, one at a time until N entities.
void add_configured_entities(HomeBuilder& b, std::size_t entity_count, const Rooms& r,
                             const std::vector<std::string>& lights, const Taxonomy& tax) {
  Rng& rng = b.rng();
  const auto& rooms = r.rooms;
  const auto& labels = tax.labels;
  const auto& auto_categories = tax.auto_categories;
  const auto& script_category = tax.script_category;
  for (std::size_t n = 0; b.entity_count() < entity_count; ++n) {
    std::string idx = n < 12 ? "" : " " + std::to_string(n / 12 + 1);
    const Room& room = rooms[n % rooms.size()];
    std::string light = lights.empty() ? "light.missing" : lights[n % lights.size()];
    switch (n % 12) {
      case 0:
        add_input_boolean(b, "Guest Mode" + idx, false, "mdi:account-multiple");
        break;
      case 1:
        add_automation(
            b, room.name + " lights on motion", "",
            json::array{json::object{
                {"trigger", "state"}, {"entity_id", "binary_sensor." + room.area_id + "_motion"}, {"to", "on"}}},
            json::array{json::object{{"action", "light.turn_on"}, {"target", {{"area_id", room.area_id}}}}},
            rng.chance(0.85), auto_categories[0]);
        break;
      case 2:
        add_input_number(b, "Target Temperature" + idx, 15, 25, 0.5, 20.5, "°C", "mdi:thermometer");
        break;
      case 3:
        add_scene(b, room.name + " Relax" + idx,
                  json::object{{light, json::object{{"state", "on"}, {"brightness", 120}}}}, "mdi:sofa");
        break;
      case 4:
        add_input_select(b, "House Mode" + idx, {"Home", "Away", "Night", "Vacation"}, "Home", "mdi:home-switch");
        break;
      case 5:
        add_script(
            b, room.name + " all off" + idx, "mdi:power",
            json::array{json::object{{"action", "homeassistant.turn_off"}, {"target", {{"area_id", room.area_id}}}}},
            script_category);
        break;
      case 6:
        add_automation(b, "Lock up at night" + idx, "Locks every door at 23:00",
                       json::array{json::object{{"trigger", "time"}, {"at", "23:00:00"}}},
                       json::array{json::object{{"action", "lock.lock"}, {"target", {{"label_id", labels[0]}}}}}, true,
                       auto_categories[1], {labels[0]});
        break;
      case 7:
        add_counter(b, "Door Openings" + idx, static_cast<int>(rng.below(40)), 1);
        break;
      case 8:
        add_timer(b, "Kitchen Timer" + idx, "0:10:00");
        break;
      case 9:
        add_input_text(b, "Welcome Message" + idx, "Welcome home!");
        break;
      case 10:
        add_input_datetime(b, "Wake-up Time" + idx, false, true);
        break;
      case 11:
        add_input_button(b, "Reset Filters" + idx, "mdi:air-filter");
        break;
    }
  }
}

// Exactly N: drops surplus entities from the end (with their registry entries and configs).
void trim_to(Home& home, std::size_t entity_count) {
  while (home.states.size() > entity_count) {
    EntityState last = std::move(home.states.back());
    home.states.pop_back();
    auto it = std::find_if(home.entities.begin(), home.entities.end(),
                           [&](const EntityRegistryEntry& e) { return e.entity_id == last.entity_id; });
    if (it != home.entities.end()) home.entities.erase(it);
    // keep editable configs consistent with the remaining entities
    std::string_view dom = domain_of(last.entity_id);
    const json::value* id = last.attributes.if_contains("id");
    if (dom == "automation" && id && id->is_string()) home.automation_configs.erase(std::string(id->get_string()));
    if (dom == "scene" && id && id->is_string()) home.scene_configs.erase(std::string(id->get_string()));
    if (dom == "script") home.script_configs.erase(last.entity_id.substr(7));
  }
}

}  // namespace

Home generate_home(std::size_t entity_count, uint64_t seed) {
  HomeBuilder b(seed * 0x100000001B3ull + entity_count);
  Rng& rng = b.rng();
  static const char* cities[][2] = {{"Amsterdam", "Europe/Amsterdam"}, {"Berlin", "Europe/Berlin"},
                                    {"London", "Europe/London"},       {"Denver", "America/Denver"},
                                    {"Vienna", "Europe/Vienna"},       {"Toronto", "America/Toronto"}};
  auto city = cities[rng.below(6)];
  b.home().config.location_name = std::string(city[0]) + " Home";
  b.home().config.time_zone = city[1];

  const Taxonomy tax = add_taxonomy(b);
  const Rooms rooms = add_rooms(b, entity_count, tax);
  // Extras (people, helpers, automations…) take ~8% of the home.
  std::size_t reserved = std::min<std::size_t>(entity_count, 12 + entity_count * 8 / 100);
  std::size_t device_target = entity_count > reserved ? entity_count - reserved : 0;

  const std::vector<std::string> lights = add_devices(b, rooms, tax, device_target);
  // People, sun, weather, zone, core update.
  std::size_t people = std::min<std::size_t>(kPersonNames.size(), 2 + entity_count / 5000);
  std::vector<std::string> persons(kPersonNames.begin(), kPersonNames.begin() + static_cast<long>(people));
  add_home_singletons(b, persons);

  add_configured_entities(b, entity_count, rooms, lights, tax);
  Home home = b.take();
  trim_to(home, entity_count);
  return home;
}

}  // namespace hamcp::sim
