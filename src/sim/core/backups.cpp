#include "sim/core/backups.hpp"

namespace hamcp::sim {

json::object backup_json(const BackupSpec& spec) {
  json::object agents{
      {std::string(kLocalBackupAgent), json::object{{"protected", spec.is_protected}, {"size", spec.size}}}};
  return json::object{{"addons", json::array{}},
                      {"backup_id", spec.backup_id},
                      {"date", iso_time(spec.date)},
                      {"database_included", spec.database_included},
                      {"extra_metadata", json::object{{"instance_id", "a1b2c3d4e5f60718293a4b5c6d7e8f90"},
                                                      {"with_automatic_settings", spec.automatic}}},
                      {"folders", json::array{}},
                      {"homeassistant_included", true},
                      {"homeassistant_version", spec.ha_version},
                      {"name", spec.name},
                      {"agents", std::move(agents)},
                      {"failed_addons", json::array{}},
                      {"failed_agent_ids", json::array{}},
                      {"failed_folders", json::array{}},
                      {"with_automatic_settings", spec.automatic}};
}

}  // namespace hamcp::sim
