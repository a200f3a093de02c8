#pragma once
// hamcp's skills guide: one skill (SKILL.md plus references/<topic>.md),
// written in src/skills/guide/ and compiled in (cmake/embed_files.cmake).
// Served as skill:// resources (skill_resources.hpp) and by ha_get_skill_guide.

#include <string>
#include <string_view>
#include <vector>

namespace hamcp::skills {

inline constexpr std::string_view kSkillName = "home-assistant-authoring";

struct GuideFile {
  std::string path;  // "SKILL.md", "references/automations.md"
  std::string_view text;
  std::string uri;    // skill://home-assistant-authoring/<path>
  std::string topic;  // "automations"; "" for SKILL.md
};

// SKILL.md first, then the references in path order.
const std::vector<GuideFile>& guide_files();
const GuideFile& skill_md();
const GuideFile* find_by_uri(std::string_view uri);
const GuideFile* find_by_topic(std::string_view topic);  // "" = SKILL.md
std::vector<std::string> topics();

// SKILL.md's frontmatter fields (plain `key: value` lines between `---`).
struct Frontmatter {
  std::string name, description;
};
const Frontmatter& frontmatter();

// Parses `key: value` lines of a leading `---` block; exposed for tests.
std::vector<std::pair<std::string, std::string>> parse_frontmatter(std::string_view text);

// Computed when asked (skills/list, skills/get), not at start-up: the first
// digest initialises OpenSSL's providers, ~2 MB of libcrypto pages.
std::string sha256_digest(std::string_view text);  // "sha256:<hex>"

}  // namespace hamcp::skills
