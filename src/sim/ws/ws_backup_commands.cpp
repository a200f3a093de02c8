// HA's backup integration over the WebSocket API (HA 2026.2's
// components/backup/websocket.py): backup/info, backup/details,
// backup/agents/info, backup/config/info, backup/generate (the manager's
// events, then the new backup on the local agent), backup/restore (events;
// the sim acknowledges and restores nothing), backup/delete and
// backup/subscribe_events (the last event first, then the result, then each
// event). With the integration not loaded every command is unknown, as on HA.
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "sim/core/backups.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

BackupManager& manager(WsConnection& c) { return home(c).backup; }

// Without the integration HA does not know the command at all.
bool refuse_unloaded(WsConnection& c, int64_t id) {
  if (manager(c).loaded) return false;
  c.send_error(id, "unknown_command", "Unknown command.");
  return true;
}

void emit(WsConnection& c, json::object event) {
  BackupManager& m = manager(c);
  m.state = std::string(event.at("manager_state").as_string());
  m.last_event = event;
  c.core().store().fire(std::string(kBackupEvent), std::move(event), ctx(c));
}

json::object create_event(const char* stage, const char* state) {
  return json::object{{"manager_state", "create_backup"},
                      {"reason", nullptr},
                      {"stage", stage ? json::value(stage) : json::value(nullptr)},
                      {"state", state}};
}

json::object* find_backup(WsConnection& c, std::string_view backup_id) {
  for (auto& b : manager(c).backups)
    if (b.at("backup_id").as_string() == backup_id) return &b;
  return nullptr;
}

void info(WsConnection& c, int64_t id, const json::object&) {
  if (refuse_unloaded(c, id)) return;
  const BackupManager& m = manager(c);
  json::array backups;
  for (const auto& b : m.backups) backups.push_back(b);
  c.send_result(id, json::object{{"agent_errors", json::object{}},
                                 {"backups", std::move(backups)},
                                 {"last_attempted_automatic_backup", nullptr},
                                 {"last_completed_automatic_backup", nullptr},
                                 {"last_action_event", m.last_event},
                                 {"next_automatic_backup", nullptr},
                                 {"next_automatic_backup_additional", false},
                                 {"state", m.state}});
}

void details(WsConnection& c, int64_t id, const json::object& msg) {
  if (refuse_unloaded(c, id)) return;
  const json::object* b = find_backup(c, req_string(msg, "backup_id"));
  c.send_result(id, json::object{{"agent_errors", json::object{}}, {"backup", b ? json::value(*b) : nullptr}});
}

void agents_info(WsConnection& c, int64_t id, const json::object&) {
  if (refuse_unloaded(c, id)) return;
  c.send_result(
      id, json::object{{"agents", json::array{json::object{{"agent_id", kLocalBackupAgent}, {"name", "local"}}}}});
}

void config_info(WsConnection& c, int64_t id, const json::object&) {
  if (refuse_unloaded(c, id)) return;
  json::object create{{"agent_ids", json::array{}}, {"include_addons", nullptr},  {"include_all_addons", false},
                      {"include_database", true},   {"include_folders", nullptr}, {"name", nullptr},
                      {"password", nullptr}};
  json::object config{{"agents", json::object{}},
                      {"automatic_backups_configured", false},
                      {"create_backup", std::move(create)},
                      {"last_attempted_automatic_backup", nullptr},
                      {"last_completed_automatic_backup", nullptr},
                      {"retention", json::object{{"copies", nullptr}, {"days", nullptr}}},
                      {"schedule", json::object{{"days", json::array{}}, {"recurrence", "never"}, {"time", nullptr}}},
                      {"next_automatic_backup", nullptr},
                      {"next_automatic_backup_additional", false}};
  c.send_result(id, json::object{{"config", std::move(config)}});
}

std::string hex_id(unsigned number, int digits) {
  char text[40];
  std::snprintf(text, sizeof text, "%0*x", digits, number);
  return text;
}

// The backup the job makes, on the agents that exist.
json::object new_backup(WsConnection& c, const json::object& msg) {
  BackupManager& m = manager(c);
  const auto [named, name] = nullable(msg, "name");
  const auto [has_password, password] = nullable(msg, "password");
  BackupSpec spec;
  spec.backup_id = hex_id(0xb0000000u + static_cast<unsigned>(m.jobs), 8);
  spec.name = name && !name->empty() ? *name : "Custom backup " + home(c).config.version;
  spec.date = now_timestamp();
  spec.ha_version = home(c).config.version;
  spec.database_included = opt_bool(msg, "include_database", true);
  spec.is_protected = password.has_value();
  spec.size = spec.database_included ? 190'000'000 : 42'000'000;
  return backup_json(spec);
}

// The steps of a backup after its result: two stages, then the backup and its completion.
constexpr int kStages = 3;

void advance(WsConnection& c, const json::object& msg, int stage) {
  if (stage == 0) return emit(c, create_event("home_assistant", "in_progress"));
  if (stage == 1) return emit(c, create_event("upload_to_agents", "in_progress"));
  manager(c).backups.push_back(new_backup(c, msg));
  emit(c, create_event(nullptr, "completed"));
  emit(c, json::object{{"manager_state", "idle"}});
}

void generate(WsConnection& c, int64_t id, const json::object& msg) {
  if (refuse_unloaded(c, id)) return;
  const std::vector<std::string> agents = opt_strings(msg, "agent_ids");
  if (!msg.contains("agent_ids")) throw BadMessage{"required key not provided @ data['agent_ids']"};
  BackupManager& m = manager(c);
  if (m.state != "idle") return c.send_error(id, "home_assistant_error", "Backup manager busy: " + m.state);
  bool local = false;
  std::string given;
  for (const auto& a : agents) {
    local = local || a == kLocalBackupAgent;
    given += (given.empty() ? "'" : ", '") + a + "'";
  }
  if (!local)
    return c.send_error(id, "home_assistant_error",
                        "At least one available backup agent must be selected, got [" + given + "]");
  ++m.jobs;
  emit(c, create_event(nullptr, "in_progress"));
  c.send_result(id, json::object{{"backup_job_id", hex_id(0x5eed0000u + static_cast<unsigned>(m.jobs), 32)}});
  if (m.hold_create) return;  // a slow backup: it stays in progress
  if (m.stage_delay_ms <= 0) {
    for (int stage = 0; stage < kStages; ++stage) advance(c, msg, stage);
    return;
  }
  // Spaced in time on a thread of its own (the simulator's io thread never
  // sleeps), as blueprint/import does; a connection gone ends it.
  std::thread([weak = c.weak(), msg, delay = std::chrono::milliseconds(m.stage_delay_ms)] {
    for (int stage = 0; stage < kStages; ++stage) {
      std::this_thread::sleep_for(delay);
      auto conn = weak.lock();
      if (!conn) return;
      std::lock_guard lock(conn->core().store().mutex());
      advance(*conn, msg, stage);
    }
  }).detach();
}

void restore(WsConnection& c, int64_t id, const json::object& msg) {
  if (refuse_unloaded(c, id)) return;
  const std::string backup_id = req_string(msg, "backup_id");
  const std::string agent_id = req_string(msg, "agent_id");
  BackupManager& m = manager(c);
  if (m.state != "idle") return c.send_error(id, "home_assistant_error", "Backup manager busy: " + m.state);
  const json::object* b = find_backup(c, backup_id);
  if (!b || !b->at("agents").as_object().contains(agent_id))
    return c.send_error(id, "backup_not_found", "Backup not found");
  const bool is_protected = b->at("agents").at(agent_id).at("protected").as_bool();
  if (is_protected && !opt_string(msg, "password")) return c.send_error(id, "password_incorrect", "Incorrect password");
  ++m.restores;
  auto event = [](const char* stage, const char* state) {
    return json::object{{"manager_state", "restore_backup"},
                        {"reason", nullptr},
                        {"stage", stage ? json::value(stage) : json::value(nullptr)},
                        {"state", state}};
  };
  emit(c, event(nullptr, "in_progress"));
  emit(c, event(nullptr, "core_restart"));
  c.send_result(id, nullptr);
  emit(c, json::object{{"manager_state", "idle"}});  // the sim restores nothing: back at once
}

void remove(WsConnection& c, int64_t id, const json::object& msg) {
  if (refuse_unloaded(c, id)) return;
  const std::string backup_id = req_string(msg, "backup_id");
  auto& backups = manager(c).backups;
  std::erase_if(backups, [&](const json::object& b) { return b.at("backup_id").as_string() == backup_id; });
  c.send_result(id, json::object{{"agent_errors", json::object{}}});  // HA: an unknown id is no error
}

void subscribe_events(WsConnection& c, int64_t id, const json::object&) {
  if (refuse_unloaded(c, id)) return;
  auto& store = c.core().store();
  auto weak = c.weak();
  const uint64_t listener = store.listen(std::string(kBackupEvent), [weak, id](const Event& e) {
    if (auto self = weak.lock()) self->send_event(id, e.data);
  });
  c.add_subscription(id, [&store, listener] { store.unlisten(listener); });
  c.send_event(id, manager(c).last_event);
  c.send_result(id, nullptr);
}

}  // namespace

void register_backup_commands(Table& t) {
  t["backup/info"] = info;
  t["backup/details"] = details;
  t["backup/agents/info"] = agents_info;
  t["backup/config/info"] = config_info;
  t["backup/generate"] = generate;
  t["backup/restore"] = restore;
  t["backup/delete"] = remove;
  t["backup/subscribe_events"] = subscribe_events;
}

}  // namespace hamcp::sim
