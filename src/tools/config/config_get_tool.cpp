// ha_config_get: one automation, script or scene config with its config_hash
// and latest journaled edits; without an id, the items of that kind (ha-mcp's
// ha_config_get_scene list/search mode; search_in_config: the query also
// matches inside the configs, from the config cache behind ha_search).
#include "common/ascii.hpp"
#include "home/config_json.hpp"
#include "tools/config/config_target.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

using namespace config;

bool listed_domain(std::string_view entity_id, const Request& request) {
  for (Kind k : {Kind::automation, Kind::script, Kind::scene}) {
    if (!request.any_kind && k != request.kind) continue;
    const std::string prefix = std::string(name_of(k)) + ".";
    if (entity_id.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

// search_in_config: the query found in the item's cached config (entity ids, services, names...).
bool query_in_config(ToolEnv& env, const std::string& entity_id, const std::string& query) {
  const std::optional<json::value> config = env.configs.config_of(entity_id);
  return config && ascii_lower(json::serialize(*config)).find(query) != std::string::npos;
}

mcp::ToolResult list_items(Args& args, ToolEnv& env, const ha::Snapshot& snap, const Request& request) {
  const std::string query = ascii_lower(args.str("query"));
  const bool in_config = args.flag("search_in_config", false) && !query.empty();
  const std::int64_t limit = std::clamp<std::int64_t>(args.integer("limit", 50), 1, 500);
  const std::int64_t offset = std::max<std::int64_t>(args.integer("offset", 0), 0);
  std::vector<json::object> items;
  snap.states.for_each([&](const ha::EntityStatePtr& s) {
    if (!listed_domain(s->entity_id, request)) return;
    const std::string alias = s->attributes.string_of("friendly_name");
    const bool by_name = query.empty() || ascii_lower(alias).find(query) != std::string::npos ||
                         s->entity_id.find(query) != std::string::npos;
    const bool by_config = !by_name && in_config && query_in_config(env, s->entity_id, query);
    if (!by_name && !by_config) return;
    json::object item;
    item["entity_id"] = s->entity_id;
    item["alias"] = alias;
    item["state"] = s->state;
    if (by_config) item["matched_in_config"] = true;
    items.push_back(std::move(item));
  });
  std::sort(items.begin(), items.end(), [](const json::object& a, const json::object& b) {
    return a.at("entity_id").as_string() < b.at("entity_id").as_string();
  });
  PageWriter page(env.options.response_budget);
  std::size_t returned = 0;
  for (std::size_t i = static_cast<std::size_t>(offset); i < items.size() && returned < static_cast<std::size_t>(limit);
       ++i, ++returned)
    if (!page.add(std::move(items[i]))) break;
  returned = page.count();
  json::object body;
  if (!request.any_kind) body["kind"] = name_of(request.kind);
  body["items"] = page.take();
  put_page_info(body, static_cast<std::size_t>(offset), returned, items.size(), page.budget_cut());
  if (const ConfigCache::Status cache = env.configs.status(); in_config && !cache.ready)
    body["config_status"] = "loading: " + std::to_string(cache.loaded) + " configs indexed, " +
                            std::to_string(cache.pending) + " to go; call again shortly for matches in all configs";
  return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_config_get(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const Request request = request_of(args);
  ha::SnapshotPtr snap = co_await env.snapshot();
  if (request.ref.empty()) co_return list_items(args, env, *snap, request);
  auto resolving = require_target(env, *snap, request);  // named: GCC 12 coroutine temporaries
  const Target target = co_await std::move(resolving);
  std::string key = target.key;
  auto reading = read_config(env, target.kind, std::move(key));
  std::optional<json::value> stored = co_await std::move(reading);
  if (!stored) throw ToolException(not_found(env, *snap, target.kind, request.ref));
  json::object body;
  body["kind"] = name_of(target.kind);
  body["id"] = target.key;
  if (!target.entity_id.empty()) body["entity_id"] = target.entity_id;
  body["config_hash"] = home::config_hash(*stored);
  body["config"] = std::move(*stored);
  json::array edits;
  for (const auto& e : env.journal.list(name_of(target.kind), target.key, 3)) edits.push_back(e.summary());
  if (!edits.empty()) body["edits"] = std::move(edits);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_config_get_spec() {
  ToolSpec s;
  s.name = "ha_config_get";
  s.title = "Get automation/script/scene config";
  s.description =
      "Read an automation, script or scene config with its config_hash (pass it to ha_config_set) and recent "
      "edits. id: entity_id, config id or alias. Without id: list them (query filters).";
  s.input_schema = R"J({"type":"object","properties":{
"kind":{"type":"string","enum":["automation","script","scene"]},
"id":{"type":"string"},"query":{"type":"string"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"config":{"type":"object"},"config_hash":{"type":"string"}}})J";
  s.annotations = read_only();
  s.aliases = {"ha_config_get_automation", "ha_config_get_script", "ha_config_get_scene"};
  s.hidden_args = {"identifier", "script_id", "scene_id", "search_in_config", "limit", "offset"};
  s.run = run_config_get;
  return s;
}

}  // namespace hamcp::tools
