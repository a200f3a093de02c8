// ha_get_app (ha-mcp 8.7.0's name; ha_get_addon before): the installed
// add-ons or the store's, filtered by query and repository; with `slug` one
// add-on's details (options masked, config_hash for ha_manage_app) and stats.
#include "common/ascii.hpp"
#include "home/config_json.hpp"
#include "tools/addons/addon_config.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/response.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {
namespace {

const json::array* array_at(const json::value& v, std::string_view key) {
  const json::object* o = v.if_object();
  const json::value* a = o ? o->if_contains(key) : nullptr;
  return a && a->is_array() ? &a->get_array() : nullptr;
}

json::object summary(const json::object& a, bool store) {
  json::object out;
  for (const char* k : {"slug", "name", "description", "state", "version", "version_latest", "update_available",
                        "repository", "installed"})
    if (const json::value* v = a.if_contains(k); v && !(store && std::string_view(k) == "state")) out[k] = *v;
  return out;
}

bool wanted(const json::object& a, const std::string& query, const std::string& repository) {
  if (!repository.empty()) {
    const json::value* r = a.if_contains("repository");
    if (!r || !r->is_string() || ascii_lower(r->get_string()) != repository) return false;
  }
  if (query.empty()) return true;
  std::string text;
  for (const char* k : {"slug", "name", "description"})
    if (const json::value* v = a.if_contains(k); v && v->is_string()) text += ascii_lower(v->get_string()) + " ";
  return text.find(query) != std::string::npos;
}

boost::asio::awaitable<mcp::ToolResult> list_apps(Args& args, ToolEnv& env, bool store) {
  auto reading = addons::supervisor(env, "get", store ? "/store" : "/addons");
  const json::value data = co_await std::move(reading);
  const std::string query = ascii_lower(args.str("query"));
  const std::string repository = ascii_lower(args.str("repository"));
  std::vector<json::object> items;
  if (const json::array* list = array_at(data, "addons"))
    for (const auto& v : *list)
      if (const json::object* a = v.if_object(); a && wanted(*a, query, repository))
        items.push_back(summary(*a, store));
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 50), 1, 500));
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  PageWriter page(env.options.response_budget);
  for (std::size_t i = offset; i < items.size() && page.count() < limit; ++i)
    if (!page.add(std::move(items[i]))) break;
  json::object body;
  const std::size_t returned = page.count();
  body.emplace("source", store ? "available" : "installed");
  body.emplace("addons", page.take());
  put_page_info(body, offset, returned, items.size(), page.budget_cut());
  if (const json::array* repos = array_at(data, "repositories")) {
    json::array brief;
    for (const auto& r : *repos)
      if (const json::object* o = r.if_object())
        brief.push_back(json::object{{"slug", o->at("slug")}, {"name", o->at("name")}, {"source", o->at("source")}});
    body.emplace("repositories", std::move(brief));
  }
  co_return ok(std::move(body));
}

json::object details(const json::object& info) {
  json::object out;
  for (const char* k : {"slug",
                        "name",
                        "description",
                        "state",
                        "version",
                        "version_latest",
                        "update_available",
                        "repository",
                        "url",
                        "boot",
                        "auto_update",
                        "watchdog",
                        "network",
                        "network_description",
                        "ingress",
                        "ingress_port",
                        "ingress_url",
                        "webui",
                        "hostname",
                        "ip_address",
                        "hassio_role",
                        "host_network",
                        "startup",
                        "stage"})
    if (const json::value* v = info.if_contains(k)) out[k] = *v;
  if (const json::value* o = info.if_contains("options")) out["options"] = addons::masked(*o);
  if (const json::value* s = info.if_contains("schema"); s && s->is_array() && !s->get_array().empty())
    out["schema"] = *s;
  out["config_hash"] = home::config_hash(addons::current_config(info));
  return out;
}

boost::asio::awaitable<mcp::ToolResult> one_app(Args& args, ToolEnv& env, const std::string& slug) {
  if (args.str("source") == "available") {
    auto reading = addons::supervisor(env, "get", "/store/addons/" + slug);
    json::value store = co_await std::move(reading);
    json::object body{{"source", "available"}, {"addon", std::move(store)}};
    co_return ok(std::move(body));
  }
  auto reading = addons::supervisor(env, "get", "/addons/" + slug + "/info");
  const json::value info = co_await std::move(reading);
  json::object body{{"addon", details(info.is_object() ? info.get_object() : json::object{})}};
  if (args.flag("include_stats", false)) {
    auto stats_reading = addons::supervisor(env, "get", "/addons/" + slug + "/stats");
    json::value stats = co_await std::move(stats_reading);
    body.emplace("stats", std::move(stats));
  }
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_get_app(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string source = args.str("source", "installed");
  if (source != "installed" && source != "available")
    throw ToolException(bad_argument("source", "must be installed or available", "Use source=\"installed\"."));
  if (args.has("slug")) {
    const std::string slug = addons::checked_slug(args);
    auto step1 = one_app(args, env, slug);
    co_return co_await std::move(step1);
  }
  auto step2 = list_apps(args, env, source == "available");
  co_return co_await std::move(step2);
}

}  // namespace

ToolSpec make_get_app_spec() {
  ToolSpec s;
  s.name = "ha_get_app";
  s.title = "Add-ons";
  s.description =
      "Supervisor add-ons (HA OS/Supervised): installed or available (store) list filtered by query/repository; "
      "slug: one add-on's state, options (secrets masked), network, config_hash.";
  s.input_schema = R"J({"type":"object","properties":{
"source":{"enum":["installed","available"],"default":"installed"},"slug":{"type":"string"},
"include_stats":{"type":"boolean"},"query":{"type":"string"},"repository":{"type":"string"},
"limit":{"type":"integer","minimum":1,"maximum":500},"offset":{"type":"integer","minimum":0}}})J";
  s.output_schema = R"J({"type":"object","properties":{"addons":{"type":"array"},"addon":{"type":"object"}}})J";
  s.annotations = read_only();
  s.annotations.open_world_hint = true;
  s.aliases = {"ha_get_addon"};
  s.run = run_get_app;
  return s;
}

}  // namespace hamcp::tools
