#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sim/home/home_model.hpp"

namespace hamcp::sim {
namespace {

// Every reference in a home points at something that exists.
void expect_consistent(const Home& h) {
  std::set<std::string> ids, devices, areas, floors, labels;
  for (const auto& s : h.states) EXPECT_TRUE(ids.insert(s.entity_id).second) << "duplicate " << s.entity_id;
  for (const auto& d : h.devices) devices.insert(d.id);
  for (const auto& a : h.areas) areas.insert(a.area_id);
  for (const auto& f : h.floors) floors.insert(f.floor_id);
  for (const auto& l : h.labels) labels.insert(l.label_id);
  for (const auto& a : h.areas)
    if (a.floor_id) {
      EXPECT_TRUE(floors.count(*a.floor_id)) << a.area_id;
    }
  for (const auto& d : h.devices)
    if (d.area_id) {
      EXPECT_TRUE(areas.count(*d.area_id)) << d.name;
    }
  for (const auto& e : h.entities) {
    if (e.device_id) {
      EXPECT_TRUE(devices.count(*e.device_id)) << e.entity_id;
    }
    if (e.area_id) {
      EXPECT_TRUE(areas.count(*e.area_id)) << e.entity_id;
    }
    for (const auto& l : e.labels) EXPECT_TRUE(labels.count(l)) << e.entity_id << " label " << l;
    if (!e.disabled_by) {
      EXPECT_TRUE(ids.count(e.entity_id)) << "registry entry without state " << e.entity_id;
    }
  }
  for (const auto& s : h.states) {
    EXPECT_EQ(s.entity_id.find(' '), std::string::npos);
    EXPECT_FALSE(domain_of(s.entity_id).empty()) << s.entity_id;
    EXPECT_TRUE(s.attributes.contains("friendly_name")) << s.entity_id;
    EXPECT_EQ(s.context.id.size(), 26u);
  }
}

std::map<std::string, int> domains(const Home& h) {
  std::map<std::string, int> d;
  for (const auto& s : h.states) d[std::string(domain_of(s.entity_id))]++;
  return d;
}

TEST(DemoHome, IsARealisticHouse) {
  Home h = demo_home();
  EXPECT_GE(h.states.size(), 150u);
  EXPECT_LE(h.states.size(), 250u);
  auto d = domains(h);
  EXPECT_GE(d.size(), 25u);
  for (const char* dom :
       {"light",   "switch",        "sensor",       "binary_sensor", "climate",    "cover",          "lock",
        "fan",     "media_player",  "vacuum",       "camera",        "person",     "device_tracker", "sun",
        "weather", "input_boolean", "input_number", "input_select",  "input_text", "input_datetime", "input_button",
        "counter", "timer",         "automation",   "script",        "scene",      "button",         "number",
        "select",  "update",        "zone"})
    EXPECT_GT(d[dom], 0) << dom;
  bool german = false;
  for (const auto& a : h.areas) german |= a.name == "Küche";
  EXPECT_TRUE(german);
  EXPECT_EQ(h.floors.size(), 4u);
  EXPECT_FALSE(h.labels.empty());
  EXPECT_FALSE(h.categories.empty());
  EXPECT_EQ(h.automation_configs.size(), static_cast<std::size_t>(d["automation"]));
  EXPECT_EQ(h.script_configs.size(), static_cast<std::size_t>(d["script"]));
  expect_consistent(h);
}

TEST(DemoHome, LightsCarryHaAttributes) {
  Home h = demo_home();
  int color = 0;
  for (const auto& s : h.states) {
    if (domain_of(s.entity_id) != "light") continue;
    ASSERT_TRUE(s.attributes.contains("supported_color_modes")) << s.entity_id;
    ASSERT_TRUE(s.attributes.contains("color_mode")) << s.entity_id;
    if (s.state == "off") {
      EXPECT_TRUE(s.attributes.at("brightness").is_null()) << s.entity_id;
    }
    if (s.state == "on" && s.attributes.at("color_mode") == "xy") {
      ++color;
      EXPECT_TRUE(s.attributes.at("rgb_color").is_array());
      EXPECT_TRUE(s.attributes.at("color_temp_kelvin").is_null());
    }
  }
  const auto it = std::find_if(h.states.begin(), h.states.end(), [](const EntityState& s) {
    return s.entity_id == "sensor.living_room_climate_temperature";
  });
  ASSERT_NE(it, h.states.end());
  EXPECT_EQ(it->attributes.at("device_class"), "temperature");
  EXPECT_EQ(it->attributes.at("unit_of_measurement"), "°C");
  EXPECT_EQ(it->attributes.at("state_class"), "measurement");
}

TEST(GeneratedHome, ExactCountsForManySizes) {
  for (std::size_t n : {1u, 10u, 57u, 1000u, 10000u}) {
    Home h = generate_home(n, 42);
    EXPECT_EQ(h.states.size(), n);
    expect_consistent(h);
  }
}

TEST(GeneratedHome, DeterministicPerSeedAndDifferentAcrossSeeds) {
  Home a = generate_home(1000, 7), b = generate_home(1000, 7), c = generate_home(1000, 8);
  ASSERT_EQ(a.states.size(), b.states.size());
  for (std::size_t i = 0; i < a.states.size(); ++i) {
    EXPECT_EQ(a.states[i].entity_id, b.states[i].entity_id);
    EXPECT_EQ(a.states[i].state, b.states[i].state);
    EXPECT_EQ(a.states[i].attributes, b.states[i].attributes);
    EXPECT_EQ(a.states[i].context.id, b.states[i].context.id);
  }
  ASSERT_EQ(a.devices.size(), b.devices.size());
  for (std::size_t i = 0; i < a.devices.size(); ++i) EXPECT_EQ(a.devices[i].id, b.devices[i].id);
  bool differs = a.states.size() != c.states.size();
  for (std::size_t i = 0; !differs && i < a.states.size(); ++i) differs = a.states[i].state != c.states[i].state;
  EXPECT_TRUE(differs);
}

TEST(GeneratedHome, LooksLikeARealHome) {
  Home h = generate_home(1000, 3);
  auto d = domains(h);
  EXPECT_GE(d.size(), 25u);
  EXPECT_GT(d["light"], 50);
  EXPECT_GE(h.areas.size(), 30u);
  std::size_t aliased = 0, labelled = 0;
  for (const auto& e : h.entities) {
    aliased += !e.aliases.empty();
    labelled += !e.labels.empty();
  }
  EXPECT_GT(aliased, 20u);
  EXPECT_GT(labelled, 20u);
  std::set<std::string> manufacturers;
  for (const auto& dev : h.devices) manufacturers.insert(dev.manufacturer);
  EXPECT_GT(manufacturers.size(), 15u);
  // device-based friendly names start with the room name
  for (const auto& s : h.states)
    if (s.entity_id == "light.living_room_ceiling_light") {
      EXPECT_EQ(s.attributes.at("friendly_name"), "Living Room Ceiling Light");
    }
}

TEST(GeneratedHome, HundredThousandEntitiesHaveUniqueReadableNames) {
  Home h = generate_home(100000, 1);
  ASSERT_EQ(h.states.size(), 100000u);
  std::set<std::string> ids;
  for (const auto& s : h.states) ids.insert(s.entity_id);
  EXPECT_EQ(ids.size(), 100000u);
  EXPECT_GT(h.areas.size(), 1000u);
  EXPECT_EQ(h.areas.front().name.rfind("Apt ", 0), 0u);
}

}  // namespace
}  // namespace hamcp::sim
