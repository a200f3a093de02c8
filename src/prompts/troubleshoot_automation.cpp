// troubleshoot_automation: one automation's state, config, referenced
// entities and recent runs, with the steps to find why it misbehaves.
#include <algorithm>

#include "prompts/prompt_kit.hpp"
#include "prompts/prompts.hpp"
#include "tools/config/config_target.hpp"

namespace hamcp::prompts {
namespace {

namespace cfg = tools::config;
constexpr std::string_view kName = "troubleshoot_automation";
constexpr std::size_t kMaxConfigBytes = 4000, kMaxRuns = 5, kMaxEntities = 20;

// Entity ids a config names that exist in the home, with their states.
void collect_entities(const json::value& v, const ha::Snapshot& snap, std::vector<std::string>& out) {
  if (out.size() >= kMaxEntities) return;
  if (const json::string* s = v.if_string()) {
    if (s->find('.') != json::string::npos && snap.states.find(*s) &&
        std::find(out.begin(), out.end(), std::string(*s)) == out.end())
      out.emplace_back(*s);
  } else if (const json::array* a = v.if_array()) {
    for (const auto& item : *a) collect_entities(item, snap, out);
  } else if (const json::object* o = v.if_object()) {
    for (const auto& [key, item] : *o) collect_entities(item, snap, out);
  }
}

std::string field(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (!v || v->is_null()) return {};
  return v->is_string() ? std::string(v->get_string()) : json::serialize(*v);
}

std::string runs_text(const json::value& runs) {
  std::vector<json::object> list;
  if (const json::array* a = runs.if_array())
    for (const auto& r : *a)
      if (const json::object* o = r.if_object()) list.push_back(*o);
  auto start = [](const json::object& r) {
    const json::value* ts = r.if_contains("timestamp");
    return ts && ts->is_object() ? field(ts->get_object(), "start") : std::string();
  };
  std::sort(list.begin(), list.end(), [&](const auto& a, const auto& b) { return start(a) > start(b); });
  if (list.empty()) return "No stored runs: it has not triggered since Home Assistant started (or traces are off).\n";
  std::string text;
  for (std::size_t i = 0; i < list.size() && i < kMaxRuns; ++i) {
    const json::object& r = list[i];
    text += "- " + start(r) + " run_id " + field(r, "run_id") + ": " + field(r, "state") + ", " +
            field(r, "script_execution");
    if (std::string error = field(r, "error"); !error.empty()) text += ", error: " + error;
    text += "\n";
  }
  return text;
}

std::string guidance(const cfg::Target& t) {
  return "\nSteps (hamcp tools):\n"
         "1. If it is off, ask whether it should be on. Compare each trigger with the current states above "
         "(ha_get_state, ha_get_history for what happened around the expected time).\n"
         "2. Read a run step by step: ha_get_automation_traces with automation_id \"" +
         t.entity_id +
         "\" and a run_id. Did it stop at the trigger, a condition, or an action error?\n"
         "3. Check every referenced entity exists and is not unavailable (ha_search).\n"
         "4. Propose the smallest fix and explain it. Apply it only after the user agrees: ha_config_get (gives "
         "config_hash), then ha_config_set with that hash. The old version stays in the edit journal.\n"
         "5. Verify with a new trace. Guide: ha_get_skill_guide topic automations.\n";
}

struct Reads {
  std::optional<json::value> config;
  json::value runs;
};

asio::awaitable<Reads> read_automation(ToolEnv& env, const cfg::Target& t) {
  Reads reads;
  auto reading = cfg::read_config(env, cfg::Kind::automation, t.key);
  reads.config = co_await std::move(reading);
  json::object msg{{"type", "trace/list"}, {"domain", "automation"}, {"item_id", t.key}};
  auto listing = env.ha.command(std::move(msg));
  reads.runs = co_await std::move(listing);
  co_return reads;
}

std::string describe(const ha::Snapshot& snap, const cfg::Target& t, const Reads& reads) {
  std::string text = "Troubleshoot the Home Assistant automation \"" + t.alias + "\" (" + t.entity_id + ", config id " +
                     t.key + ").\n";
  if (ha::EntityStatePtr s = snap.states.find(t.entity_id)) {
    const std::string last = s->attributes.string_of("last_triggered");
    text += "Now: " + s->state + ", last triggered " + (last.empty() ? std::string("never") : last) + ", mode " +
            s->attributes.string_of("mode") + ".\n";
  }
  if (reads.config) {
    text += "Config:\n```json\n" + compact_json(*reads.config, kMaxConfigBytes) + "\n```\n";
    std::vector<std::string> ids;
    collect_entities(*reads.config, snap, ids);
    if (!ids.empty()) text += "Entities it uses, now:\n";
    for (const auto& id : ids) text += "- " + id + ": " + snap.states.find(id)->state + "\n";
  } else {
    text += "Its config is not in HA's automation editor (YAML-only?); read it with ha_config_get.\n";
  }
  text += "Recent runs (newest first):\n" + runs_text(reads.runs);
  return text + guidance(t);
}

asio::awaitable<json::object> get(std::shared_ptr<ToolEnv> base, std::map<std::string, std::string> args,
                                  mcp::RequestContext& ctx) {
  const std::shared_ptr<ToolEnv> held_env = base->for_session(ctx.session());  // held while this runs
  ToolEnv& env = *held_env;
  auto snapping = home_snapshot(env);
  ha::SnapshotPtr snap = co_await std::move(snapping);
  const std::string ref = args["automation_id"];
  std::optional<cfg::Target> target;
  try {
    target = cfg::find_target(*snap, cfg::Kind::automation, ref);
  } catch (const tools::ToolException& e) {
    bad_argument(kName, "automation_id", "names several automations", e.error().suggestion);
  }
  if (!target || target->entity_id.empty())
    bad_argument(kName, "automation_id", "matches no automation",
                 "Pass an automation entity id (completion/complete lists them), its config id or its alias.");
  std::exception_ptr failure;
  Reads reads;
  try {
    auto reading = read_automation(env, *target);
    reads = co_await std::move(reading);
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure) rethrow_as_mcp_error(failure);
  co_return prompt_result("Troubleshoot " + target->entity_id, describe(*snap, *target, reads));
}

}  // namespace

mcp::Prompt make_troubleshoot_automation(std::shared_ptr<ToolEnv> env) {
  mcp::Prompt p;
  p.name = std::string(kName);
  p.title = "Troubleshoot an automation";
  p.description = "Find why an automation does not do what it should: its config, current states and recent runs.";
  p.arguments = {{"automation_id", "Automation", "Entity id (automation.x), config id or alias", true}};
  p.getter = [env](std::map<std::string, std::string> args, mcp::RequestContext& ctx) {
    return get(env, std::move(args), ctx);
  };
  return p;
}

}  // namespace hamcp::prompts
