// The demo home's backups: HA's backup integration loaded, with a few dated
// backups on the local agent (automatic ones and a manual one, one protected
// by a password), as a home that has run for a while has; a new backup goes
// through its stages over a fraction of a second.
#include "sim/core/backups.hpp"
#include "sim/home/home_model.hpp"

namespace hamcp::sim {

void add_demo_backups(Home& home) {
  home.backup.loaded = true;
  home.backup.stage_delay_ms = 150;  // a backup takes a moment, so a client sees its stages
  const std::string version = home.config.version;
  const BackupSpec specs[] = {
      {"c1d2e3f4", "Automatic backup 2026.2.3", kHomeEpoch - 1 * 86400.0 + 4 * 3600 + 45 * 60, version, true, true,
       true, 187'430'912},
      {"9a8b7c6d", "Before the heating rework", kHomeEpoch - 5 * 86400.0 + 19 * 3600, version, true, false, false,
       182'015'488},
      {"5e4f3a2b", "Automatic backup 2026.2.3", kHomeEpoch - 8 * 86400.0 + 4 * 3600 + 45 * 60, version, false, true,
       true, 41'287'680},
  };
  for (const BackupSpec& spec : specs) home.backup.backups.push_back(backup_json(spec));
}

}  // namespace hamcp::sim
