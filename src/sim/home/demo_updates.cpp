// The demo home's update entities and HACS: the Supervisor's updates (OS,
// Supervisor, an add-on with a backup option; the core update comes from
// add_home_singletons), device firmware with release notes, one installing
// now, one skipped, and HACS (its config entry, a small store and the
// update entity of an installed card).
#include "sim/core/update_progress.hpp"
#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

namespace {

struct DemoUpdate {
  std::string device;  // device name ("" = none)
  std::string manufacturer, model, platform;
  std::string name;  // entity name part ("Update", "Firmware")
  std::string installed, latest;
  int features = kUpdateInstall;
  bool firmware = false;
  std::string title, summary, url;
  json::value skipped = nullptr;
  json::value in_progress = false;
  json::value percentage = nullptr;
};

DemoUpdate make(std::string device, std::string manufacturer, std::string model, std::string platform, std::string name,
                std::string installed, std::string latest, int features) {
  DemoUpdate u;
  u.device = std::move(device);
  u.manufacturer = std::move(manufacturer);
  u.model = std::move(model);
  u.platform = std::move(platform);
  u.name = std::move(name);
  u.installed = std::move(installed);
  u.latest = std::move(latest);
  u.features = features;
  return u;
}

std::string add_update(HomeBuilder& b, const DemoUpdate& u, std::optional<std::string> entry_type = {}) {
  DeviceSpec d;
  d.name = u.device;
  d.manufacturer = u.manufacturer;
  d.model = u.model;
  d.platform = u.platform;
  d.entry_type = std::move(entry_type);
  d.sw_version = u.installed;
  const std::string dev = b.add_device(std::move(d));
  EntitySpec s;
  s.domain = "update";
  s.device_id = dev;
  s.platform = u.platform;
  s.original_name = u.name;
  const bool newer = u.latest != u.installed && json::value(u.latest) != u.skipped;
  s.state = newer ? "on" : "off";
  s.attributes = {{"auto_update", false},
                  {"display_precision", 0},
                  {"installed_version", u.installed},
                  {"in_progress", u.in_progress},
                  {"latest_version", u.latest},
                  {"release_summary", u.summary.empty() ? json::value(nullptr) : json::value(u.summary)},
                  {"release_url", u.url.empty() ? json::value(nullptr) : json::value(u.url)},
                  {"skipped_version", u.skipped},
                  {"title", u.title.empty() ? json::value(nullptr) : json::value(u.title)},
                  {"update_percentage", u.percentage},
                  {"entity_picture", "https://brands.home-assistant.io/_/" + u.platform + "/icon.png"},
                  {"supported_features", u.features}};
  if (u.firmware) {
    s.device_class = "firmware";
    s.entity_category = "config";
  }
  return b.add_entity(std::move(s));
}

void add_supervisor_updates(HomeBuilder& b) {
  DemoUpdate os = make("Home Assistant Operating System", "Home Assistant", "Home Assistant Operating System", "hassio",
                       "Update", "16.3", "17.0", kUpdateInstall | kUpdateSpecificVersion | kUpdateReleaseNotes);
  os.title = "Home Assistant Operating System";
  os.url = "https://github.com/home-assistant/operating-system/releases/tag/17.0";
  const std::string os_id = add_update(b, os, "service");
  b.home().release_notes[os_id] = "## Home Assistant OS 17.0\n\n- Linux 6.12 LTS\n- Faster boot on Raspberry Pi 5\n";
  DemoUpdate sup = make("Home Assistant Supervisor", "Home Assistant", "Home Assistant Supervisor", "hassio", "Update",
                        "2026.01.1", "2026.01.1", kUpdateInstall | kUpdateReleaseNotes);
  sup.title = "Home Assistant Supervisor";
  sup.url = "https://github.com/home-assistant/supervisor/releases/tag/2026.01.1";
  add_update(b, sup, "service");
  DemoUpdate addon = make("Mosquitto broker", "Official apps", "Home Assistant Add-on", "hassio", "Update", "6.5.1",
                          "6.5.2", kUpdateInstall | kUpdateBackup | kUpdateReleaseNotes);
  addon.title = "Mosquitto broker";
  addon.summary = "Security fix for the MQTT 5 authentication plugin.";
  addon.url = "https://github.com/home-assistant/addons/blob/master/mosquitto/CHANGELOG.md";
  const std::string addon_id = add_update(b, addon, "service");
  b.home().release_notes[addon_id] = "## 6.5.2\n\n- Fix a crash of the authentication plugin with MQTT 5 clients\n";
}

void add_firmware_updates(HomeBuilder& b) {
  DemoUpdate garage = make("Garage Door Controller", "Espressif", "ESP32-C3", "esphome", "Firmware", "2025.11.4",
                           "2025.12.0", kUpdateInstall | kUpdateProgress | kUpdateReleaseNotes);
  garage.firmware = true;
  garage.title = "ESPHome";
  garage.summary = "ESPHome 2025.12.0: new API encryption defaults.";
  garage.url = "https://esphome.io/changelog/2025.12.0.html";
  const std::string garage_id = add_update(b, garage);
  b.home().release_notes[garage_id] =
      "## ESPHome 2025.12.0\n\n- API encryption on by default for new devices\n- Wi-Fi reconnects faster\n";
  DemoUpdate strip = make("Hallway LED Strip", "WLED", "FOSS", "wled", "Firmware", "0.15.0", "0.15.1",
                          kUpdateInstall | kUpdateSpecificVersion | kUpdateProgress);
  strip.firmware = true;
  strip.in_progress = true;
  strip.percentage = 40;  // installing now (stays so: no install was started)
  add_update(b, strip);
  DemoUpdate pump = make("Garden Pump Plug", "Shelly", "Shelly Plug S Gen3", "shelly", "Firmware", "1.4.4",
                         "1.5.0-beta1", kUpdateInstall | kUpdateProgress);
  pump.firmware = true;
  pump.skipped = "1.5.0-beta1";  // a beta the user chose not to install
  add_update(b, pump);
}

json::object repo(std::string id, std::string full_name, std::string category, std::string description,
                  std::string available, json::value installed, int stars, json::array releases) {
  const std::string name = full_name.substr(full_name.find('/') + 1);
  const bool is_installed = !installed.is_null();
  const bool pending = is_installed && installed != json::value(available);
  return json::object{
      {"additional_info", description},
      {"authors", json::array{"@" + full_name.substr(0, full_name.find('/'))}},
      {"available_version", available},
      {"beta", false},
      {"can_download", true},
      {"category", category},
      {"config_flow", category == "integration"},
      {"country", json::array{}},
      {"custom", false},
      {"default_branch", "main"},
      {"description", description},
      {"domain", category == "integration" ? json::value(name) : json::value(nullptr)},
      {"downloads", stars * 12},
      {"file_name", name + (category == "plugin" ? ".js" : "")},
      {"full_name", full_name},
      {"hide", false},
      {"hide_default_branch", false},
      {"homeassistant", "2024.8.0"},
      {"id", id},
      {"installed_version", installed},
      {"installed", is_installed},
      {"issues", stars / 100},
      {"last_updated", "2026-01-20T08:00:00Z"},
      {"local_path", is_installed ? json::value("/config/www/community/" + name) : json::value(nullptr)},
      {"name", name},
      {"new", false},
      {"pending_upgrade", pending},
      {"releases", std::move(releases)},
      {"ref", available},
      {"selected_tag", nullptr},
      {"stars", stars},
      {"state", nullptr},
      {"status", pending ? "pending-upgrade" : (is_installed ? "installed" : "default")},
      {"topics", json::array{"home-assistant", "hacs"}},
      {"version_or_commit", "version"}};
}

void add_hacs(HomeBuilder& b) {
  const std::string entry_id = b.config_entry("hacs");
  b.home().config_entries.push_back(
      json::object{{"entry", flows::entry_json("hacs", "HACS", entry_id, kHomeEpoch)}, {"options", json::object{}}});
  auto& repos = b.home().hacs_repositories;
  repos.push_back(repo("172733314", "hacs/integration", "integration", "HACS gives you a UI to manage custom elements.",
                       "2.0.5", "2.0.5", 6800, json::array{"2.0.5", "2.0.4"}));
  repos.push_back(repo("444350375", "piitaya/lovelace-mushroom", "plugin", "Mushroom cards for Home Assistant.",
                       "4.3.0", "4.2.0", 4300, json::array{"4.3.0", "4.2.0", "4.1.1"}));
  repos.push_back(repo("146194325", "custom-cards/button-card", "plugin", "A Lovelace button card.", "4.1.2", nullptr,
                       2100, json::array{"4.1.2", "4.1.1"}));
  repos.push_back(repo("150715034", "AlexxIT/WebRTC", "integration", "Camera streams with minimal delay.", "3.6.1",
                       nullptr, 1800, json::array{"3.6.1", "3.6.0"}));
  repos.push_back(repo("599937658", "catppuccin/home-assistant", "theme", "Soothing pastel theme.", "2.1.2", nullptr,
                       300, json::array{"2.1.2"}));
  DemoUpdate card = make("Mushroom", "piitaya", "plugin", "hacs", "Update", "4.2.0", "4.3.0",
                         kUpdateInstall | kUpdateSpecificVersion | kUpdateProgress | kUpdateReleaseNotes);
  card.title = "Mushroom";
  card.url = "https://github.com/piitaya/lovelace-mushroom/releases/4.3.0";
  const std::string card_id = add_update(b, card, "service");
  b.home().release_notes[card_id] = "## 4.3.0\n\n- New badge styles\n- Fixes the climate card's slider\n";
  for (auto& e : b.home().entities)
    if (e.entity_id == card_id) e.config_entry_id = entry_id;
}

}  // namespace

void add_demo_updates(HomeBuilder& b) {
  add_supervisor_updates(b);
  add_firmware_updates(b);
  add_hacs(b);
}

}  // namespace hamcp::sim
