#pragma once
// HA's backup integration as far as the simulator goes: a backup as
// backup/info and backup/details list it (HA 2026.2's ManagerBackup: one
// local agent, "backup.local"), and the manager's events (ManagerStateEvent)
// sent to backup/subscribe_events through the store signal kBackupEvent.

#include <boost/json/object.hpp>
#include <string>

#include "sim/core/time_util.hpp"

namespace hamcp::sim {

namespace json = boost::json;

inline constexpr std::string_view kBackupEvent = "@backup_event";
inline constexpr std::string_view kLocalBackupAgent = "backup.local";

struct BackupSpec {
  std::string backup_id;  // 8 hex digits, as HA's local agent names them
  std::string name;
  Timestamp date = 0;
  std::string ha_version;
  bool database_included = true;
  bool is_protected = false;
  bool automatic = false;
  std::int64_t size = 0;
};

json::object backup_json(const BackupSpec& spec);

}  // namespace hamcp::sim
