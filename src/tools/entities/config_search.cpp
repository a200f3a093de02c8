#include "tools/entities/config_search.hpp"

#include <algorithm>
#include <cmath>

#include "home/config_sources.hpp"
#include "tools/helpers/helper_ha.hpp"

namespace hamcp::tools {

namespace {

constexpr const char* kConfigKinds[] = {"automation", "script", "scene", "helper", "dashboard"};
constexpr std::chrono::milliseconds kMaxWait{5000};

bool is_config_kind(std::string_view d) {
  return std::find(std::begin(kConfigKinds), std::end(kConfigKinds), d) != std::end(kConfigKinds);
}

// The kinds this call searches: all of them, those among `domains` (a helper
// domain such as input_boolean or template searches the helpers), or none.
std::vector<std::string> kinds_for(const Args& args, const std::vector<std::string>& domains) {
  for (const char* entity_only : {"area", "floor", "label", "state", "device_class"})
    if (args.has(entity_only)) return {};
  if (domains.empty()) return {std::begin(kConfigKinds), std::end(kConfigKinds)};
  std::vector<std::string> kinds;
  bool helpers = false;
  for (const auto& d : domains) {
    if (is_config_kind(d))
      kinds.push_back(d);
    else if (home::is_storage_helper_domain(d) || helpers::is_flow_helper_domain(d))
      helpers = true;
  }
  if (helpers && std::find(kinds.begin(), kinds.end(), "helper") == kinds.end()) kinds.emplace_back("helper");
  return kinds;
}

// A helper hit names what the helper tools take: helper_type and helper_id
// (storage) or entry_id (config entry), with the entry's title and entities.
void add_meta(json::object& item, const json::object& meta) {
  for (const auto& kv : meta)
    if (kv.key() != "kind" || !item.contains("kind")) item[kv.key()] = kv.value();
}

// With domains naming helper types (input_boolean, template...), only those.
bool wanted_helper(ToolEnv& env, const search::Hit& hit, const std::vector<std::string>& domains) {
  if (domains.empty() || std::find(domains.begin(), domains.end(), "helper") != domains.end()) return true;
  const std::optional<json::object> meta = env.configs.meta_of(hit.entity_id);
  const json::value* type = meta ? meta->if_contains("helper_type") : nullptr;
  return type && type->is_string() &&
         std::find(domains.begin(), domains.end(), std::string_view(type->get_string())) != domains.end();
}

json::object hit_item(ToolEnv& env, const search::Hit& hit, bool with_config) {
  json::object item;
  item["entity_id"] = hit.entity_id;
  const std::optional<json::object> meta = env.configs.meta_of(hit.entity_id);
  item["kind"] =
      meta && meta->contains("kind") ? meta->at("kind") : json::value(hit.entity_id.substr(0, hit.entity_id.find('.')));
  const bool helper = item["kind"] == "helper";
  if (helper) {
    if (meta->contains("entry_id")) item.erase("entity_id");  // a config entry: its entities are listed
    add_meta(item, *meta);
  }
  if (item["kind"] == "dashboard") {  // named by url_path (what the dashboard tools take), not an entity
    item.erase("entity_id");
    add_meta(item, *meta);
    if (with_config)
      if (auto doc = env.configs.config_of(hit.entity_id)) item["views"] = doc->as_object().at("views");
    item["score"] = static_cast<std::int64_t>(std::lround(hit.score));
    if (hit.matched_field == "aliases" || hit.matched_field == "alias") item["match"] = hit.matched_text;
    return item;
  }
  if (auto doc = env.configs.config_of(hit.entity_id); doc && doc->is_object()) {
    const json::object& cfg = doc->get_object();
    const char* name_key = item["kind"] == "scene" || helper ? "name" : "alias";
    if (const json::value* alias = cfg.if_contains(name_key)) item["alias"] = *alias;
    if (with_config) item["config"] = *doc;
  }
  item["score"] = static_cast<std::int64_t>(std::lround(hit.score));
  if (hit.matched_field == "aliases") {
    item["match"] = hit.matched_text;  // what inside the config matched: an entity id, a service, a trigger
  } else if (!hit.matched_field.empty() && hit.matched_field != "entity_id") {
    item["match"] = hit.matched_field + ": " + hit.matched_text;
  }
  return item;
}

}  // namespace

boost::asio::awaitable<void> add_config_results(Args& args, ToolEnv& env, const std::vector<std::string>& domains,
                                                std::size_t limit, json::object& body) {
  const std::string text = args.str("query");
  const std::vector<std::string> kinds = kinds_for(args, domains);
  if (text.empty() || kinds.empty()) co_return;
  if (const double budget = args.number("config_time_budget", 0); budget > 0 && !env.configs.status().ready) {
    const auto wait = std::min(kMaxWait, std::chrono::milliseconds(static_cast<std::int64_t>(budget * 1000)));
    auto waiting = env.configs.wait_ready(wait);  // named: GCC 12 coroutine temporaries
    co_await std::move(waiting);
  }
  std::vector<search::Hit> hits;
  // Every kind: one query over the whole config index (each of its documents is a config item)
  // rather than one per kind; its best `limit` are the merged per-kind lists' best `limit`.
  const bool every_kind = kinds.size() == std::size(kConfigKinds);
  for (const auto& kind : every_kind ? std::vector<std::string>{""} : kinds) {
    search::Query q;
    q.text = text;
    if (!kind.empty()) q.domain = kind;
    q.limit = limit;
    search::Result part = env.configs.query(q);
    for (auto& h : part.hits)
      if (kind != "helper" || wanted_helper(env, h, domains)) hits.push_back(std::move(h));  // "": all wanted
  }
  std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
  if (hits.size() > limit) hits.resize(limit);
  const bool with_config = args.flag("include_config", false);
  json::array items;
  for (const auto& hit : hits) items.push_back(hit_item(env, hit, with_config));
  body["config_results"] = std::move(items);
  const ConfigCache::Status status = env.configs.status();
  if (!status.ready)
    body["config_status"] = "loading: " + std::to_string(status.loaded) + " configs indexed, " +
                            std::to_string(status.pending) +
                            " to go; call again shortly (or pass config_time_budget, seconds) for all";
}

}  // namespace hamcp::tools
