#include "tools/gate/tool_filter.hpp"

#include <algorithm>
#include <stdexcept>

#include "tools/tool_error.hpp"

namespace hamcp::tools {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The hamcp tools a filter entry names; throws for a name nobody knows.
std::vector<std::string> resolve(const mcp::Registry& registry, const std::vector<ToolFamily>& families,
                                 const std::string& name, const char* option) {
  for (const ToolFamily& family : families)
    if (family.name == name) return family.tools;
  if (auto tool = registry.find_tool(name)) return {tool->tool.name};
  std::string known;
  for (const ToolFamily& family : families) known += (known.empty() ? "" : ", ") + family.name;
  throw std::invalid_argument(std::string(option) + ": no tool or family named \"" + name +
                              "\"; use tool names from tools/list, ha-mcp tool names, or a family (" + known + ")");
}

mcp::Tool disabled_copy(const mcp::Tool& original) {
  mcp::Tool t = original;
  t.hidden = true;
  t.handler = [name = original.name](json::object, mcp::RequestContext&) -> boost::asio::awaitable<mcp::ToolResult> {
    co_return ToolError{"tool_disabled",
                        "The tool " + name +
                            " is switched off on this hamcp server (--disable-tools / "
                            "DISABLED_TOOLS / --enable-tools).",
                        "Use another tool from tools/list, or ask the server's owner to enable it.",
                        {{"tool", name}}}
        .result();
  };
  return t;
}

}  // namespace

std::vector<std::string> tools_switched_off(const mcp::Registry& registry, const std::vector<ToolFamily>& families,
                                            const ToolFilter& filter) {
  std::vector<std::string> kept;
  for (const auto& t : registry.tools()) kept.push_back(t->tool.name);
  if (!filter.enabled.empty()) {
    std::vector<std::string> wanted;
    for (const std::string& name : filter.enabled)
      for (std::string& tool : resolve(registry, families, name, "--enable-tools")) wanted.push_back(std::move(tool));
    std::erase_if(kept, [&](const std::string& tool) { return !contains(wanted, tool); });
  }
  for (const std::string& name : filter.disabled)
    for (const std::string& tool : resolve(registry, families, name, "--disable-tools")) std::erase(kept, tool);
  std::vector<std::string> off;
  for (const auto& t : registry.tools())
    if (!contains(kept, t->tool.name)) off.push_back(t->tool.name);
  return off;
}

std::vector<std::string> apply_tool_filter(mcp::Registry& registry, const std::vector<ToolFamily>& families,
                                           const ToolFilter& filter) {
  if (filter.empty()) return {};
  std::vector<std::string> off = tools_switched_off(registry, families, filter);
  for (const std::string& name : off) {
    auto tool = registry.find_tool(name);
    registry.replace_tool(disabled_copy(tool->tool));
  }
  return off;
}

}  // namespace hamcp::tools
