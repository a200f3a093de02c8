// Actions of covers, locks, climate devices, media players, vacuums and weather (updates: services_updates.cpp).
#include "sim/core/domain_logic.hpp"
#include "sim/core/service_spec.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim::svc {

namespace {

void cover_set(Run& r, const StoredState& s, int position) {
  json::object a = s.attributes;
  if (a.contains("current_position")) a["current_position"] = position;
  r.set(s, position > 0 ? "open" : "closed", std::move(a));
}

void media_state(Run& r, const StoredState& s, const std::string& state) {
  json::object a = s.attributes;
  if (state == "off") {
    for (const char* k : {"volume_level", "is_volume_muted", "media_title", "media_artist", "media_album_name",
                          "media_duration", "media_position", "media_content_type", "source"})
      a.erase(k);
  } else if (!a.contains("volume_level")) {
    a["volume_level"] = 0.2;
    a["is_volume_muted"] = false;
  }
  r.set(s, state, std::move(a));
}

void climate_apply(Run& r, const StoredState& s, json::object a, std::string mode) {
  double current = attr_num(a, "current_temperature", 20), target = attr_num(a, "temperature", 20);
  if (a.contains("hvac_action")) {
    if (mode == "off")
      a["hvac_action"] = "off";
    else if (mode == "cool")
      a["hvac_action"] = current > target ? "cooling" : "idle";
    else
      a["hvac_action"] = current < target ? "heating" : "idle";
  }
  r.set(s, std::move(mode), std::move(a));
}

void add_covers_and_locks(Services::Impl& impl) {
  impl.add(entity_spec(
      "cover", "open_cover", "Opens a cover.", {},
      [](Run& r, const StoredState& s, const json::object&) { cover_set(r, s, 100); }, 1));
  impl.add(entity_spec(
      "cover", "close_cover", "Closes a cover.", {},
      [](Run& r, const StoredState& s, const json::object&) { cover_set(r, s, 0); }, 2));
  impl.add(entity_spec(
      "cover", "stop_cover", "Stops the cover movement.", {},
      [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }, 8));
  impl.add(entity_spec(
      "cover", "toggle", "Toggles a cover open/closed.", {},
      [](Run& r, const StoredState& s, const json::object&) { cover_set(r, s, s.state == "closed" ? 100 : 0); }, 3));
  impl.add(entity_spec(
      "cover", "set_cover_position", "Moves a cover to a specific position.",
      {fint("position", 0, 100, "Target position.", true)},
      [](Run& r, const StoredState& s, const json::object& d) {
        cover_set(r, s, saturate_cast<int>(num(d.at("position"))));
      },
      4));

  // lock
  impl.add(entity_spec("lock", "lock", "Locks a lock.", {fstr("code", "Code used to lock the lock.")},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, "locked", s.attributes); }));
  impl.add(entity_spec("lock", "unlock", "Unlocks a lock.", {fstr("code", "Code used to unlock the lock.")},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, "unlocked", s.attributes); }));
  impl.add(entity_spec(
      "lock", "open", "Opens a lock.", {fstr("code", "Code used to open the lock.")},
      [](Run& r, const StoredState& s, const json::object&) { r.set(s, "open", s.attributes); }, 1));
}

void add_climate(Services::Impl& impl) {
  impl.add(entity_spec(
      "climate", "set_temperature", "Sets the temperature setpoint.",
      {ffloat("temperature", 0, 250, "The temperature setpoint."),
       ffloat("target_temp_high", 0, 250, "The max temperature setpoint."),
       ffloat("target_temp_low", 0, 250, "The min temperature setpoint."), fstr("hvac_mode", "HVAC operation mode.")},
      [](Run& r, const StoredState& s, const json::object& d) {
        json::object a = s.attributes;
        std::string mode = s.state;
        if (auto* v = d.if_contains("hvac_mode")) {
          mode = std::string(v->get_string());
          check_option(s, mode, "hvac_modes");
        }
        if (auto* v = d.if_contains("temperature")) {
          double t = num(*v), lo = attr_num(a, "min_temp", 7), hi = attr_num(a, "max_temp", 35);
          if (t < lo || t > hi)
            throw validation("Provided temperature " + fmt_num(t) + " is not valid. Accepted range is " + fmt_num(lo) +
                                 " to " + fmt_num(hi) + ".",
                             "temp_out_of_range");
          a["temperature"] = t;
        } else if (!d.contains("target_temp_high") && !d.contains("target_temp_low")) {
          throw invalid("must contain at least one of temperature, target_temp_high, target_temp_low.");
        }
        climate_apply(r, s, std::move(a), mode);
      },
      1));
  impl.add(entity_spec(
      "climate", "set_hvac_mode", "Sets HVAC operation mode.", {fstr("hvac_mode", "HVAC operation mode.", true)},
      [](Run& r, const StoredState& s, const json::object& d) {
        std::string mode(d.at("hvac_mode").get_string());
        const auto* modes = s.attributes.if_contains("hvac_modes");
        bool ok = false;
        std::string all;
        if (modes && modes->is_array())
          for (const auto& m : modes->get_array()) {
            ok |= m.get_string() == mode;
            all += (all.empty() ? "" : ", ") + std::string(m.get_string());
          }
        if (!ok)
          throw validation("HVAC mode " + mode + " is not valid. Valid HVAC modes are: " + all, "not_valid_hvac_mode");
        climate_apply(r, s, s.attributes, mode);
      }));
  impl.add(entity_spec(
      "climate", "set_preset_mode", "Sets preset mode.", {fstr("preset_mode", "Preset mode.", true)},
      [](Run& r, const StoredState& s, const json::object& d) {
        std::string mode(d.at("preset_mode").get_string());
        check_option(s, mode, "preset_modes");
        json::object a = s.attributes;
        a["preset_mode"] = mode;
        r.set_attrs(s, a);
      },
      16));
  impl.add(entity_spec(
      "climate", "turn_on", "Turns climate device on.", {},
      [](Run& r, const StoredState& s, const json::object&) { climate_apply(r, s, s.attributes, "heat"); }));
  impl.add(
      entity_spec("climate", "turn_off", "Turns climate device off.", {},
                  [](Run& r, const StoredState& s, const json::object&) { climate_apply(r, s, s.attributes, "off"); }));
  impl.add(entity_spec("climate", "toggle", "Toggles climate device, from on to off, or off to on.", {},
                       [](Run& r, const StoredState& s, const json::object&) {
                         climate_apply(r, s, s.attributes, s.state == "off" ? "heat" : "off");
                       }));
}

void add_media_players(Services::Impl& impl) {
  impl.add(entity_spec("media_player", "turn_on", "Turns on the power of the media player.", {},
                       [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "on"); }));
  impl.add(entity_spec("media_player", "turn_off", "Turns off the power of the media player.", {},
                       [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "off"); }));
  impl.add(entity_spec(
      "media_player", "toggle", "Toggles a media player on/off.", {},
      [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, s.state == "off" ? "on" : "off"); }));
  impl.add(entity_spec("media_player", "media_play", "Starts playing.", {},
                       [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "playing"); }));
  impl.add(entity_spec("media_player", "media_pause", "Pauses.", {},
                       [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "paused"); }));
  impl.add(entity_spec("media_player", "media_stop", "Stops playing.", {},
                       [](Run& r, const StoredState& s, const json::object&) { media_state(r, s, "idle"); }));
  impl.add(entity_spec("media_player", "media_play_pause", "Toggles play/pause.", {},
                       [](Run& r, const StoredState& s, const json::object&) {
                         media_state(r, s, s.state == "playing" ? "paused" : "playing");
                       }));
  impl.add(entity_spec("media_player", "media_next_track", "Selects the next track.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }));
  impl.add(entity_spec("media_player", "media_previous_track", "Selects the previous track.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }));
  impl.add(entity_spec("media_player", "volume_set", "Sets the volume level.",
                       {ffloat("volume_level", 0, 1, "The volume. 0 is inaudible, 1 is the maximum volume.", true)},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         json::object a = s.attributes;
                         a["volume_level"] = num(d.at("volume_level"));
                         r.set_attrs(s, a);
                       }));
  impl.add(entity_spec("media_player", "volume_mute", "Mutes or unmutes the media player.",
                       {fbool("is_volume_muted", "Defines whether or not it is muted.", true)},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         json::object a = s.attributes;
                         a["is_volume_muted"] = d.at("is_volume_muted");
                         r.set_attrs(s, a);
                       }));
  impl.add(entity_spec("media_player", "volume_up", "Turns up the volume.", {},
                       [](Run& r, const StoredState& s, const json::object&) {
                         json::object a = s.attributes;
                         a["volume_level"] = round_to(std::min(1.0, attr_num(a, "volume_level", 0.2) + 0.05), 2);
                         r.set_attrs(s, a);
                       }));
  impl.add(entity_spec("media_player", "volume_down", "Turns down the volume.", {},
                       [](Run& r, const StoredState& s, const json::object&) {
                         json::object a = s.attributes;
                         a["volume_level"] = round_to(std::max(0.0, attr_num(a, "volume_level", 0.2) - 0.05), 2);
                         r.set_attrs(s, a);
                       }));
  impl.add(entity_spec("media_player", "select_source", "Sends the media player the command to change input source.",
                       {fstr("source", "Name of the source to switch to.", true)},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         std::string src(d.at("source").get_string());
                         check_option(s, src, "source_list");
                         json::object a = s.attributes;
                         a["source"] = src;
                         r.set_attrs(s, a);
                       }));
  impl.add(entity_spec("media_player", "play_media", "Starts playing specified media.",
                       {fstr("media_content_id", "The ID of the content to play.", true),
                        fstr("media_content_type", "The type of the content to play.", true),
                        fstr("enqueue", "If the content should be played now or be added to the queue."),
                        fbool("announce", "If the media should be played as an announcement.")},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         json::object a = s.attributes;
                         a["media_content_id"] = d.at("media_content_id");
                         a["media_content_type"] = d.at("media_content_type");
                         a["media_title"] = d.at("media_content_id");
                         if (!a.contains("volume_level")) a["volume_level"] = 0.2;
                         r.set(s, "playing", std::move(a));
                       }));
}

void add_vacuums_weather(Services::Impl& impl) {
  impl.add(entity_spec("vacuum", "start", "Starts or resumes the cleaning task.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, "cleaning", s.attributes); }));
  impl.add(entity_spec("vacuum", "pause", "Pauses the cleaning task.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, "paused", s.attributes); }));
  impl.add(entity_spec("vacuum", "stop", "Stops the current cleaning task.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, "idle", s.attributes); }));
  impl.add(entity_spec("vacuum", "return_to_base", "Tells the vacuum cleaner to return to its dock.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, "returning", s.attributes); }));
  impl.add(entity_spec("vacuum", "locate", "Locates the vacuum cleaner robot.", {},
                       [](Run& r, const StoredState& s, const json::object&) { r.set(s, s.state, s.attributes); }));
  impl.add(entity_spec("vacuum", "set_fan_speed", "Sets the fan speed of the vacuum cleaner.",
                       {fstr("fan_speed", "Fan speed.", true)},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         std::string f(d.at("fan_speed").get_string());
                         check_option(s, f, "fan_speed_list");
                         json::object a = s.attributes;
                         a["fan_speed"] = f;
                         r.set_attrs(s, a);
                       }));
  // weather (response only)
  {
    Spec s = entity_spec("weather", "get_forecasts", "Get weather forecasts.",
                         {fstr("type", "Forecast type: daily, hourly or twice daily.", true)},
                         [](Run&, const StoredState&, const json::object&) {});
    s.response = ResponseSupport::only;
    impl.add(std::move(s));
  }
}

}  // namespace

void add_device_services(Services::Impl& impl) {
  add_covers_and_locks(impl);
  add_climate(impl);
  add_media_players(impl);
  add_vacuums_weather(impl);
}

}  // namespace hamcp::sim::svc
