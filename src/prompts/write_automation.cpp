// write_automation: the user's description plus the entities that fit it
// (the area's, or the search index's best matches), and how to write, check
// and confirm the automation with hamcp.
#include <algorithm>
#include <cctype>

#include "prompts/prompt_kit.hpp"
#include "prompts/prompts.hpp"

namespace hamcp::prompts {
namespace {

constexpr std::string_view kName = "write_automation";
constexpr std::size_t kMaxEntities = 40;

// Words of a description worth searching for on their own.
std::vector<std::string> search_words(const std::string& description) {
  static const std::vector<std::string> kSkip{"when",   "then", "turn", "turns", "the",  "and", "with", "after",
                                              "before", "from", "into", "that",  "this", "me",  "for",  "off"};
  std::vector<std::string> words;
  std::string word;
  for (char c : description + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      if (word.size() >= 3 && std::find(kSkip.begin(), kSkip.end(), word) == kSkip.end()) words.push_back(word);
      word.clear();
    }
  }
  return words;
}

// The area's entities, or the best matches for the whole description and
// then for each of its words (a sentence rarely matches one entity as a whole).
std::vector<std::string> relevant_entities(ToolEnv& env, const std::string& description, const std::string& area) {
  search::Query q;
  q.limit = kMaxEntities;
  std::vector<search::Hit> hits;
  if (!area.empty()) {
    q.area = area;
    hits = env.index.query(q).hits;
  } else {
    q.text = description;
    hits = env.index.query(q).hits;
    q.limit = kMaxEntities / 4;
    for (const auto& word : search_words(description)) {
      q.text = word;
      for (auto& hit : env.index.query(q).hits) hits.push_back(std::move(hit));
    }
    std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
  }
  std::vector<std::string> ids;
  for (const auto& hit : hits)
    if (ids.size() < kMaxEntities && std::find(ids.begin(), ids.end(), hit.entity_id) == ids.end())
      ids.push_back(hit.entity_id);
  return ids;
}

std::string describe(const ha::Snapshot& snap, const std::string& description, const std::string& area,
                     const std::vector<std::string>& ids) {
  std::string text = "Write a Home Assistant automation: " + description + "\n";
  if (!area.empty()) text += "Area: " + area_name(snap, area) + " (" + area + ").\n";
  text += ids.empty() ? "No entity matched at once; search with ha_search.\n"
                      : "Entities that may fit (id: name, state):\n";
  for (const auto& id : ids) {
    ha::EntityStatePtr s = snap.states.find(id);
    if (!s) continue;
    text += "- " + id + ": " + s->attributes.string_of("friendly_name") + ", " + s->state + "\n";
  }
  return text +
         "\nSteps (hamcp tools):\n"
         "1. Read ha_get_skill_guide topic automations. Confirm the entities (ha_search, ha_get_state) and the "
         "services with their fields (ha_list_services); never guess ids.\n"
         "2. Ask the user about anything the description leaves open (times, conditions, what to do when "
         "someone is home).\n"
         "3. Show the automation (alias, description, triggers, conditions, actions, mode) and wait for the "
         "user's agreement. Try templates first with ha_eval_template.\n"
         "4. Create it with ha_config_set kind automation; it is journaled. Then check it is on and, after it "
         "has run, its trace (ha_get_automation_traces).\n";
}

asio::awaitable<json::object> get(std::shared_ptr<ToolEnv> base, std::map<std::string, std::string> args,
                                  mcp::RequestContext& ctx) {
  const std::shared_ptr<ToolEnv> held_env = base->for_session(ctx.session());  // held while this runs
  ToolEnv& env = *held_env;
  const std::string description = args["description"];
  if (description.find_first_not_of(" \t\n") == std::string::npos)
    bad_argument(kName, "description", "is empty", "Describe what the automation should do.");
  auto snapping = home_snapshot(env);
  ha::SnapshotPtr snap = co_await std::move(snapping);
  const std::string area = args.count("area") ? args["area"] : std::string();
  if (!area.empty() && !snap->registry(ha::RegistryKind::area).find(area))
    bad_argument(kName, "area", "is not an area id of this home", "Pass an area id (completion/complete lists them).");
  co_return prompt_result("Write an automation",
                          describe(*snap, description, area, relevant_entities(env, description, area)));
}

}  // namespace

mcp::Prompt make_write_automation(std::shared_ptr<ToolEnv> env) {
  mcp::Prompt p;
  p.name = std::string(kName);
  p.title = "Write an automation";
  p.description = "Turn a description into a checked automation, using this home's real entities.";
  p.arguments = {{"description", "Description", "What the automation should do, in your words", true},
                 {"area", "Area", "Area id it is about (optional)", false}};
  p.getter = [env](std::map<std::string, std::string> args, mcp::RequestContext& ctx) {
    return get(env, std::move(args), ctx);
  };
  return p;
}

}  // namespace hamcp::prompts
