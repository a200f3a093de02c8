#pragma once
// Optimistic locking for every config write: the caller passes the config_hash
// it read, and a different hash now means the config changed since (another
// client, the UI, a restore), so nothing is written. One error for all kinds:
// stale_config_hash with written:false, current_hash, and changed_since (what
// changed) when the edit journal still holds the version that was read.

#include <optional>
#include <string>
#include <string_view>

#include "tools/tool_env.hpp"

namespace hamcp::tools {

struct LockedConfig {
  // The edit journal's kind ("automation", "dashboard", "energy", ...); empty: no changed_since, for
  // configs whose values may be secrets (add-on options).
  std::string_view journal_kind;
  std::string key;     // its journal key
  std::string label;   // for the message: "automation automation.x", "Dashboard 'lovelace'"
  std::string reread;  // the read that returns the new hash: "ha_get_dashboard"
};

// The hash `current` has (empty for null: nothing saved).
std::string hash_or_empty(const json::value& current);

// Throws stale_config_hash when `given` is set and is not the hash of `current`
// (null: the config no longer exists).
void check_config_hash(ToolEnv& env, const LockedConfig& config, const json::value& current,
                       const std::optional<std::string>& given);

}  // namespace hamcp::tools
