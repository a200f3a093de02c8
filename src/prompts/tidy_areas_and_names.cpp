// tidy_areas_and_names: areas with their entity counts, entities without an
// area and names used twice, for one area or the whole home, with the registry tools to fix them.
#include <algorithm>
#include <map>

#include "common/ascii.hpp"
#include "prompts/prompt_kit.hpp"
#include "prompts/prompts.hpp"

namespace hamcp::prompts {
namespace {

constexpr std::string_view kName = "tidy_areas_and_names";
constexpr std::size_t kMaxListed = 25;

struct Findings {
  std::map<std::string, std::size_t> per_area;  // area_id -> entities
  std::vector<std::string> without_area;
  std::map<std::string, std::vector<std::string>> by_name;  // lower-case name -> entity ids
  std::size_t total = 0;
};

// Groups, zones and the like have no area by nature.
bool needs_area(std::string_view entity_id) {
  for (std::string_view domain : {"automation.", "script.", "scene.", "zone.", "person.", "sun.", "input_", "group.",
                                  "update.", "conversation.", "tts.", "stt.", "event.", "todo.", "weather."})
    if (entity_id.starts_with(domain)) return false;
  return true;
}

Findings look(const ha::Snapshot& snap, const std::string& only_area) {
  Findings f;
  snap.states.for_each([&](const ha::EntityStatePtr& s) {
    const std::string area = area_of_entity(snap, s->entity_id);
    if (!only_area.empty() && area != only_area) return;
    ++f.total;
    const std::string name = s->attributes.string_of("friendly_name");
    if (area.empty()) {
      if (needs_area(s->entity_id)) f.without_area.push_back(s->entity_id);
    } else {
      ++f.per_area[area];
    }
    if (!name.empty()) f.by_name[ascii_lower(name)].push_back(s->entity_id);
  });
  return f;
}

void list(std::string& text, const std::vector<std::string>& items) {
  std::vector<std::string> sorted = items;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size() && i < kMaxListed; ++i) text += "- " + sorted[i] + "\n";
  if (sorted.size() > kMaxListed) text += "- … and " + std::to_string(sorted.size() - kMaxListed) + " more\n";
}

std::string describe(const ha::Snapshot& snap, const std::string& area, const Findings& f) {
  std::string text = area.empty() ? "Tidy up this home's areas and names.\n"
                                  : "Tidy up the area \"" + area_name(snap, area) + "\" (" + area + ").\n";
  text += "Entities looked at: " + std::to_string(f.total) + ".\nAreas (entities):";
  for (const auto& [id, count] : f.per_area) text += " " + id + " (" + std::to_string(count) + ")";
  text += "\nWithout an area (" + std::to_string(f.without_area.size()) + "):\n";
  list(text, f.without_area);
  std::vector<std::string> duplicates;
  for (const auto& [name, ids] : f.by_name)
    if (ids.size() > 1) {
      std::string line = "\"" + name + "\":";
      for (const auto& id : ids) line += " " + id;
      duplicates.push_back(line);
    }
  text += "Names used more than once (" + std::to_string(duplicates.size()) + "):\n";
  list(text, duplicates);
  return text +
         "\nSteps (hamcp tools):\n"
         "1. Propose areas for the entities (or better their devices) without one, judging from names and "
         "integrations (ha_get_registry); propose clear unique names; new areas only if needed.\n"
         "2. Show the plan as a table and wait for the user's agreement.\n"
         "3. Apply with ha_set_registry (area_id, name). Change display names, not entity ids: references use "
         "ids (ha_get_skill_guide topic refactoring). Every change is journaled.\n";
}

asio::awaitable<json::object> get(std::shared_ptr<ToolEnv> base, std::map<std::string, std::string> args,
                                  mcp::RequestContext& ctx) {
  const std::shared_ptr<ToolEnv> held_env = base->for_session(ctx.session());  // held while this runs
  ToolEnv& env = *held_env;
  auto snapping = home_snapshot(env);
  ha::SnapshotPtr snap = co_await std::move(snapping);
  const std::string area = args.count("area") ? args["area"] : std::string();
  if (!area.empty() && !snap->registry(ha::RegistryKind::area).find(area))
    bad_argument(kName, "area", "is not an area id of this home", "Pass an area id (completion/complete lists them).");
  co_return prompt_result(area.empty() ? "Tidy areas and names" : "Tidy area " + area,
                          describe(*snap, area, look(*snap, area)));
}

}  // namespace

mcp::Prompt make_tidy_areas_and_names(std::shared_ptr<ToolEnv> env) {
  mcp::Prompt p;
  p.name = std::string(kName);
  p.title = "Tidy areas and names";
  p.description = "Find entities without an area, duplicate and clumsy names, and fix them with the user.";
  p.arguments = {{"area", "Area", "Area id to tidy; omit for the whole home", false}};
  p.getter = [env](std::map<std::string, std::string> args, mcp::RequestContext& ctx) {
    return get(env, std::move(args), ctx);
  };
  return p;
}

}  // namespace hamcp::prompts
