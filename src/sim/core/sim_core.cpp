#include "sim/core/sim_core.hpp"

#include <set>

#include "sim/core/json_writer.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim {
namespace {

bool equal_ct(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i)
    diff |= static_cast<unsigned char>(a[i] ^ b[i % (b.empty() ? 1 : b.size())]);
  return diff == 0 && !b.empty();
}

}  // namespace

SimCore::SimCore(Home home, std::string token) : store_(std::move(home)), services_(store_), token_(std::move(token)) {
  Timestamp now = now_timestamp();
  system_log_.push_back({"homeassistant.components.sonos", "Error retrieving favorites from Kitchen Speaker: timed out",
                         "ERROR", "/usr/src/homeassistant/homeassistant/components/sonos/favorites.py", 98, now - 3600,
                         3});
  system_log_.push_back({"homeassistant.helpers.template",
                         "Template variable warning: 'dict object' has no attribute 'brightness' when rendering '{{ "
                         "trigger.to_state.attributes.brightness }}'",
                         "WARNING", "/usr/src/homeassistant/homeassistant/helpers/template.py", 2748, now - 7200, 1});
  // Voice-assistant exposure: lights, switches, climate, covers, locks, fans, media players.
  static const std::set<std::string> exposed = {"light", "switch",       "climate", "cover",  "lock",
                                                "fan",   "media_player", "scene",   "script", "input_boolean"};
  for (const auto& s : store_.all())
    if (exposed.count(std::string(domain_of(s->entity_id)))) exposure_["conversation"][s->entity_id] = true;
}

bool SimCore::token_ok(std::string_view token) const {
  if (revoked_) return false;
  return equal_ct(token, token_) || auth_.user_of(token).has_value();
}
bool SimCore::control_token_ok(std::string_view token) const { return equal_ct(token, token_); }

json::object SimCore::config_json() {
  std::lock_guard lock(store_.mutex());
  const CoreConfig& c = store_.home().config;
  std::set<std::string> components = {
      "api",           "auth",         "automation", "config",         "default_config", "frontend", "history",
      "homeassistant", "http",         "logbook",    "lovelace",       "person",         "recorder", "scene",
      "script",        "search",       "sun",        "system_log",     "websocket_api",  "zone",     "input_boolean",
      "input_number",  "input_select", "input_text", "input_datetime", "input_button",   "counter",  "timer",
      "weather",       "backup",       "energy",     "trace"};
  components.insert("tag");  // default_config sets up the tag collection (tag/list works with no tag yet)
  for (const auto& e : store_.home().entities) {
    components.insert(e.platform);
    components.insert(std::string(domain_of(e.entity_id)));
  }
  json::array comps;
  for (const auto& x : components) comps.emplace_back(x);
  bool metric = c.unit_system == "metric";
  json::object units = metric ? json::object{{"length", "km"},   {"accumulated_precipitation", "mm"},
                                             {"area", "m²"},     {"mass", "g"},
                                             {"pressure", "Pa"}, {"temperature", "°C"},
                                             {"volume", "L"},    {"wind_speed", "m/s"}}
                              : json::object{{"length", "mi"},    {"accumulated_precipitation", "in"},
                                             {"area", "ft²"},     {"mass", "lb"},
                                             {"pressure", "psi"}, {"temperature", "°F"},
                                             {"volume", "gal"},   {"wind_speed", "mph"}};
  return {{"latitude", c.latitude},
          {"longitude", c.longitude},
          {"elevation", c.elevation},
          {"radius", 100},
          {"unit_system", units},
          {"location_name", c.location_name},
          {"time_zone", c.time_zone},
          {"components", comps},
          {"config_dir", "/config"},
          {"allowlist_external_dirs", json::array{"/config/www", "/media"}},
          {"allowlist_external_urls", json::array{}},
          {"version", c.version},
          {"config_source", "storage"},
          {"recovery_mode", false},
          {"state", "RUNNING"},
          {"external_url", nullptr},
          {"internal_url", nullptr},
          {"currency", c.currency},
          {"country", c.country},
          {"language", c.language},
          {"safe_mode", false},
          {"debug", false}};
}

void SimCore::record_requests(bool on) {
  std::lock_guard lock(received_mutex_);
  recording_ = on;
  if (on) received_.clear();
}

void SimCore::note_request(std::string channel, std::string what, std::string message) {
  if (!recording_) return;
  std::lock_guard lock(received_mutex_);
  received_.push_back({std::move(channel), std::move(what), std::move(message)});
}

std::vector<ReceivedRequest> SimCore::received_requests() const {
  std::lock_guard lock(received_mutex_);
  return received_;
}

}  // namespace hamcp::sim
