#pragma once
// The skills guide as MCP resources following the skills extension (SEP-2640):
// skill://home-assistant-authoring/SKILL.md and its references (text/markdown),
// the io.modelcontextprotocol/skills extension declared, and its methods
// skills/list and skills/get. Works without Home Assistant.

#include "mcp/registry.hpp"

namespace hamcp::skills {

namespace json = boost::json;
namespace asio = boost::asio;

inline constexpr std::string_view kSkillsExtension = "io.modelcontextprotocol/skills";

void register_skill_guide(mcp::Registry& registry);

// The skill's entry as skills/list and skills/get return it:
// {uri, frontmatter:{name, description}, resources:[{uri, digest, size}]}.
json::object skill_entry();

}  // namespace hamcp::skills
