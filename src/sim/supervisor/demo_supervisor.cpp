// The demo home's Supervisor: three installed add-ons with real-looking
// options schemas (Mosquitto, Zigbee2MQTT, File editor), three more in the
// store, the official and community repositories, and a few log lines each.
#include "sim/supervisor/supervisor_model.hpp"

namespace hamcp::sim {
namespace {

json::object parse_object(std::string_view text) { return json::parse(text).as_object(); }

SimAddon mosquitto() {
  SimAddon a;
  a.slug = "core_mosquitto";
  a.name = "Mosquitto broker";
  a.description = "An Open Source MQTT broker";
  a.repository = "core";
  a.url = "https://github.com/home-assistant/addons/tree/master/mosquitto";
  a.version = "6.5.1";
  a.version_latest = "6.5.2";
  a.state = "started";
  a.watchdog = true;
  a.hostname = "core-mosquitto";
  a.options = parse_object(
      R"({"logins":[{"username":"zigbee","password":"zb-Secret-42"}],"require_certificate":false,)"
      R"("certfile":"fullchain.pem","keyfile":"privkey.pem","customize":{"active":false,"folder":"mosquitto"}})");
  a.schema = parse_object(R"({"logins":[{"username":"str","password":"password"}],"require_certificate":"bool",)"
                          R"("certfile":"str","keyfile":"str","customize":{"active":"bool","folder":"str"}})");
  a.network = parse_object(R"({"1883/tcp":1883,"1884/tcp":1884,"8883/tcp":8883,"8884/tcp":8884})");
  a.network_description =
      parse_object(R"({"1883/tcp":"Normal MQTT","1884/tcp":"MQTT over WebSocket","8883/tcp":"Normal MQTT with SSL",)"
                   R"("8884/tcp":"MQTT over WebSocket with SSL"})");
  a.log = {"s6-rc: info: service legacy-services successfully started",
           "[17:02:11] INFO: Starting mosquitto MQTT broker...",
           "2026-12-04 03:00:01: mosquitto version 2.0.20 running",
           "2026-12-04 03:00:05: New client connected from 172.30.32.1 as zigbee2mqtt (p2, c1, k60, u'zigbee').",
           "2026-12-04 03:10:44: Client mqtt_explorer disconnected: exceeded timeout."};
  return a;
}

SimAddon zigbee2mqtt() {
  SimAddon a;
  a.slug = "45df7312_zigbee2mqtt";
  a.name = "Zigbee2MQTT";
  a.description = "Use your Zigbee devices without the vendor's bridge or gateway";
  a.repository = "45df7312";
  a.url = "https://github.com/zigbee2mqtt/hassio-zigbee2mqtt";
  a.version = "2.6.3-1";
  a.version_latest = "2.6.3-1";
  a.state = "started";
  a.boot = "auto";
  a.ingress = true;
  a.ingress_port = 8099;
  a.hostname = "45df7312-zigbee2mqtt";
  a.options = parse_object(
      R"({"data_path":"/config/zigbee2mqtt","mqtt":{"server":"mqtt://core-mosquitto:1883","user":"zigbee",)"
      R"("password":"zb-Secret-42"},"serial":{"port":"/dev/ttyUSB0","adapter":"zstack"},"watchdog":"default"})");
  a.schema = parse_object(
      R"({"data_path":"str","mqtt":{"server":"str?","user":"str?","password":"password?"},)"
      R"("serial":{"port":"str?","adapter":"list(zstack|ember|deconz|zigate|zboss)?","baudrate":"int(9600,921600)?"},)"
      R"("watchdog":"str?"})");
  a.network = parse_object(R"({"8485/tcp":null,"8099/tcp":null})");
  a.network_description = parse_object(R"({"8485/tcp":"Socat tcp-listen port","8099/tcp":"Frontend"})");
  a.log = {"[03:00:02] INFO: Preparing to start...", "[03:00:03] INFO: Socat not enabled",
           "[2026-12-04 03:00:09] info: z2m: Logging to console, file (filename: log.log)",
           "[2026-12-04 03:00:12] info: z2m: Connected to MQTT server",
           "[2026-12-04 03:04:31] warning: z2m: Device 'hallway_motion' did not respond to ping"};
  return a;
}

SimAddon file_editor() {
  SimAddon a;
  a.slug = "core_configurator";
  a.name = "File editor";
  a.description = "Simple browser-based file editor for Home Assistant";
  a.repository = "core";
  a.url = "https://github.com/home-assistant/addons/tree/master/configurator";
  a.version = "5.8.0";
  a.version_latest = "5.8.0";
  a.state = "stopped";
  a.boot = "manual";
  a.ingress = true;
  a.ingress_port = 8099;
  a.hostname = "core-configurator";
  a.options = parse_object(R"({"dirsfirst":false,"enforce_basepath":true,"git":true,)"
                           R"("ignore_pattern":["__pycache__",".cloud",".storage","deps"],"ssh_keys":[]})");
  a.schema = parse_object(
      R"({"dirsfirst":"bool","enforce_basepath":"bool","git":"bool","ignore_pattern":["str"],"ssh_keys":["str"]})");
  a.log = {"[02:58:40] INFO: Starting File editor...", "[03:01:12] INFO: Stopped by user"};
  return a;
}

SimAddon store_addon(std::string slug, std::string name, std::string description, std::string repository,
                     std::string version_latest) {
  SimAddon a;
  a.slug = std::move(slug);
  a.name = std::move(name);
  a.description = std::move(description);
  a.repository = std::move(repository);
  a.version_latest = std::move(version_latest);
  a.state = "unknown";
  a.hostname = a.slug;
  for (char& c : a.hostname)
    if (c == '_') c = '-';
  a.options = parse_object(R"({"log_level":"info"})");
  a.schema = parse_object(R"({"log_level":"list(trace|debug|info|warning|error)?"})");
  return a;
}

}  // namespace

SupervisorData demo_supervisor() {
  SupervisorData d;
  d.addons = {mosquitto(),
              zigbee2mqtt(),
              file_editor(),
              store_addon("a0d7b954_nodered", "Node-RED", "Flow-based programming for the Internet of Things",
                          "a0d7b954", "19.0.2"),
              store_addon("core_samba", "Samba share", "Expose Home Assistant folders with SMB/CIFS", "core", "12.5.4"),
              store_addon("core_ssh", "Terminal & SSH", "Allow logging in remotely to Home Assistant using SSH", "core",
                          "9.19.0")};
  d.repositories = {
      {"core", "Official add-ons", "core", "https://home-assistant.io/addons", "Home Assistant"},
      {"local", "Local add-ons", "local", "https://home-assistant.io/hassio", "you"},
      {"a0d7b954", "Home Assistant Community Add-ons", "https://github.com/hassio-addons/repository",
       "https://addons.community", "Franck Nijhof <frenck@addons.community>"},
      {"45df7312", "Home Assistant Add-on: Zigbee2MQTT", "https://github.com/zigbee2mqtt/hassio-zigbee2mqtt",
       "https://github.com/zigbee2mqtt/hassio-zigbee2mqtt", "Koen Kanters"}};
  d.log = {"2026-12-04 03:00:00.101 INFO (MainThread) [supervisor.bootstrap] Initializing Supervisor setup",
           "2026-12-04 03:00:04.512 INFO (MainThread) [supervisor.apps.manager] Phase 'application' starting 2 add-ons",
           "2026-12-04 03:05:21.007 WARNING (MainThread) [supervisor.store.git] Can't fetch repository 45df7312: "
           "timeout",
           "2026-12-04 03:06:00.000 INFO (MainThread) [supervisor.store] Loading add-ons from store: 6 all"};
  d.host_logs["NetworkManager"] = {
      "Dec 04 03:00:01 homeassistant NetworkManager[512]: <info> device (eth0): state change: "
      "activated",
      "Dec 04 03:20:11 homeassistant NetworkManager[512]: <warn> dhcp4 (eth0): request timed out"};
  d.host_logs["kernel"] = {"Dec 04 03:00:00 homeassistant kernel: Linux version 6.12.23-haos",
                           "Dec 04 03:00:02 homeassistant kernel: usb 1-1.3: cp210x converter now attached to ttyUSB0"};
  SimBackup full;
  full.slug = "9f3c1a20";
  full.name = "Full backup 2026-11-20";
  full.date = "2026-11-20T03:00:00.000000+00:00";
  full.size_mb = 182.4;
  full.addons = {"core_mosquitto", "45df7312_zigbee2mqtt", "core_configurator"};
  full.folders = {"addons/local", "media", "share", "ssl"};
  SimBackup partial;
  partial.slug = "b71e44d5";
  partial.name = "Before Zigbee2MQTT update";
  partial.date = "2026-12-02T18:41:07.000000+00:00";
  partial.type = "partial";
  partial.size_mb = 21.7;
  partial.homeassistant = false;
  partial.addons = {"45df7312_zigbee2mqtt"};
  d.backups = {full, partial};
  d.host_logs["systemd"] = {"Dec 04 03:00:03 homeassistant systemd[1]: Started Docker Application Container Engine."};
  return d;
}

}  // namespace hamcp::sim
