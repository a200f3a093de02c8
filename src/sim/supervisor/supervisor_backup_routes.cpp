// /backups/... of the simulated Supervisor (supervisor/api/backups.py): list,
// info, create full/partial, restore full/partial, delete; `background: true`
// answers {"job_id"} and the job is read at /jobs/{uuid} (supervisor_job_routes.cpp).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "common/iso_time.hpp"
#include "sim/supervisor/supervisor_api.hpp"
#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim::supervisor_detail {
namespace {

const std::set<std::string>& all_folders() {
  static const std::set<std::string> kFolders = {"ssl", "share", "addons/local", "media"};
  return kFolders;
}

json::array strings(const std::vector<std::string>& v) {
  json::array out;
  for (const auto& s : v) out.emplace_back(s);
  return out;
}

json::object list_item(const SimBackup& b) {
  return {{"slug", b.slug},
          {"name", b.name},
          {"date", b.date},
          {"type", b.type},
          {"size", b.size_mb},
          {"size_bytes", static_cast<std::int64_t>(b.size_mb * 1e6)},
          {"location", nullptr},
          {"locations", json::array{nullptr}},
          {"protected", b.is_protected},
          {"location_attributes",
           json::object{{".local", json::object{{"protected", b.is_protected}, {"size_bytes", b.size_mb * 1e6}}}}},
          {"compressed", true},
          {"content",
           json::object{
               {"homeassistant", b.homeassistant}, {"addons", strings(b.addons)}, {"folders", strings(b.folders)}}}};
}

json::object info_of(const SupervisorData& d, const SimBackup& b) {
  json::array addons;
  for (const auto& slug : b.addons)
    for (const auto& a : d.addons)
      if (a.slug == slug)
        addons.push_back(json::object{{"slug", a.slug}, {"name", a.name}, {"version", a.version}, {"size", 12.4}});
  json::object o = list_item(b);
  o.erase("content");
  o["supervisor_version"] = d.version;
  o["homeassistant"] = b.homeassistant ? json::value("2026.2.3") : json::value(nullptr);
  o["addons"] = std::move(addons);
  o["repositories"] = json::array{"core", "local"};
  o["folders"] = strings(b.folders);
  o["homeassistant_exclude_database"] = false;
  o["extra"] = json::object{};
  return o;
}

SimBackup* find_backup(SupervisorData& d, std::string_view slug) {
  auto it = std::find_if(d.backups.begin(), d.backups.end(), [&](const SimBackup& b) { return b.slug == slug; });
  return it == d.backups.end() ? nullptr : &*it;
}

std::optional<std::string> bad_folder(const json::object& body) {
  if (const json::value* f = body.if_contains("folders"); f && f->is_array())
    for (const auto& v : f->get_array())
      if (!v.is_string() || !all_folders().count(std::string(v.get_string())))
        return "value must be one of ['addons/local', 'media', 'share', 'ssl'] @ data['folders'][0]. Got " +
               json::serialize(v);
  return std::nullopt;
}

std::vector<std::string> string_list(const json::object& body, const char* key) {
  std::vector<std::string> out;
  if (const json::value* v = body.if_contains(key); v && v->is_array())
    for (const auto& s : v->get_array())
      if (s.is_string()) out.emplace_back(s.get_string());
  return out;
}

bool flag(const json::object& body, const char* key, bool fallback) {
  const json::value* v = body.if_contains(key);
  return v && v->is_bool() ? v->get_bool() : fallback;
}

// Partial: only the installed add-ons named (the Supervisor skips the others with a warning).
RestResponse create(RestCall& c, SupervisorData& d, bool partial) {
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (!body) return error(400, "Invalid JSON body");
  if (auto bad = bad_folder(*body)) return error(400, *bad);
  SimBackup b;
  if (const json::value* name = body->if_contains("name"); name && name->is_string())
    b.name = std::string(name->get_string());
  b.type = partial ? "partial" : "full";
  b.is_protected = body->contains("password") && body->at("password").is_string();
  b.homeassistant = partial ? flag(*body, "homeassistant", false) : true;
  const std::vector<std::string> wanted = string_list(*body, "addons");
  for (const auto& a : d.addons)
    if (a.installed() && (!partial || std::count(wanted.begin(), wanted.end(), a.slug))) b.addons.push_back(a.slug);
  b.folders =
      partial ? string_list(*body, "folders") : std::vector<std::string>(all_folders().begin(), all_folders().end());
  const SimBackup content = b;
  const std::string slug = add_backup(d, std::move(b));
  const std::string job = start_backup_job(d, partial ? "backup_manager_partial_backup" : "backup_manager_full_backup",
                                           slug, content, false, 25);
  if (flag(*body, "background", false)) return job_answer(job);
  SimJob& j = d.jobs[job];
  j.done = true;
  j.progress = 100;
  j.stage = "finishing_file";
  if (!backup_job_errors(j).empty()) {  // api/backups.py: no backup came back
    return json_response(400, json::object{{"result", "error"},
                                           {"message", "An error occurred while making backup, check job '" + job +
                                                           "' or supervisor logs for details"},
                                           {"job_id", job}});
  }
  return ok(json::object{{"job_id", job}, {"slug", slug}});
}

RestResponse restore(RestCall& c, SupervisorData& d, bool partial) {
  SimBackup* b = find_backup(d, c.path[0]);
  if (!b) return error(404, "Backup does not exist");
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (!body) return error(400, "Invalid JSON body");
  if (auto bad = bad_folder(*body)) return error(400, *bad);
  if (b->is_protected && !(body->contains("password") && body->at("password").is_string()))
    return error(400, "Invalid password for backup " + b->slug);
  SimBackup content = *b;
  if (partial) {  // what the body names (the Supervisor restores only that)
    content.homeassistant = flag(*body, "homeassistant", false);
    content.addons = string_list(*body, "addons");
    content.folders = string_list(*body, "folders");
  }
  const std::string job = start_backup_job(
      d, partial ? "backup_manager_partial_restore" : "backup_manager_full_restore", b->slug, content, !partial, 25);
  d.log.push_back("[sim] INFO (MainThread) [supervisor.backups.manager] " + std::string(partial ? "Partial" : "Full") +
                  "-Restore " + b->slug + " start");
  return job_answer(job);
}

}  // namespace

std::string add_backup(SupervisorData& d, SimBackup b) {
  b.slug = "5a" + std::to_string(100000 + d.next_id++) + "c";
  b.date = common::format_iso_time(common::now_epoch_seconds());
  if (b.name.empty()) b.name = "Automatic backup " + b.date.substr(0, 10);
  const std::string slug = b.slug;
  d.log.push_back("[sim] INFO (MainThread) [supervisor.backups.manager] Creating new " + b.type + " backup with slug " +
                  slug);
  if (d.backup_fault == "addon_save") {  // Addon.backup's tar error: each add-on left out, the backup kept
    for (const auto& addon : b.addons)
      d.log.push_back("[sim] ERROR (MainThread) [supervisor.addons.addon] Can't write backup tarfile for addon " +
                      addon + ": [Errno 28] No space left on device");
    b.addons.clear();
  }
  if (d.backup_fault == "file") {  // _do_backup: the tar unlinked, nothing listed
    d.log.push_back("[sim] ERROR (MainThread) [supervisor.backups.manager] Backup " + slug + " error");
    return slug;
  }
  b.size_mb = 1.5 + 20.0 * static_cast<double>(b.addons.size()) + (b.homeassistant ? 40.0 : 0.0);
  d.backups.push_back(std::move(b));
  return slug;
}

std::string start_backup_job(SupervisorData& d, std::string name, const std::string& slug, SimBackup content, bool full,
                             double step) {
  const std::string uuid = start_job(d, std::move(name), slug, step);
  SimJob& j = d.jobs[uuid];
  j.content = std::move(content);
  j.full = full;
  j.fault = d.backup_fault;
  return uuid;
}

bool backup_running(const SupervisorData& d) {
  return std::any_of(d.jobs.begin(), d.jobs.end(),
                     [](const auto& kv) { return !kv.second.done && kv.second.name.rfind("backup_manager_", 0) == 0; });
}

void add_backup_routes(RestRouter& r) {
  r.add("GET", "/backups", guarded([](RestCall&, SupervisorData& d) {
          json::array list;
          for (const auto& b : d.backups) list.push_back(list_item(b));
          return ok(json::object{{"backups", std::move(list)}});
        }));
  r.add("GET", "/backups/{slug}/info", guarded([](RestCall& c, SupervisorData& d) {
          SimBackup* b = find_backup(d, c.path[0]);
          return b ? ok(info_of(d, *b)) : error(404, "Backup does not exist");
        }));
  r.add("POST", "/backups/new/full", guarded([](RestCall& c, SupervisorData& d) { return create(c, d, false); }));
  r.add("POST", "/backups/new/partial", guarded([](RestCall& c, SupervisorData& d) { return create(c, d, true); }));
  r.add("POST", "/backups/{slug}/restore/full",
        guarded([](RestCall& c, SupervisorData& d) { return restore(c, d, false); }));
  r.add("POST", "/backups/{slug}/restore/partial",
        guarded([](RestCall& c, SupervisorData& d) { return restore(c, d, true); }));
  r.add("DELETE", "/backups/{slug}", guarded([](RestCall& c, SupervisorData& d) {
          auto it =
              std::find_if(d.backups.begin(), d.backups.end(), [&](const SimBackup& b) { return b.slug == c.path[0]; });
          if (it == d.backups.end()) return error(404, "Backup does not exist");
          d.backups.erase(it);
          return ok();
        }));
}

}  // namespace hamcp::sim::supervisor_detail
