#pragma once
// The simulated Supervisor's data (plain data, like home_model.hpp): add-ons
// (installed or only in the store), store repositories, and the text logs the
// Supervisor serves (its own, each add-on's, host services'). Home::supervisor
// is empty on an HA Container/Core install: no Supervisor API at all.

#include <boost/json.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace hamcp::sim {

namespace json = boost::json;

struct SimAddon {
  std::string slug, name, description, repository, url;
  std::string version_latest;
  std::string version;            // "" = not installed (store only)
  std::string state = "stopped";  // started | stopped | error | unknown
  std::string boot = "auto";      // auto | manual
  bool auto_update = false, watchdog = false, ingress = false;
  int ingress_port = 0;
  std::string hostname;
  // The add-on's options and their schema in the Supervisor's config.yaml
  // language ("str", "bool", "int(1,65535)", "port", "password", "list(a|b)",
  // "match(...)", a trailing "?" = optional; [..] lists, {..} nested).
  json::object options, schema;
  json::object network;              // "1883/tcp" -> host port (or null: disabled)
  json::object network_description;  // "1883/tcp" -> text
  std::vector<std::string> log;      // journal lines, oldest first
  bool installed() const { return !version.empty(); }
};

struct SimRepository {
  std::string slug, name, source, url, maintainer;
};

// A Supervisor backup (supervisor/backups/backup.py's listed fields).
struct SimBackup {
  std::string slug, name, date, type = "full";  // type: full | partial
  double size_mb = 0;
  bool is_protected = false, homeassistant = true;
  std::vector<std::string> addons, folders;
};

// A Supervisor job (supervisor/jobs/__init__.py SupervisorJob.as_dict). The
// simulated work is done at once; each GET /jobs/{uuid} advances `progress`
// by `step` until done, so a client polling it sees the job move (a backup's
// or restore's own progress shows 0 until done, as the Supervisor's: only
// its `stage` moves).
struct SimJob {
  std::string uuid, name, reference, stage, created;
  double progress = 0, step = 50;
  bool done = false;
  json::array errors;
  std::string backup;  // addon_manager_update with backup: the partial backup it made first
  // A backup's or restore's content (an update's: its partial backup's); its
  // stages and child jobs follow it. full: a full restore (remove_delta_addons).
  SimBackup content;
  bool full = false;
  std::string fault;  // SupervisorData::backup_fault when the backup started
};

struct SupervisorData {
  std::string version = "2026.02.3";
  std::vector<SimAddon> addons;  // installed and store-only
  std::vector<SimRepository> repositories;
  std::vector<std::string> log;                               // the Supervisor's own journal
  std::map<std::string, std::vector<std::string>> host_logs;  // syslog identifier -> lines
  std::vector<SimBackup> backups;
  std::map<std::string, SimJob> jobs;      // uuid -> job
  int next_id = 1;                         // for job uuids and backup slugs
  std::set<std::string> ingress_sessions;  // valid ingress sessions (POST /ingress/session)
  // Test fault for every backup made while set: "addon_save" (writing an
  // add-on's archive fails: the backup is kept without it), "file" (writing
  // the backup file fails: no backup); "" none.
  std::string backup_fault;
};

// Mosquitto, Zigbee2MQTT and File editor installed; Node-RED, Samba, SSH in the store.
SupervisorData demo_supervisor();

}  // namespace hamcp::sim
