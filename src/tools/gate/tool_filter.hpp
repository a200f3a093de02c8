#pragma once
// Tool filters: which tools a server offers. A switched-off tool leaves
// tools/list but stays callable under its names, answering the tool_disabled
// error, so a client that remembers it learns why instead of "unknown tool".
// Names are hamcp tools, their ha-mcp aliases (which switch off the hamcp tool
// they map to) or family names ("entities", "config", "helpers", ...).

#include <string>
#include <vector>

#include "mcp/registry.hpp"

namespace hamcp::tools {

struct ToolFilter {
  std::vector<std::string> enabled;   // --enable-tools: only these (empty: all)
  std::vector<std::string> disabled;  // --disable-tools / DISABLED_TOOLS
  bool empty() const { return enabled.empty() && disabled.empty(); }
};

struct ToolFamily {
  std::string name;                // "entities"
  std::vector<std::string> tools;  // the listed tool names it registered
};

// The tools switched off. Throws std::invalid_argument naming an unknown name.
std::vector<std::string> tools_switched_off(const mcp::Registry& registry, const std::vector<ToolFamily>& families,
                                            const ToolFilter& filter);

// Switches the tools off in the registry (see above); returns their names.
std::vector<std::string> apply_tool_filter(mcp::Registry& registry, const std::vector<ToolFamily>& families,
                                           const ToolFilter& filter);

}  // namespace hamcp::tools
