// Device kinds, part 2: media players, vacuums, cameras, safety sensors and
// appliances (see device_kinds.cpp).
#include <cstdio>

#include "sim/core/domain_logic.hpp"
#include "sim/core/time_util.hpp"
#include "sim/home/device_parts.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

using namespace parts;

namespace {
void media(HomeBuilder& b, const Room& r, const KindOptions& o, bool tv) {
  std::string platform;
  std::string dev = tv ? make_device(b, r, o,
                                     {{"Samsung", "QE55Q80B", "samsungtv", "T-PTMDEUC-1560.1"},
                                      {"LG Electronics", "OLED55C24LA", "webostv", "23.20.57"},
                                      {"Sony", "KD-55X85K", "braviatv", "PKG6.7360.0224EUA"}},
                                     {"TV", "Television"}, {"Fernseher"}, platform)
                       : make_device(b, r, o,
                                     {{"Sonos", "One SL", "sonos", "80.1-55014"},
                                      {"Sonos", "Era 100", "sonos", "80.1-55014"},
                                      {"Google Inc.", "Google Nest Mini", "cast", "1.56.375318"},
                                      {"Apple", "HomePod mini", "apple_tv", "18.2"}},
                                     {"Speaker", "Sonos", "Smart Speaker"}, {"Lautsprecher"}, platform);
  bool playing = o.on || b.rng().chance(0.3);
  json::object a;
  std::string state;
  if (tv) {
    a = {{"source_list", arr({"TV", "HDMI 1", "HDMI 2", "Netflix", "YouTube", "Spotify"})},
         {"supported_features", 24509}};
    if (playing) {
      a["volume_level"] = 0.18;
      a["is_volume_muted"] = false;
      a["source"] = "Netflix";
      a["media_content_type"] = "tvshow";
      a["media_title"] = "The Great British Bake Off";
      state = "playing";
    } else {
      state = "off";
    }
  } else {
    a = {{"source_list", arr({"Line-in", "TV", "Spotify", "Radio"})},
         {"group_members", json::array{}},
         {"volume_level", round_to(b.rng().uniform(0.1, 0.6), 2)},
         {"is_volume_muted", false},
         {"media_content_type", "music"},
         {"repeat", "off"},
         {"shuffle", false},
         {"supported_features", 4127295}};
    if (playing) {
      a["media_title"] = "Clair de Lune";
      a["media_artist"] = "Claude Debussy";
      a["media_album_name"] = "Suite bergamasque";
      a["media_duration"] = 301;
      a["media_position"] = 42;
      a["source"] = "Spotify";
      state = "playing";
    } else {
      state = b.rng().chance(0.5) ? "paused" : "idle";
    }
  }
  auto s = spec("media_player", dev, platform, std::nullopt, state, std::move(a));
  s.device_class = tv ? "tv" : "speaker";
  apply_main(s, o);
  b.add_entity(std::move(s));
}
}  // namespace

void kind_tv(HomeBuilder& b, const Room& r, const KindOptions& o) { media(b, r, o, true); }
void kind_speaker(HomeBuilder& b, const Room& r, const KindOptions& o) { media(b, r, o, false); }

void kind_vacuum(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Roborock", "S7 MaxV", "roborock", "02.16.04"},
                                 {"iRobot", "Roomba j7+", "roomba", "22.29.6"},
                                 {"Ecovacs", "DEEBOT T8 AIVI", "ecovacs", "1.6.4"}},
                                {"Vacuum", "Robot Vacuum"}, {"Staubsauger", "Saugroboter"}, platform);
  json::object a{{"fan_speed_list", arr({"quiet", "balanced", "turbo", "max"})},
                 {"battery_level", 100},
                 {"battery_icon", "mdi:battery-charging-100"},
                 {"fan_speed", "balanced"},
                 {"supported_features", 13948}};
  auto s = spec("vacuum", dev, platform, std::nullopt, o.on ? "cleaning" : "docked", std::move(a));
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "Cleaning area", num(b.rng().uniform(20, 80), 1), "area", "m²", "");
  auto btn = spec("button", dev, platform, "Reset main brush consumable", "unknown", {});
  btn.entity_category = "config";
  b.add_entity(std::move(btn));
}

void kind_camera(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Reolink", "RLC-810A", "reolink", "v3.1.0.2368_23062700"},
                                 {"Ubiquiti Inc.", "UVC G4 Bullet", "unifiprotect", "4.69.55"},
                                 {"Amcrest", "IP8M-2496EW", "amcrest", "2.800.0000000.9.R"}},
                                {"Camera", "Cam"}, {"Kamera"}, platform);
  std::string token = b.hex_id() + b.hex_id();
  json::object a{{"access_token", token},
                 {"frontend_stream_type", "hls"},
                 {"brand", b.device(dev)->manufacturer},
                 {"model_name", b.device(dev)->model},
                 {"supported_features", 2}};
  auto s = spec("camera", dev, platform, std::nullopt, "idle", std::move(a));
  apply_main(s, o);
  std::string eid = b.add_entity(std::move(s));
  // entity_picture carries the final entity id, known only now
  for (auto it = b.home().states.rbegin(); it != b.home().states.rend(); ++it)
    if (it->entity_id == eid) {
      it->attributes["entity_picture"] = "/api/camera_proxy/" + eid + "?token=" + token;
      break;
    }
  auto motion = spec("binary_sensor", dev, platform, "Person", "off", {});
  motion.device_class = "occupancy";
  b.add_entity(std::move(motion));
}

void kind_smoke_detector(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"HEIMAN", "SmokeSensor-EF-3.0", "zha", "1.0.0"},
                                 {"Google", "Nest Protect", "nest", "3.1rc9"},
                                 {"Aqara", "Smart Smoke Detector", "zha", "0.0.0_0023"}},
                                {"Smoke Detector", "Smoke Alarm"}, {"Rauchmelder"}, platform);
  auto s = spec("binary_sensor", dev, platform, "Smoke", "off", {});
  s.device_class = "smoke";
  apply_main(s, o);
  b.add_entity(std::move(s));
  battery(b, dev, platform);
}

void kind_leak_sensor(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(
      b, r, o, {{"Aqara", "Water Leak Sensor", "zha", "0.0.0_0019"}, {"Sonoff", "SNZB-05P", "zha", "1.0.0"}},
      {"Leak Sensor", "Water Sensor"}, {"Wassermelder"}, platform);
  auto s = spec("binary_sensor", dev, platform, "Water leak", "off", {});
  s.device_class = "moisture";
  apply_main(s, o);
  b.add_entity(std::move(s));
  battery(b, dev, platform);
}

void kind_air_purifier(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(b, r, o,
                                {{"Xiaomi", "Mi Air Purifier 3H", "xiaomi_miio", "2.1.7"},
                                 {"IKEA of Sweden", "STARKVIND Air purifier", "zha", "1.0.033"},
                                 {"Philips", "AC2889/10", "philips_airpurifier", "1.0.7"}},
                                {"Air Purifier"}, {"Luftreiniger"}, platform);
  bool on = o.on || b.rng().chance(0.5);
  json::object a{{"preset_modes", arr({"Auto", "Silent", "Favorite"})},
                 {"percentage", on ? 40 : 0},
                 {"percentage_step", 20.0},
                 {"preset_mode", on ? json::value("Auto") : json::value(nullptr)},
                 {"supported_features", 57}};
  auto s = spec("fan", dev, platform, std::nullopt, on ? "on" : "off", std::move(a));
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "PM2.5", std::to_string(3 + b.rng().below(30)), "pm25", "µg/m³", "measurement");
  auto sel = spec("select", dev, platform, "LED brightness", "Bright", {{"options", arr({"Bright", "Dim", "Off"})}});
  sel.entity_category = "config";
  b.add_entity(std::move(sel));
  auto n =
      spec("number", dev, platform, "Favorite level", "10", {{"min", 0}, {"max", 17}, {"step", 1}, {"mode", "auto"}});
  n.entity_category = "config";
  b.add_entity(std::move(n));
}

void kind_energy_meter(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev = make_device(
      b, r, o, {{"Shelly", "Shelly Pro 3EM", "shelly", "1.4.4"}, {"HomeWizard", "P1 Meter", "homewizard", "5.18"}},
      {"Energy Meter", "Power Meter"}, {"Stromzähler"}, platform);
  std::string p = sensor(b, dev, platform, "Power", num(b.rng().uniform(150, 3500), 1), "power", "W", "measurement");
  if (!o.aliases.empty()) b.home().entities.back().aliases = o.aliases;
  sensor(b, dev, platform, "Energy import", num(b.rng().uniform(1000, 20000), 3), "energy", "kWh", "total_increasing");
  sensor(b, dev, platform, "Energy export", num(b.rng().uniform(0, 5000), 3), "energy", "kWh", "total_increasing");
  sensor(b, dev, platform, "Voltage", num(b.rng().uniform(228, 236), 1), "voltage", "V", "measurement");
}

void kind_washing_machine(HomeBuilder& b, const Room& r, const KindOptions& o) {
  std::string platform;
  std::string dev =
      make_device(b, r, o, {{"Bosch", "WAX32M41", "home_connect", nullptr}, {"Miele", "WCR 870 WPS", "miele", nullptr}},
                  {"Washing Machine", "Washer", "Dryer"}, {"Waschmaschine", "Trockner"}, platform);
  bool running = o.on || b.rng().chance(0.2);
  auto s = spec("sensor", dev, platform, "Operation state", running ? "run" : "ready",
                {{"options", arr({"inactive", "ready", "delayedstart", "run", "pause", "finished", "error"})}});
  s.device_class = "enum";
  apply_main(s, o);
  b.add_entity(std::move(s));
  sensor(b, dev, platform, "Remaining program time", running ? iso_time(kHomeEpoch + 3000) : "unknown", "timestamp", "",
         "");
  auto sw = spec("switch", dev, platform, "Power", "on", {});
  b.add_entity(std::move(sw));
}

}  // namespace hamcp::sim
