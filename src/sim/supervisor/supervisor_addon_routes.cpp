// /addons/...: installed add-ons, one add-on's info, stats, options and
// lifecycle (supervisor/api/apps.py + the install/update aliases of store.py).
#include <algorithm>

#include "sim/supervisor/addon_options.hpp"
#include "sim/supervisor/supervisor_api.hpp"
#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim::supervisor_detail {
namespace {

json::object list_item(const SimAddon& a) {
  return {{"name", a.name},
          {"slug", a.slug},
          {"description", a.description},
          {"advanced", false},
          {"stage", "stable"},
          {"version", a.version},
          {"version_latest", a.version_latest},
          {"update_available", a.version != a.version_latest},
          {"available", true},
          {"detached", false},
          {"homeassistant", nullptr},
          {"state", a.state},
          {"repository", a.repository},
          {"build", false},
          {"url", a.url},
          {"icon", true},
          {"logo", true},
          {"system_managed", false}};
}

json::object info(const SimAddon& a) {
  json::object o = list_item(a);
  o.erase("advanced");
  for (auto&& [k, v] : json::object{
           {"hostname", a.hostname},
           {"dns", json::array{a.hostname + ".local.hass.io"}},
           {"long_description", "# " + a.name + "\n\n" + a.description},
           {"protected", true},
           {"rating", 6},
           {"boot_config", "auto"},
           {"boot", a.boot},
           {"options", a.options},
           {"schema", json::array{}},
           {"arch", json::array{"aarch64", "amd64"}},
           {"machine", json::array{}},
           {"network", a.network.empty() ? json::value(nullptr) : json::value(a.network)},
           {"network_description",
            a.network_description.empty() ? json::value(nullptr) : json::value(a.network_description)},
           {"host_network", false},
           {"privileged", json::array{}},
           {"full_access", false},
           {"apparmor", "default"},
           {"changelog", true},
           {"documentation", true},
           {"stdin", false},
           {"hassio_api", false},
           {"hassio_role", "default"},
           {"auth_api", false},
           {"homeassistant_api", false},
           {"startup", "services"},
           {"services", json::array{}},
           {"discovery", json::array{}},
           {"translations", json::object{}},
           {"ingress", a.ingress},
           {"signed", false},
           {"webui", nullptr},
           {"ingress_entry", a.ingress ? json::value("/api/hassio_ingress/" + a.slug) : json::value(nullptr)},
           {"ingress_url", a.ingress ? json::value("/api/hassio_ingress/" + a.slug + "/") : json::value(nullptr)},
           {"ingress_port", a.ingress_port},
           {"ingress_panel", a.ingress},
           {"audio_input", nullptr},
           {"audio_output", nullptr},
           {"auto_update", a.auto_update},
           {"ip_address", "172.30.33.2"},
           {"watchdog", a.watchdog},
           {"devices", json::array{}},
           {"system_managed_config_entry", nullptr}})
    o[k] = v;
  return o;
}

json::object stats(const SimAddon& a) {
  const bool running = a.state == "started";
  const double memory = running ? 41.5e6 + static_cast<double>(a.slug.size()) * 1.0e6 : 0;
  return {{"cpu_percent", running ? 0.84 : 0.0},
          {"memory_usage", memory},
          {"memory_limit", 8.2e9},
          {"memory_percent", memory / 8.2e9 * 100},
          {"network_rx", running ? 1.9e6 : 0.0},
          {"network_tx", running ? 2.4e6 : 0.0},
          {"blk_read", 12.0e6},
          {"blk_write", running ? 3.1e6 : 0.0}};
}

RestResponse set_options(SimAddon& a, const json::object& body) {
  if (const json::value* boot = body.if_contains("boot");
      boot && (!boot->is_string() || (boot->get_string() != "auto" && boot->get_string() != "manual")))
    return error(400, "value must be one of ['auto', 'manual'] for dictionary value @ data['boot']. Got " +
                          json::serialize(*boot));
  json::object options = a.options;
  if (const json::value* o = body.if_contains("options"); o && !o->is_null()) {
    if (!o->is_object()) return error(400, "expected dict for dictionary value @ data['options']");
    auto checked = validate_addon_options(a.schema, o->get_object(), a.name, a.slug);
    if (auto* bad = std::get_if<OptionsInvalid>(&checked))
      return error(400, "Add-on " + a.slug + " has invalid options: " + bad->message);
    options = std::get<json::object>(std::move(checked));
  }
  if (const json::value* n = body.if_contains("network"); n && n->is_object())
    for (const auto& [port, host] : n->get_object()) {
      if (!a.network.contains(port)) return error(400, "Invalid port " + std::string(port) + " for add-on " + a.slug);
      if (!host.is_null() && !host.is_int64()) return error(400, "expected int for dictionary value @ data['network']");
    }
  // Validation passed: apply everything (the Supervisor never half-applies).
  a.options = std::move(options);
  if (const json::value* boot = body.if_contains("boot")) a.boot = std::string(boot->as_string());
  if (const json::value* v = body.if_contains("auto_update"); v && v->is_bool()) a.auto_update = v->get_bool();
  if (const json::value* v = body.if_contains("watchdog"); v && v->is_bool()) a.watchdog = v->get_bool();
  if (const json::value* n = body.if_contains("network"); n && n->is_object())
    for (const auto& [port, host] : n->get_object()) a.network[port] = host;
  return ok();
}

RestResponse validate_options(SimAddon& a, const json::object& body) {
  auto checked = validate_addon_options(a.schema, body.empty() ? a.options : body, a.name, a.slug);
  const auto* bad = std::get_if<OptionsInvalid>(&checked);
  return ok(json::object{{"message", bad ? bad->message : ""}, {"valid", bad == nullptr}, {"pwned", false}});
}

RestResponse lifecycle(SimAddon& a, std::string_view action) {
  if (action == "start" || action == "restart") {
    a.state = "started";
    a.log.push_back("[sim] INFO: " + std::string(action == "start" ? "Starting" : "Restarting") + " " + a.name);
  } else if (action == "stop") {
    a.state = "stopped";
    a.log.push_back("[sim] INFO: Stopped " + a.name);
  } else if (action == "rebuild") {
    return error(400, "Only local build add-ons can be rebuilt");
  } else if (action == "uninstall") {
    a.version.clear();
    a.state = "unknown";
  }
  return ok();
}

bool flag(const json::object& body, const char* key) {
  const json::value* v = body.if_contains(key);
  return v && v->is_bool() && v->get_bool();
}

// AddonManager.update: with backup, a partial backup of the add-on
// ("addon_<slug>_<version before>", no Home Assistant, no folders) is made
// first as its child job; when the backup manager's job group is busy (a
// backup or restore running) that backup raises BackupJobError, which ends the
// update with that error and nothing updated. A backup that fails while it
// is written (SupervisorData::backup_fault) returns no backup, and the update
// goes ahead all the same: do_backup_partial's result is not checked.
RestResponse update(SupervisorData& d, SimAddon& a, const json::object& body, bool in_background) {
  if (a.version == a.version_latest) return error(400, "No update available for add-on " + a.slug);
  std::string backup;
  SimBackup content;
  if (flag(body, "backup")) {
    if (backup_running(d)) {
      const std::string message = "Another job is running for job group backup_manager";
      d.log.push_back("[sim] WARNING (MainThread) [supervisor.jobs] " + message);
      if (!in_background) return error(400, message);
      const std::string uuid = start_job(d, "addon_manager_update", a.slug, 100);
      SimJob& job = d.jobs[uuid];
      job.progress = 0;
      job.errors.push_back(json::object{{"type", "BackupJobError"},
                                        {"message", message},
                                        {"stage", nullptr},
                                        {"error_key", nullptr},
                                        {"extra_fields", nullptr}});
      return job_answer(uuid);
    }
    SimBackup b;
    b.name = "addon_" + a.slug + "_" + a.version;
    b.type = "partial";
    b.homeassistant = false;
    b.addons = {a.slug};
    content = b;
    backup = add_backup(d, std::move(b));
  }
  a.version = a.version_latest;  // a backup that failed being written does not stop the update (AddonManager.update)
  if (!in_background) return ok();
  const std::string uuid = start_job(d, "addon_manager_update", a.slug, 25);
  SimJob& job = d.jobs[uuid];
  job.backup = backup;
  job.content = std::move(content);
  job.fault = d.backup_fault;
  return job_answer(uuid);
}

RestResponse addon_action(RestCall& c, SupervisorData& d, const std::string& action) {
  SimAddon* a = find_addon(d, c.path[0]);
  if (!a) return error(404, "Addon " + c.path[0] + " does not exist");
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (!body) return error(400, "Invalid JSON body");
  // store.py: install/update with background=true answer {"job_id"} at once.
  const bool in_background = flag(*body, "background");
  if (action == "install") {
    if (a->installed()) return error(400, "Add-on " + a->slug + " is already installed");
    a->version = a->version_latest;
    a->state = "stopped";
    if (in_background) return job_answer(start_job(d, "addon_manager_install", a->slug, 25));
    return ok();
  }
  if (!a->installed()) return error(400, "Add-on is not installed");
  if (action == "options") return set_options(*a, *body);
  if (action == "options/validate") return validate_options(*a, *body);
  if (action == "update") return update(d, *a, *body, in_background);
  return lifecycle(*a, action);
}

RestResponse installed_addon_get(RestCall& c, SupervisorData& d, std::string_view what) {
  SimAddon* a = find_addon(d, c.path[0]);
  if (!a) return error(404, "Addon " + c.path[0] + " does not exist");
  if (!a->installed()) return error(400, "Add-on is not installed");
  if (what == "info") return ok(info(*a));
  if (what == "stats") return ok(stats(*a));
  return log_text(a->log, c.query);
}

}  // namespace

SimAddon* find_addon(SupervisorData& d, std::string_view slug) {
  auto it = std::find_if(d.addons.begin(), d.addons.end(), [&](const SimAddon& a) { return a.slug == slug; });
  return it == d.addons.end() ? nullptr : &*it;
}

json::object store_item(const SimAddon& a) {
  json::object o = list_item(a);
  o.erase("state");
  o.erase("detached");
  o.erase("system_managed");
  o["installed"] = a.installed();
  o["documentation"] = true;
  o["arch"] = json::array{"aarch64", "amd64"};
  o["update_available"] = a.installed() && a.version != a.version_latest;
  o["version"] = a.installed() ? json::value(a.version) : json::value(nullptr);
  return o;
}

void add_addon_routes(RestRouter& r) {
  r.add("GET", "/addons", guarded([](RestCall&, SupervisorData& d) {
          json::array list;
          for (const auto& a : d.addons)
            if (a.installed()) list.push_back(list_item(a));
          return ok(json::object{{"addons", std::move(list)}});
        }));
  for (const char* what : {"info", "stats", "logs"})
    r.add("GET", std::string("/addons/{slug}/") + what,
          guarded([what](RestCall& c, SupervisorData& d) { return installed_addon_get(c, d, what); }));
  for (const char* action :
       {"start", "stop", "restart", "rebuild", "update", "install", "uninstall", "options", "options/validate"})
    r.add("POST", std::string("/addons/{slug}/") + action,
          guarded([action](RestCall& c, SupervisorData& d) { return addon_action(c, d, action); }));
  for (const char* action : {"install", "update"})
    r.add("POST", std::string("/store/addons/{slug}/") + action,
          guarded([action](RestCall& c, SupervisorData& d) { return addon_action(c, d, action); }));
}

}  // namespace hamcp::sim::supervisor_detail
