// The demo home's Energy dashboard and Assist: a solar inverter's energy
// sensor, energy prefs with the grid meter (import and export), the solar
// source and three plugs as devices (the EV charger counted inside the grid
// meter), and the preferred "Home Assistant" pipeline plus a German one.
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

namespace {

json::object device(const char* stat, const char* name) { return {{"stat_consumption", stat}, {"name", name}}; }

json::object pipeline(const char* id, const char* name, const char* language) {
  return {{"conversation_engine", "conversation.home_assistant"},
          {"conversation_language", language},
          {"language", language},
          {"name", name},
          {"stt_engine", nullptr},
          {"stt_language", nullptr},
          {"tts_engine", nullptr},
          {"tts_language", nullptr},
          {"tts_voice", nullptr},
          {"wake_word_entity", nullptr},
          {"wake_word_id", nullptr},
          {"prefer_local_intents", false},
          {"id", id}};
}

}  // namespace

void add_energy_and_assist(HomeBuilder& b) {
  EntitySpec solar;
  solar.domain = "sensor";
  solar.object_id = "solar_inverter_energy";
  solar.original_name = "Solar Inverter Energy";
  solar.platform = "enphase_envoy";
  solar.state = "3120.442";
  solar.device_class = "energy";
  solar.attributes = {{"state_class", "total_increasing"}, {"unit_of_measurement", "kWh"}};
  b.add_entity(std::move(solar));

  json::object grid{{"type", "grid"},
                    {"flow_from", json::array{json::object{{"stat_energy_from", "sensor.grid_meter_energy_import"},
                                                           {"stat_cost", nullptr},
                                                           {"entity_energy_price", nullptr},
                                                           {"number_energy_price", 0.31}}}},
                    {"flow_to", json::array{json::object{{"stat_energy_to", "sensor.grid_meter_energy_export"},
                                                         {"stat_compensation", nullptr},
                                                         {"entity_energy_price", nullptr},
                                                         {"number_energy_price", 0.08}}}},
                    {"cost_adjustment_day", 0.0}};
  json::object sun{{"type", "solar"},
                   {"stat_energy_from", "sensor.solar_inverter_energy"},
                   {"config_entry_solar_forecast", nullptr}};
  json::object ev = device("sensor.ev_charger_energy", "EV charger");
  ev["included_in_stat"] = "sensor.grid_meter_energy_import";
  b.home().energy_prefs =
      json::object{{"energy_sources", json::array{std::move(grid), std::move(sun)}},
                   {"device_consumption", json::array{device("sensor.coffee_machine_energy", "Coffee machine"),
                                                      device("sensor.dishwasher_energy", "Dishwasher"), std::move(ev)}},
                   {"device_consumption_water", json::array{}}};

  b.home().voice.pipelines = {pipeline("01jdemopipelinehomeassist", "Home Assistant", "en"),
                              pipeline("01jdemopipelinedeutsch0001", "Deutsch", "de")};
  b.home().voice.preferred = "01jdemopipelinehomeassist";
}

}  // namespace hamcp::sim
