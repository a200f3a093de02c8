#include "tools/config_lock.hpp"

#include "home/config_json.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

std::string hash_or_empty(const json::value& current) {
  return current.is_null() ? std::string() : home::config_hash(current);
}

void check_config_hash(ToolEnv& env, const LockedConfig& config, const json::value& current,
                       const std::optional<std::string>& given) {
  if (!given) return;
  const std::string now = hash_or_empty(current);
  if (now == *given) return;
  json::object extra{{"written", false}, {"current_hash", now.empty() ? json::value(nullptr) : json::value(now)}};
  auto seen =
      config.journal_kind.empty() ? std::nullopt : env.journal.find_version(config.journal_kind, config.key, *given);
  if (seen && !current.is_null()) {
    const json::value& version = seen->after_hash == *given ? seen->after : seen->before;
    extra["changed_since"] = home::short_diff(version, current);
  }
  const std::string what = now.empty()
                               ? " no longer exists (config_hash " + *given + " was read before it was removed)."
                               : " changed since config_hash " + *given + " was read (now " + now + ").";
  throw ToolException(ToolError{
      "stale_config_hash", config.label + what + " Nothing was written.",
      "Read it again with " + config.reread + ", redo the edit on what is there now, and pass the new config_hash.",
      std::move(extra)});
}

}  // namespace hamcp::tools
