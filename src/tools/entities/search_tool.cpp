// ha_search: find entities by words (names, aliases, areas, devices, labels;
// typo tolerant) and/or exact filters, from the in-memory index. Also serves
// the 6.x names ha_search_entities and ha_deep_search.
#include <algorithm>
#include <cmath>

#include "home/entity_docs.hpp"
#include "tools/entities/config_search.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/entities/entity_view.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

// ha_deep_search's search_types -> domains.
std::vector<std::string> domains_for_types(const std::vector<std::string>& types) {
  std::vector<std::string> out;
  for (const auto& t : types) {
    if (t == "helper") {
      for (const char* d : {"input_boolean", "input_number", "input_select", "input_text", "input_datetime",
                            "input_button", "counter", "timer", "schedule"})
        out.emplace_back(d);
      out.emplace_back("helper");  // the config results' helpers, flow helpers (template, ...) too
    } else if (t == "automation" || t == "script" || t == "scene" || t == "dashboard") {
      out.push_back(t);
    }
  }
  return out;
}

json::object hit_view(const ha::Snapshot& snap, const search::Hit& hit, bool with_attributes, bool with_times) {
  json::object item;
  ViewOptions vo;
  vo.attributes = with_attributes;
  vo.times = with_times;
  if (ha::EntityStatePtr st = snap.states.find(hit.entity_id)) {
    item = entity_view(snap, *st, vo);
  } else {
    const ha::RegistryItem entry_item = snap.registry(ha::RegistryKind::entity).find(hit.entity_id);
    const json::object* entry = entry_item.get();
    item.emplace("entity_id", hit.entity_id);
    item.emplace("name", display_name(nullptr, entry));
    item.emplace("disabled", true);
  }
  item.emplace("score", static_cast<std::int64_t>(std::lround(hit.score)));  // integers: compact JSON
  if (!hit.matched_field.empty() && hit.matched_field != "entity_id" && hit.matched_field != "friendly_name" &&
      hit.matched_field != "registry_name" && hit.matched_field != "object_id")
    item.emplace("match", hit.matched_field + ": " + hit.matched_text);
  return item;
}

// One query, or with several domains the best offset+limit of each, merged by score.
search::Result query_domains(ToolEnv& env, search::Query base, const std::vector<std::string>& domains,
                             std::size_t offset, std::size_t limit) {
  search::Result result;
  if (domains.size() <= 1) {
    if (!domains.empty()) base.domain = domains.front();
    base.limit = limit;
    base.offset = offset;
    return env.index.query(base);
  }
  base.limit = offset + limit;
  for (const auto& d : domains) {
    search::Query q = base;
    q.domain = d;
    search::Result part = env.index.query(q);
    result.total += part.total;
    for (auto& h : part.hits) result.hits.push_back(std::move(h));
  }
  std::stable_sort(result.hits.begin(), result.hits.end(),
                   [](const search::Hit& a, const search::Hit& b) { return a.score > b.score; });
  if (offset >= result.hits.size())
    result.hits.clear();
  else
    result.hits.erase(result.hits.begin(), result.hits.begin() + static_cast<std::ptrdiff_t>(offset));
  if (result.hits.size() > limit) result.hits.resize(limit);
  return result;
}

boost::asio::awaitable<mcp::ToolResult> run_search(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 10), 1, 100));
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));

  search::Query base;
  base.text = args.str("query");
  auto put = [&](std::optional<std::string>& slot, const char* key) {
    if (auto v = args.opt_str(key); v && !v->empty()) slot = *v;
  };
  put(base.area, "area");
  put(base.floor, "floor");
  put(base.label, "label");
  put(base.state, "state");
  put(base.device_class, "device_class");
  base.include_hidden = args.flag("include_hidden", false);

  std::vector<std::string> domains = domains_for_types(args.list("search_types"));
  if (auto d = args.opt_str("domain"); d && !d->empty()) domains = {*d};

  search::Result result = query_domains(env, base, domains, offset, limit);

  const std::vector<std::string> fields = args.list("fields");
  const bool want_attrs =
      std::find(fields.begin(), fields.end(), "attributes") != fields.end() ||
      std::any_of(fields.begin(), fields.end(), [](const std::string& f) { return f.rfind("attributes.", 0) == 0; });
  const bool want_times = std::find(fields.begin(), fields.end(), "last_changed") != fields.end() ||
                          std::find(fields.begin(), fields.end(), "last_updated") != fields.end();
  PageWriter page(env.options.response_budget);
  for (const auto& hit : result.hits) {
    json::object item = hit_view(*snap, hit, want_attrs, want_times);
    if (!fields.empty()) item = project(item, fields);
    if (!page.add(std::move(item))) break;
  }
  const std::size_t returned = page.count();
  json::object body;
  json::array items = page.take();
  if (args.flag("group_by_domain", false)) {
    json::object groups;
    for (auto& item : items) {
      std::string id = str_of(item.if_object(), "entity_id");
      std::string domain = id.substr(0, id.find('.'));
      json::value& slot = groups[domain.empty() ? "other" : domain];
      if (!slot.is_array()) slot = json::array();
      slot.get_array().push_back(std::move(item));
    }
    body.emplace("groups", std::move(groups));
  } else {
    body.emplace("results", std::move(items));
  }
  put_page_info(body, offset, returned, result.total, page.budget_cut());
  if (result.total == 0) {
    body.emplace("hint", base.text.empty() ? "No entity matches these filters; check them with ha_get_overview."
                                           : "Nothing matched; try fewer or other words, or drop filters.");
  }
  auto configs = add_config_results(args, env, domains, limit, body);  // named: GCC 12 coroutine temporaries
  co_await std::move(configs);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_search_spec() {
  ToolSpec s;
  s.name = "ha_search";
  s.title = "Search entities";
  s.description =
      "Find entities by words (names, aliases, areas, devices, labels; typo-tolerant) and/or exact filters. "
      "Returns entity_id, name, state, area, score. Use this before acting on anything.";
  s.input_schema = R"J({"type":"object","properties":{
"query":{"type":"string","maxLength":1000,"description":"Words, e.g. 'kitchen lights'. Empty: list by filters"},
"domain":{"type":"string"},"area":{"type":"string","description":"Area id or name"},"floor":{"type":"string"},
"label":{"type":"string"},"state":{"type":"string"},"device_class":{"type":"string"},
"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},"offset":{"type":"integer","minimum":0,"maximum":1000000000},
"include_hidden":{"type":"boolean"},"group_by_domain":{"type":"boolean"},
"fields":{"type":"array","items":{"type":"string"},"description":"Keep only these keys, e.g. entity_id,state,attributes.brightness,last_changed"}}})J";
  s.output_schema =
      R"J({"type":"object","properties":{"results":{"type":"array"},"config_results":{"type":"array"},"groups":{"type":"object"},"total":{"type":"integer"},"has_more":{"type":"boolean"},"next_offset":{"type":"integer"}}})J";
  s.annotations = read_only();
  s.aliases = {"ha_search_entities", "ha_deep_search"};
  s.legacy_args = {{"domain_filter", "domain"}, {"area_filter", "area"}, {"state_filter", "state"}};
  s.hidden_args = {"search_types", "exact_match", "include_config", "config_time_budget"};
  s.run = run_search;
  return s;
}

}  // namespace hamcp::tools
