// update.install, update.skip and update.clear_skipped with HA 2026.2's
// checks and messages (homeassistant/components/update/__init__.py). An
// install runs over a few seconds (update_progress.hpp); the entity's state
// is "on" while latest_version is newer than installed_version and not skipped.
#include "sim/core/service_spec.hpp"
#include "sim/core/update_progress.hpp"

namespace hamcp::sim {

namespace {

ServiceError ha_error(std::string message) { return ServiceError{"home_assistant_error", std::move(message), {}, {}}; }

std::string text_of(const json::object& a, std::string_view key) { return svc::attr_str(a, key); }

// HA's state rule: off when skipped or installed == latest; otherwise on.
std::string update_state(const json::object& a) {
  const std::string latest = text_of(a, "latest_version");
  const std::string installed = text_of(a, "installed_version");
  if (latest.empty() || installed.empty()) return "unknown";
  if (latest == text_of(a, "skipped_version") || latest == installed) return "off";
  return "on";
}

bool in_progress(const json::object& a) {
  const json::value* v = a.if_contains("in_progress");
  return v && !(v->is_bool() && !v->get_bool()) && !v->is_null();
}

bool auto_update(const json::object& a) {
  const json::value* v = a.if_contains("auto_update");
  return v && v->is_bool() && v->get_bool();
}

void install(svc::Run& r, const StoredState& s, const json::object& d, Services::Impl& impl) {
  const json::object& a = s.attributes;
  const json::value* version = d.if_contains("version");
  const std::string latest = text_of(a, "latest_version");
  if (!version && (latest.empty() || latest == text_of(a, "installed_version")))
    throw ha_error("No update available for " + s.entity_id);
  const int features = svc::features(s);
  if (version && !(features & kUpdateSpecificVersion))
    throw ha_error("Installing a specific version is not supported for " + s.entity_id);
  const json::value* backup = d.if_contains("backup");
  if (backup && backup->is_bool() && backup->get_bool() && !(features & kUpdateBackup))
    throw ha_error("Backup is not supported for " + s.entity_id);
  if (in_progress(a)) throw ha_error("Update installation already in progress for " + s.entity_id);
  json::object next = a;
  next["in_progress"] = true;
  next["update_percentage"] = (features & kUpdateProgress) ? json::value(0) : json::value(nullptr);
  r.set(s, s.state, std::move(next));
  const std::string target = version && version->is_string() ? std::string(version->get_string()) : std::string();
  impl.store.fire("@update_install", {{"entity_id", s.entity_id}, {"version", target}}, r.ctx);
}

}  // namespace

bool advance_update_install(StateStore& store, const std::string& entity_id, const std::string& version, int step) {
  std::lock_guard lock(store.mutex());
  const StatePtr s = store.get(entity_id);
  if (!s || !in_progress(s->attributes)) return true;
  json::object a = s->attributes;
  const bool reports_progress = (saturate_cast<int>(svc::attr_num(a, "supported_features", 0)) & kUpdateProgress) != 0;
  if (step < kUpdateSteps) {
    if (reports_progress) a["update_percentage"] = step * 100 / kUpdateSteps;
    store.set_state(entity_id, s->state, std::move(a), store.new_context());
    return false;
  }
  a["installed_version"] = version.empty() ? a["latest_version"] : json::value(version);
  a["in_progress"] = false;
  a["update_percentage"] = nullptr;
  std::string state = update_state(a);
  store.set_state(entity_id, std::move(state), std::move(a), store.new_context());
  return true;
}

namespace svc {

void add_update_services(Services::Impl& impl) {
  impl.add(entity_spec(
      "update", "install", "Installs an update for a device or service.",
      {fstr("version", "The version to install."), fbool("backup", "Backup before installing the update.")},
      [&impl](Run& r, const StoredState& s, const json::object& d) { install(r, s, d, impl); }, kUpdateInstall));
  impl.add(entity_spec("update", "skip", "Marks currently available update as skipped.", {},
                       [](Run& r, const StoredState& s, const json::object&) {
                         json::object a = s.attributes;
                         if (auto_update(a)) throw ha_error("Skipping update is not supported for " + s.entity_id);
                         const std::string latest = text_of(a, "latest_version");
                         if (latest.empty()) throw ha_error("Cannot skip an unknown version for " + s.entity_id);
                         if (latest == text_of(a, "installed_version"))
                           throw ha_error("No update available to skip for " + s.entity_id);
                         a["skipped_version"] = latest;
                         std::string state = update_state(a);
                         r.set(s, std::move(state), std::move(a));
                       }));
  impl.add(entity_spec("update", "clear_skipped", "Removes the skipped version marker from an update.", {},
                       [](Run& r, const StoredState& s, const json::object&) {
                         json::object a = s.attributes;
                         if (auto_update(a))
                           throw ha_error("Clearing skipped update is not supported for " + s.entity_id);
                         a["skipped_version"] = nullptr;
                         std::string state = update_state(a);
                         r.set(s, std::move(state), std::move(a));
                       }));
}

}  // namespace svc
}  // namespace hamcp::sim
