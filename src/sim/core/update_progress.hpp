#pragma once
// An update.install in progress in the simulated Home Assistant. The action
// marks the entity in_progress (update_percentage 0 when it reports
// progress) and fires the store signal "@update_install" {entity_id,
// version}; the server (sim_server.cpp) then calls advance_update_install
// every kUpdateStepMs until it returns true, as HA's entity would write its
// state while it installs. Without a server (SimCore alone) the install stays
// in progress.

#include <string>

#include "sim/core/state_store.hpp"

namespace hamcp::sim {

inline constexpr int kUpdateSteps = 4;
inline constexpr int kUpdateStepMs = 500;

// UpdateEntityFeature (homeassistant/components/update/const.py).
inline constexpr int kUpdateInstall = 1, kUpdateSpecificVersion = 2, kUpdateProgress = 4, kUpdateBackup = 8,
                     kUpdateReleaseNotes = 16;

// Step `step` (1..kUpdateSteps) of installing `version` ("" = the latest) on
// `entity_id`: the percentage moves on; the last step installs it. True when
// finished (or the entity is gone or no longer in progress).
bool advance_update_install(StateStore& store, const std::string& entity_id, const std::string& version, int step);

}  // namespace hamcp::sim
