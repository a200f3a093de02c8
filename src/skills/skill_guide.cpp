#include "skills/skill_guide.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstddef>

#include "common/ascii.hpp"

namespace hamcp::embedded {
struct File {
  const char* path;
  const unsigned char* data;
  std::size_t size;
};
extern const File kSkillGuideFiles[];  // generated; ends with {nullptr, ...}
}  // namespace hamcp::embedded

namespace hamcp::skills {
namespace {

std::string topic_of(std::string_view path) {
  constexpr std::string_view kPrefix = "references/", kSuffix = ".md";
  if (!path.starts_with(kPrefix) || !path.ends_with(kSuffix)) return {};
  return std::string(path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size()));
}

std::vector<GuideFile> load() {
  std::vector<GuideFile> files;
  for (const embedded::File* f = embedded::kSkillGuideFiles; f->path; ++f) {
    GuideFile g;
    g.path = f->path;
    g.text = std::string_view(reinterpret_cast<const char*>(f->data), f->size);
    g.uri = "skill://" + std::string(kSkillName) + "/" + g.path;
    g.topic = topic_of(g.path);
    files.push_back(std::move(g));
  }
  // SKILL.md first: clients read it before any reference.
  std::sort(files.begin(), files.end(), [](const GuideFile& a, const GuideFile& b) {
    if ((a.path == "SKILL.md") != (b.path == "SKILL.md")) return a.path == "SKILL.md";
    return a.path < b.path;
  });
  return files;
}

}  // namespace

const std::vector<GuideFile>& guide_files() {
  static const std::vector<GuideFile> files = load();
  return files;
}

const GuideFile& skill_md() { return guide_files().front(); }

const GuideFile* find_by_uri(std::string_view uri) {
  for (const auto& f : guide_files())
    if (f.uri == uri) return &f;
  return nullptr;
}

const GuideFile* find_by_topic(std::string_view topic) {
  if (topic.empty()) return &skill_md();
  for (const auto& f : guide_files())
    if (f.topic == topic) return &f;
  return nullptr;
}

std::vector<std::string> topics() {
  std::vector<std::string> out;
  for (const auto& f : guide_files())
    if (!f.topic.empty()) out.push_back(f.topic);
  return out;
}

std::vector<std::pair<std::string, std::string>> parse_frontmatter(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> fields;
  if (!text.starts_with("---\n")) return fields;
  std::size_t pos = 4;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (ascii_trim(line) == "---") return fields;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    fields.emplace_back(std::string(ascii_trim(line.substr(0, colon))),
                        std::string(ascii_trim(line.substr(colon + 1))));
  }
  return {};  // no closing delimiter: not frontmatter
}

const Frontmatter& frontmatter() {
  static const Frontmatter parsed = [] {
    Frontmatter f;
    for (auto& [key, value] : parse_frontmatter(skill_md().text)) {
      if (key == "name") f.name = value;
      if (key == "description") f.description = value;
    }
    return f;
  }();
  return parsed;
}

std::string sha256_digest(std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), md.data(), &length, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 0xf];
  }
  return out;
}

}  // namespace hamcp::skills
