#pragma once
// The settings family (issue 14 item 8): ha_get_settings, a read-only view of
// every effective setting, where it came from (flag, env, file, default) and
// the config file used. Secrets appear as "***".

#include <memory>

#include "mcp/registry.hpp"
#include "tools/settings/effective_settings.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_spec.hpp"

namespace hamcp::tools {

// The tool's answer: {config_file, config_file_read, settings: {name: {value, source}}}.
json::object settings_view(const EffectiveSettings& settings);

ToolSpec make_get_settings_spec(std::shared_ptr<const EffectiveSettings> settings);

// `settings` may be null (tests, benches): the tool then answers with no rows.
void register_settings_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env,
                             std::shared_ptr<const EffectiveSettings> settings);

}  // namespace hamcp::tools
