#include "skills/skill_resources.hpp"

#include "mcp/errors.hpp"
#include "skills/skill_guide.hpp"

namespace hamcp::skills {
namespace {

// The guide changes only with hamcp's binary: clients may cache it an hour.
constexpr std::int64_t kCacheTtlMs = 3600000;

void put_cache_hints(json::object& result) {
  result.emplace("ttlMs", kCacheTtlMs);
  result.emplace("cacheScope", "public");
}

asio::awaitable<json::array> read_file(std::string uri, mcp::RequestContext& /*ctx*/) {
  const GuideFile* file = find_by_uri(uri);
  if (!file) throw mcp::McpError(mcp::error_code::resource_not_found, "Resource not found: " + uri);
  co_return json::array{mcp::text_contents(file->uri, file->text, "text/markdown")};
}

mcp::Resource resource_of(const GuideFile& file) {
  mcp::Resource r;
  r.uri = file.uri;
  r.mime_type = "text/markdown";
  r.size = file.text.size();
  if (file.topic.empty()) {
    // SEP-2640: the SKILL.md resource is named and described by its frontmatter.
    r.name = frontmatter().name;
    r.description = frontmatter().description;
  } else {
    r.name = std::string(kSkillName) + "/" + file.topic;
    r.description = "hamcp skills guide: " + file.topic;
  }
  r.reader = read_file;
  return r;
}

asio::awaitable<json::object> list_skills(json::object params, mcp::RequestContext& /*ctx*/) {
  if (const json::value* cursor = params.if_contains("cursor"); cursor && !cursor->is_null())
    throw mcp::McpError(mcp::error_code::invalid_params,
                        "Invalid params: cursor is not one this server issued for skills/list; omit it");
  json::object result;
  result.emplace("skills", json::array{skill_entry()});
  put_cache_hints(result);
  co_return result;
}

asio::awaitable<json::object> get_skill(json::object params, mcp::RequestContext& /*ctx*/) {
  const json::value* uri = params.if_contains("uri");
  if (!uri || !uri->is_string() || uri->get_string() != skill_md().uri)
    throw mcp::McpError(mcp::error_code::invalid_params,
                        "Invalid params: uri must name a skill this server serves (" + skill_md().uri + ")");
  json::object result;
  result.emplace("skill", skill_entry());
  put_cache_hints(result);
  co_return result;
}

}  // namespace

json::object skill_entry() {
  json::array files;
  for (const auto& f : guide_files())
    files.emplace_back(json::object{{"uri", f.uri}, {"digest", sha256_digest(f.text)}, {"size", f.text.size()}});
  json::object front{{"name", frontmatter().name}, {"description", frontmatter().description}};
  return json::object{{"uri", skill_md().uri}, {"frontmatter", std::move(front)}, {"resources", std::move(files)}};
}

void register_skill_guide(mcp::Registry& registry) {
  for (const auto& f : guide_files()) registry.add_resource(resource_of(f));
  registry.add_extension(std::string(kSkillsExtension), json::object());
  registry.add_extension_method("skills/list", list_skills);
  registry.add_extension_method("skills/get", get_skill);
}

}  // namespace hamcp::skills
