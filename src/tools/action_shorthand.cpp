#include "tools/action_shorthand.hpp"

#include <array>

namespace hamcp::tools {

namespace {

struct Override {
  std::string_view domain;  // "" = every domain without its own entry
  std::string_view action;
  std::string_view service;
};

// Domain entries first; the generic on/off/open/close words last. The
// services named here are Home Assistant's. lock.open needs its own entry:
// the generic "open" below would turn it into turn_on.
constexpr std::array kOverrides{
    Override{"cover", "open", "open_cover"},
    Override{"cover", "close", "close_cover"},
    Override{"cover", "stop", "stop_cover"},
    Override{"cover", "set", "set_cover_position"},
    Override{"valve", "open", "open_valve"},
    Override{"valve", "close", "close_valve"},
    Override{"valve", "stop", "stop_valve"},
    Override{"valve", "set", "set_valve_position"},
    Override{"lock", "open", "open"},
    Override{"lock", "close", "lock"},
    Override{"light", "set", "turn_on"},
    Override{"climate", "set", "set_temperature"},
    Override{"water_heater", "set", "set_temperature"},
    Override{"fan", "set", "set_percentage"},
    Override{"number", "set", "set_value"},
    Override{"input_number", "set", "set_value"},
    Override{"media_player", "play", "media_play"},
    Override{"media_player", "pause", "media_pause"},
    Override{"media_player", "play_pause", "media_play_pause"},
    Override{"media_player", "stop", "media_stop"},
    Override{"media_player", "next", "media_next_track"},
    Override{"media_player", "previous", "media_previous_track"},
    Override{"media_player", "set", "volume_set"},
    Override{"alarm_control_panel", "arm_home", "alarm_arm_home"},
    Override{"alarm_control_panel", "arm_away", "alarm_arm_away"},
    Override{"alarm_control_panel", "arm_night", "alarm_arm_night"},
    Override{"alarm_control_panel", "arm_vacation", "alarm_arm_vacation"},
    Override{"alarm_control_panel", "disarm", "alarm_disarm"},
    Override{"vacuum", "dock", "return_to_base"},
    Override{"scene", "on", "turn_on"},
    Override{"automation", "run", "trigger"},
    Override{"", "on", "turn_on"},
    Override{"", "off", "turn_off"},
    Override{"", "open", "turn_on"},
    Override{"", "close", "turn_off"},
};

constexpr std::array<std::string_view, 4> kHvacModes{"heat", "cool", "auto", "heat_cool"};

}  // namespace

ResolvedAction resolve_action(std::string_view domain, std::string_view action) {
  ResolvedAction out;
  if (domain == "climate")
    for (std::string_view mode : kHvacModes)
      if (action == mode) {
        out.service = "set_hvac_mode";
        out.extra_data.emplace("hvac_mode", mode);
        return out;
      }
  for (const Override& o : kOverrides)
    if (o.action == action && o.domain == domain) {
      out.service = o.service;
      return out;
    }
  for (const Override& o : kOverrides)
    if (o.action == action && o.domain.empty()) {
      out.service = o.service;
      return out;
    }
  out.service = action;
  return out;
}

}  // namespace hamcp::tools
