// ha_manage_updates (ha-mcp 8.7.0's name and arguments): list update
// entities grouped by category, get some with release notes, install
// (update_install.cpp), skip, clear_skipped, and ignore/unignore repairs
// issues (the system family's repairs code).
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <map>

#include "tools/action_tool.hpp"
#include "tools/system/system_tools.hpp"
#include "tools/tool_error.hpp"
#include "tools/updates/updates_tools.hpp"

namespace hamcp::tools {

namespace {

namespace asio = boost::asio;
using updates::UpdateView;

constexpr std::size_t kMaxNotes = 10;  // release notes per list answer (one WS call each)

bool listed(const UpdateView& v, const std::vector<std::string>& categories, bool include_skipped) {
  if (!categories.empty() && std::find(categories.begin(), categories.end(), v.category) == categories.end())
    return false;
  return v.available || v.in_progress || (include_skipped && v.skipped);
}

asio::awaitable<void> add_notes(ToolEnv& env, json::object& item, std::int64_t features) {
  if (!(features & updates::kReleaseNotes)) co_return;
  auto reading = updates::release_notes(env, std::string(item.at("entity_id").as_string()));
  json::value notes = co_await std::move(reading);
  item["release_notes"] = std::move(notes);
}

asio::awaitable<mcp::ToolResult> run_list(Args& args, ToolEnv& env) {
  const std::vector<std::string> categories = updates::categories_arg(args);
  const bool include_skipped = args.flag("include_skipped", false);
  const bool with_notes = args.flag("include_release_notes", false);
  auto waiting = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(waiting);
  std::map<std::string, json::array> groups;
  std::size_t total = 0, shown = 0, up_to_date = 0, skipped = 0, notes = 0;
  for (UpdateView& v : updates::update_entities(*snap)) {
    ++total;
    up_to_date += !v.available && !v.skipped && !v.in_progress;
    skipped += v.skipped;
    if (!listed(v, categories, include_skipped)) continue;
    if (with_notes && notes < kMaxNotes && (v.features & updates::kReleaseNotes)) {
      ++notes;
      auto adding = add_notes(env, v.item, v.features);
      co_await std::move(adding);
    }
    groups[v.category].push_back(std::move(v.item));
    ++shown;
  }
  json::object by_category;
  for (auto& [name, items] : groups) by_category[name] = std::move(items);
  json::object body{{"updates", std::move(by_category)},
                    {"count", shown},
                    {"update_entities", total},
                    {"up_to_date", up_to_date},
                    {"skipped", skipped}};
  if (!include_skipped && skipped) body["note"] = "skipped updates hidden: include_skipped=true lists them";
  if (with_notes && notes == kMaxNotes)
    body["release_notes_note"] = "release notes of the first 10 only; use action=get";
  co_return ok(std::move(body));
}

asio::awaitable<mcp::ToolResult> run_get(Args& args, ToolEnv& env) {
  auto waiting = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(waiting);
  std::vector<UpdateView> views = updates::entities_arg(args, *snap, env.index);
  const bool with_notes = args.flag("include_release_notes", true);
  json::array items;
  for (UpdateView& v : views) {
    if (with_notes) {
      auto adding = add_notes(env, v.item, v.features);
      co_await std::move(adding);
    }
    items.push_back(std::move(v.item));
  }
  co_return ok(json::object{{"updates", std::move(items)}});
}

// Polls the mirror (bounded) until `entity_id`'s skipped_version differs from `before`.
asio::awaitable<json::value> skipped_after(ToolEnv& env, std::string entity_id, json::value before) {
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  json::value now = before;
  for (int i = 0; i < 40 && now == before; ++i) {
    timer.expires_after(std::chrono::milliseconds(50));
    co_await timer.async_wait(asio::use_awaitable);
    const ha::SnapshotPtr snap = env.ha.snapshot();
    const ha::EntityStatePtr s = snap ? snap->states.find(entity_id) : nullptr;
    if (!s) break;
    const json::object a = s->attributes.parse();
    const json::value* v = a.if_contains("skipped_version");
    now = v ? *v : json::value(nullptr);
  }
  co_return now;
}

asio::awaitable<mcp::ToolResult> run_skip(Args& args, ToolEnv& env, bool skip) {
  auto waiting = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(waiting);
  const std::vector<UpdateView> views = updates::entities_arg(args, *snap, env.index);
  json::array results;
  for (const UpdateView& v : views) {
    const json::value* was = v.item.if_contains("skipped_version");
    const json::value before = was ? *was : json::value(nullptr);
    ha::ServiceCall call{"update", skip ? "skip" : "clear_skipped", {}, {{"entity_id", v.entity_id}}, false, {}};
    auto calling = env.ha.call_service(std::move(call));
    co_await std::move(calling);
    auto reading = skipped_after(env, v.entity_id, before);
    json::value after = co_await std::move(reading);
    results.push_back(json::object{
        {"entity_id", v.entity_id},
        {"latest_version", v.item.if_contains("latest_version") ? v.item.at("latest_version") : json::value(nullptr)},
        {"skipped_before", before},
        {"skipped_version", after}});
  }
  co_return ok(json::object{{"action", skip ? "skip" : "clear_skipped"}, {"results", std::move(results)}});
}

asio::awaitable<mcp::ToolResult> run_repairs(Args& args, ToolEnv& env, bool ignore) {
  const json::value* repairs = args.get("repairs");
  const json::array* list = repairs ? repairs->if_array() : nullptr;
  if (!list || list->empty())
    throw ToolException(bad_argument("repairs", "missing",
                                     "Pass repairs: [{\"domain\":..., \"issue_id\":...}] "
                                     "(ha_get_system_health lists them)."));
  json::array results;
  for (const auto& r : *list) {
    const json::object* o = r.if_object();
    const json::value* domain = o ? o->if_contains("domain") : nullptr;
    const json::value* issue = o ? o->if_contains("issue_id") : nullptr;
    if (!domain || !issue || !domain->is_string() || !issue->is_string())
      throw ToolException(bad_argument("repairs", "each item needs domain and issue_id (strings)",
                                       "e.g. {\"domain\":\"hassio\",\"issue_id\":\"...\"}."));
    auto setting =
        system::set_repair_ignored(env, std::string(domain->get_string()), std::string(issue->get_string()), ignore);
    json::object done = co_await std::move(setting);
    results.push_back(std::move(done));
  }
  co_return ok(json::object{{"results", std::move(results)}});
}

asio::awaitable<mcp::ToolResult> run_manage_updates(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string action = args.str("action", "list");
  if (action == "list") return run_list(args, env);
  if (action == "get") return run_get(args, env);
  if (action == "install") return updates::run_install(args, env, ctx);
  if (action == "skip" || action == "clear_skipped") return run_skip(args, env, action == "skip");
  // ha_ignore_repair (a hidden alias fixing action=ignore_repair) names one issue: its own arguments and answer.
  if (action == "ignore_repair" && (args.has("issue_id") || args.has("domain") || args.has("ignore"))) {
    static const RunFn ignore_one_repair = old_tool_runner({"ignore_repair", make_ignore_repair_spec()});
    return ignore_one_repair(args, env, ctx);
  }
  if (action == "ignore_repair" || action == "unignore_repair")
    return run_repairs(args, env, action == "ignore_repair");
  throw ToolException(bad_argument("action", "unknown action '" + action + "'",
                                   "Use list, get, install, skip, clear_skipped, ignore_repair or unignore_repair."));
}

}  // namespace

ToolSpec make_manage_updates_spec() {
  ToolSpec s;
  s.name = "ha_manage_updates";
  s.title = "Updates";
  s.description =
      "Update entities by category (core, os, supervisor, addons, devices, hacs, other): list (pending), get (release "
      "notes), install entity_ids or categories (confirm=true; progress), skip, clear_skipped; ignore/unignore_repair.";
  s.input_schema = R"J({"type":"object","properties":{
"action":{"type":"string","enum":["list","get","install","skip","clear_skipped","ignore_repair","unignore_repair"]},
"entity_ids":{"type":"array","items":{"type":"string"}},"categories":{"type":"array","items":{"type":"string"}},
"include_skipped":{"type":"boolean"},"include_release_notes":{"type":"boolean"},"backup":{"type":"boolean"},
"confirm":{"type":"boolean"},"repairs":{"type":"array","items":{"type":"object"}}}})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.mixed = true;
  s.also_accepts = {{"entity_ids", R"({"type":["string","array"],"items":{"type":"string"}})"},
                    {"categories", R"({"type":["string","array"],"items":{"type":"string"}})"}};
  s.hidden_args = {"version", "wait",     "entity_id",
                   "domain",  "issue_id", "ignore"};  // the last three: ha_ignore_repair's
  s.alias_args = {{"ha_ignore_repair", R"({"action":"ignore_repair"})"}};
  s.task_actions = {"install"};
  s.run = run_manage_updates;
  return s;
}

}  // namespace hamcp::tools
