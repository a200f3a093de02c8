// ha_manage_hacs (ha-mcp 8.7.0's name; its ha_get_hacs_info is a hidden
// alias): search HACS's store (query, category, installed_only, paged), one
// repository's info, download a version (confirm), add a custom repository,
// remove (confirm: uninstall, and drop a custom repository from the list),
// refresh (update_information). All through HACS's WebSocket API.
#include <algorithm>

#include "common/ascii.hpp"
#include "common/json_fields.hpp"
#include "tools/confirmation.hpp"
#include "tools/tool_error.hpp"
#include "tools/updates/hacs_ws.hpp"
#include "tools/updates/updates_tools.hpp"

namespace hamcp::tools {

namespace {

namespace asio = boost::asio;

constexpr std::size_t kDescriptionBytes = 160;

bool flag(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_bool() && v->get_bool();
}

std::string category_arg(Args& args) {
  if (!args.has("category")) return {};
  std::string c = hacs::category_name(args.str("category"));
  if (c.empty())
    throw ToolException(
        bad_argument("category", "unknown category '" + args.str("category") + "'",
                     "Use integration, lovelace (plugin), theme, appdaemon, python_script or template."));
  return c;
}

json::object summary(const json::object& r) {
  json::object out;
  for (const char* key : {"id", "full_name", "category", "installed", "installed_version", "available_version",
                          "pending_upgrade", "stars", "custom"})
    if (const json::value* v = r.if_contains(key); v && !v->is_null()) out[key] = *v;
  std::string description = string_or_empty(r, "description");
  if (description.size() > kDescriptionBytes) description = description.substr(0, kDescriptionBytes) + "...";
  if (!description.empty()) out["description"] = description;
  return out;
}

bool matches(const json::object& r, const std::string& query) {
  if (query.empty()) return true;
  std::string hay =
      string_or_empty(r, "full_name") + " " + string_or_empty(r, "name") + " " + string_or_empty(r, "description");
  if (const json::value* topics = r.if_contains("topics"); topics && topics->is_array())
    for (const auto& t : topics->get_array())
      if (t.is_string()) hay += " " + std::string(t.get_string());
  return ascii_lower(hay).find(ascii_lower(query)) != std::string::npos;
}

asio::awaitable<mcp::ToolResult> run_search(Args& args, ToolEnv& env) {
  const std::string category = category_arg(args);
  const std::string query = args.str("query");
  const bool installed_only = args.flag("installed_only", false);
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(0, args.integer("offset", 0)));
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("max_results", 20), 1, 100));
  auto listing = hacs::repositories(env);
  json::array repos = co_await std::move(listing);
  std::vector<json::object> hits;
  for (auto& r : repos) {
    json::object* o = r.if_object();
    if (!o || (!category.empty() && string_or_empty(*o, "category") != category)) continue;
    if ((installed_only && !flag(*o, "installed")) || !matches(*o, query)) continue;
    hits.push_back(std::move(*o));
  }
  std::stable_sort(hits.begin(), hits.end(), [](const json::object& a, const json::object& b) {
    if (flag(a, "installed") != flag(b, "installed")) return flag(a, "installed");
    const json::value* sa = a.if_contains("stars");
    const json::value* sb = b.if_contains("stars");
    return (sa && sa->is_int64() ? sa->get_int64() : 0) > (sb && sb->is_int64() ? sb->get_int64() : 0);
  });
  PageWriter page(env.options.response_budget);
  std::size_t i = offset;
  for (; i < hits.size() && page.count() < limit; ++i)
    if (!page.add(summary(hits[i]))) break;
  json::object body{{"repositories", page.take()}};
  put_page_info(body, offset, i - std::min(i, offset), hits.size(), page.budget_cut());
  co_return ok(std::move(body));
}

// hacs/repository/info without the long or internal fields.
json::object info_view(json::object r) {
  for (const char* key : {"local_path", "hide", "hide_default_branch", "state", "new", "country"}) r.erase(key);
  std::string more = string_or_empty(r, "additional_info");
  if (more.size() > 2000) r["additional_info"] = more.substr(0, 2000) + "... (cut)";
  return r;
}

asio::awaitable<std::string> id_arg(Args& args, ToolEnv& env) {
  std::string given = args.str("repository_id");
  if (given.empty()) given = args.str("repository");
  auto resolving = hacs::repository_id(env, given, "repository_id");
  std::string id = co_await std::move(resolving);
  co_return id;
}

asio::awaitable<mcp::ToolResult> run_info(Args& args, ToolEnv& env) {
  auto resolving = id_arg(args, env);
  const std::string id = co_await std::move(resolving);
  auto reading = hacs::info(env, id);
  json::object r = co_await std::move(reading);
  co_return ok(info_view(std::move(r)));
}

asio::awaitable<mcp::ToolResult> run_download(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  auto resolving = id_arg(args, env);
  const std::string id = co_await std::move(resolving);
  auto reading = hacs::info(env, id);
  const json::object before = co_await std::move(reading);
  const std::string version = args.str("version");
  json::object plan{
      {"repository_id", id},
      {"full_name", string_or_empty(before, "full_name")},
      {"installed_version", before.contains("installed_version") ? before.at("installed_version") : nullptr},
      {"version", version.empty() ? json::value(before.at("available_version")) : json::value(version)}};
  json::object fields = plan;
  fields["downloaded"] = false;
  json::object change{{"installed_version", plan.at("installed_version")}, {"version", plan.at("version")}};
  auto asking =
      confirm_or_preview(args, env, ctx,
                         Preview{"download", json::string(string_or_empty(before, "full_name")), std::move(change),
                                 "downloads this version into Home Assistant", std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::object message{{"type", "hacs/repository/download"}, {"repository", id}};
  if (!version.empty()) message["version"] = version;
  auto downloading = hacs::command(env, std::move(message), 2 * hacs::kGithubTimeout);
  co_await std::move(downloading);
  auto rereading = hacs::info(env, id);
  const json::object after = co_await std::move(rereading);
  plan["downloaded"] = true;
  plan["installed_version_now"] = after.contains("installed_version") ? after.at("installed_version") : nullptr;
  if (string_or_empty(after, "category") == "integration")
    plan["note"] = "restart Home Assistant (ha_restart) to load the integration";
  else if (string_or_empty(after, "category") == "plugin")
    plan["note"] = "reload the browser page to load the card";
  co_return ok(std::move(plan));
}

asio::awaitable<mcp::ToolResult> run_add(Args& args, ToolEnv& env) {
  const std::string repository = args.str("repository");
  if (repository.empty())
    throw ToolException(bad_argument("repository", "missing", "Pass repository: owner/name or its GitHub URL."));
  const std::string category = category_arg(args);
  if (category.empty())
    throw ToolException(bad_argument("category", "missing", "Pass the category: integration, lovelace, theme, ..."));
  json::object message{{"type", "hacs/repositories/add"}, {"repository", repository}, {"category", category}};
  auto adding = hacs::command(env, std::move(message), hacs::kGithubTimeout);
  co_await std::move(adding);
  // HACS answers {} even when it failed (it reports that as an event): the list says.
  try {
    auto resolving = hacs::repository_id(env, repository, "repository");
    const std::string id = co_await std::move(resolving);
    co_return ok(json::object{{"added", true}, {"repository_id", id}, {"category", category}});
  } catch (const ToolException&) {
  }
  throw ToolException("hacs_add_failed", "HACS did not add " + repository + " as a " + category + " repository.",
                      "Check that the GitHub repository exists, is public and is a HACS " + category +
                          " repository (hacs.json); HACS's log says why.");
}

asio::awaitable<mcp::ToolResult> run_remove(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  auto resolving = id_arg(args, env);
  const std::string id = co_await std::move(resolving);
  auto reading = hacs::info(env, id);
  const json::object r = co_await std::move(reading);
  const bool installed = flag(r, "installed"), custom = flag(r, "custom");
  json::object body{{"repository_id", id},
                    {"full_name", string_or_empty(r, "full_name")},
                    {"uninstall", installed},
                    {"remove_custom_repository", custom}};
  if (!installed && !custom)
    throw ToolException(bad_argument(
        "repository_id", string_or_empty(r, "full_name") + " is neither installed nor custom", "Nothing to remove."));
  json::object fields = body;
  fields["removed"] = false;
  json::object change{{"uninstall", installed}, {"remove_custom_repository", custom}};
  auto asking = confirm_or_preview(
      args, env, ctx,
      Preview{"remove", json::string(string_or_empty(r, "full_name")), std::move(change), {}, std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  if (installed) {
    auto uninstalling =
        hacs::command(env, json::object{{"type", "hacs/repository/remove"}, {"repository", id}}, hacs::kGithubTimeout);
    co_await std::move(uninstalling);
  }
  if (custom) {
    auto dropping = hacs::command(env, json::object{{"type", "hacs/repositories/remove"}, {"repository", id}});
    co_await std::move(dropping);
  }
  body["removed"] = true;
  if (installed && string_or_empty(r, "category") == "integration")
    body["note"] = "restart Home Assistant to unload it";
  co_return ok(std::move(body));
}

asio::awaitable<mcp::ToolResult> run_refresh(Args& args, ToolEnv& env) {
  auto resolving = id_arg(args, env);
  const std::string id = co_await std::move(resolving);
  auto refreshing =
      hacs::command(env, json::object{{"type", "hacs/repository/refresh"}, {"repository", id}}, hacs::kGithubTimeout);
  co_await std::move(refreshing);
  auto reading = hacs::info(env, id);
  json::object r = co_await std::move(reading);
  co_return ok(json::object{{"refreshed", true}, {"repository", summary(r)}});
}

asio::awaitable<mcp::ToolResult> run_hacs(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string action = args.str("action");
  if (action == "search") return run_search(args, env);
  if (action == "info") return run_info(args, env);
  if (action == "download") return run_download(args, env, ctx);
  if (action == "add_repository") return run_add(args, env);
  if (action == "remove") return run_remove(args, env, ctx);
  if (action == "update_information" || action == "refresh") return run_refresh(args, env);
  throw ToolException(bad_argument("action", action.empty() ? "missing" : "unknown action '" + action + "'",
                                   "Use search, info, download, add_repository, remove or update_information."));
}

}  // namespace

ToolSpec make_manage_hacs_spec() {
  ToolSpec s;
  s.name = "ha_manage_hacs";
  s.title = "HACS";
  s.description =
      "HACS store: search, info, download (confirm=true), add_repository (custom), remove (confirm=true), "
      "update_information (refresh).";
  s.input_schema = R"J({"type":"object","properties":{
"action":{"type":"string","enum":["search","info","download","add_repository","remove","update_information"]},
"query":{"type":"string"},"category":{"type":"string"},"installed_only":{"type":"boolean"},
"max_results":{"type":"integer"},"offset":{"type":"integer"},"repository_id":{"type":"string"},
"version":{"type":"string"},"repository":{"type":"string"},"confirm":{"type":"boolean"}},"required":["action"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.mixed = true;
  s.aliases = {"ha_get_hacs_info"};
  s.run = run_hacs;
  return s;
}

}  // namespace hamcp::tools
