// The demo home's Lovelace: a default dashboard with two views (sections and
// cards), one more storage dashboard, one YAML dashboard (read-only through
// the API, as in HA), a resource and two themes.
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

namespace {

json::object tile(const char* entity) { return {{"type", "tile"}, {"entity", entity}}; }

json::object heading(const char* text) { return {{"type", "heading"}, {"heading", text}}; }

json::object default_config() {
  json::object living{
      {"type", "grid"},
      {"cards", json::array{heading("Living room"), tile("light.living_room_ceiling_light"), tile("light.tv_backlight"),
                            tile("sensor.living_room_climate_temperature")}}};
  json::object kitchen{{"type", "grid"},
                       {"cards", json::array{heading("Kitchen"), tile("light.kitchen_ceiling_light"),
                                             tile("light.dining_table_pendant")}}};
  json::object home_view{{"title", "Home"},
                         {"path", "home"},
                         {"type", "sections"},
                         {"max_columns", 4},
                         {"sections", json::array{living, kitchen}}};
  json::object people{
      {"type", "entities"}, {"title", "People"}, {"entities", json::array{"person.alex", "person.sam"}}};
  json::object climate_view{
      {"title", "Climate"},
      {"path", "climate"},
      {"icon", "mdi:thermometer"},
      {"cards", json::array{json::object{{"type", "thermostat"}, {"entity", "climate.living_room_radiator"}}, people}}};
  return {{"title", "Maple House"}, {"views", json::array{home_view, climate_view}}};
}

json::object energy_config() {
  json::object card{{"type", "entities"},
                    {"title", "Energy today"},
                    {"entities", json::array{"sensor.grid_energy_daily", "sensor.coffee_machine_energy"}}};
  json::object view{{"title", "Energy"}, {"path", "energy"}, {"cards", json::array{card}}};
  return {{"views", json::array{view}}};
}

}  // namespace

void add_demo_lovelace(Home& home) {
  Lovelace& l = home.lovelace;
  l.configs[""] = default_config();
  l.dashboards["dashboard_energy"] = {
      {"require_admin", false},       {"show_in_sidebar", true},        {"title", "Energy"},
      {"icon", "mdi:lightning-bolt"}, {"url_path", "dashboard-energy"}, {"mode", "storage"},
      {"id", "dashboard_energy"}};
  l.configs["dashboard-energy"] = energy_config();
  l.dashboards["dashboard_wall"] = {
      {"mode", "yaml"},           {"filename", "wall.yaml"}, {"title", "Wall panel"},       {"icon", "mdi:tablet"},
      {"show_in_sidebar", false}, {"require_admin", false},  {"url_path", "dashboard-wall"}};
  l.configs["dashboard-wall"] = json::object{
      {"views", json::array{json::object{{"title", "Wall"}, {"cards", json::array{tile("light.tv_backlight")}}}}}};
  l.resources["6f1d0c3e2b7a4c5d9e8f7a6b5c4d3e2f"] = {
      {"id", "6f1d0c3e2b7a4c5d9e8f7a6b5c4d3e2f"}, {"type", "module"}, {"url", "/local/mini-graph-card.js"}};
  l.themes["midnight"] = {{"primary-color", "#5294e2"}, {"primary-background-color", "#383c4a"}};
  l.themes["maple"] = {{"primary-color", "#c0392b"},
                       {"modes", json::object{{"light", json::object{{"primary-background-color", "#fdf6ec"}}},
                                              {"dark", json::object{{"primary-background-color", "#2b1d14"}}}}}};
}

}  // namespace hamcp::sim
