// ha_get_overview: the home at a glance, deterministic (sorted, never
// sampled) and sized by detail level. Also serves ha_get_system_version.
#include <algorithm>
#include <map>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "tools/entity_docs.hpp"
#include "tools/entity_tools.hpp"
#include "tools/entity_view.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

struct DomainInfo {
  std::size_t count = 0;
  // Distinct states, capped: numeric sensors have a value per entity and a
  // full histogram of 100k values would cost more than the rest together.
  std::unordered_map<std::string_view, std::size_t> states;
  bool states_capped = false;
  std::vector<ha::EntityStatePtr> entities;  // standard/full only
};
constexpr std::size_t kMaxDistinctStates = 32;

std::string_view sv_of(const json::object* o, std::string_view key) {
  if (!o) return {};
  const json::value* v = o->if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

// entity_id -> area_id (own area, else the device's), derived from the entity
// and device registries. Registries change rarely while states change all the
// time, so this is computed once per registry pair and reused: reading area
// ids out of 100k cold JSON objects per call is what made overviews slow.
struct AreaMap {
  ha::RegistryPtr entities, devices;  // held: identity check without pointer reuse
  std::unordered_map<std::string, std::string> area_of;
};

std::shared_ptr<const AreaMap> area_map_for(const ha::Snapshot& snap) {
  static std::mutex mutex;
  static std::shared_ptr<const AreaMap> cached;
  const ha::RegistryPtr& ents = snap.registries[static_cast<std::size_t>(ha::RegistryKind::entity)];
  const ha::RegistryPtr& devs = snap.registries[static_cast<std::size_t>(ha::RegistryKind::device)];
  {
    std::lock_guard lock(mutex);
    if (cached && cached->entities == ents && cached->devices == devs) return cached;
  }
  auto fresh = std::make_shared<AreaMap>();
  fresh->entities = ents;
  fresh->devices = devs;
  std::unordered_map<std::string_view, std::string_view> device_area;
  for (const auto& d : snap.registry(ha::RegistryKind::device).items) {
    const json::object* o = d.if_object();
    std::string_view id = sv_of(o, "id"), area = sv_of(o, "area_id");
    if (!id.empty() && !area.empty()) device_area.emplace(id, area);
  }
  const auto& items = snap.registry(ha::RegistryKind::entity).items;
  fresh->area_of.reserve(items.size());
  for (const auto& e : items) {
    const json::object* o = e.if_object();
    std::string_view id = sv_of(o, "entity_id"), area = sv_of(o, "area_id");
    if (area.empty())
      if (auto it = device_area.find(sv_of(o, "device_id")); it != device_area.end()) area = it->second;
    if (!id.empty() && !area.empty()) fresh->area_of.emplace(std::string(id), std::string(area));
  }
  std::lock_guard lock(mutex);
  cached = fresh;
  return fresh;
}

boost::asio::awaitable<mcp::ToolResult> run_overview(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const std::string detail = args.str("detail", "minimal");
  if (detail != "minimal" && detail != "standard" && detail != "full")
    throw ToolException(bad_argument("detail", "must be minimal, standard or full", "Use detail=\"standard\"."));
  const bool list_entities = detail != "minimal";
  const auto per_domain = static_cast<std::size_t>(
      std::clamp<std::int64_t>(args.integer("limit", detail == "full" ? 50 : 10), 1, 1000));
  const std::vector<std::string> domains_filter = args.list("domains");
  const std::string area_filter = args.str("area");

  // Views into the snapshot's JSON: `snap` keeps it alive for the whole call.
  std::map<std::string_view, DomainInfo> domains;
  std::unordered_map<std::string_view, std::size_t> area_counts;  // area_id -> entities
  const auto& area_reg = snap->registry(ha::RegistryKind::area);
  std::string area_id_filter;
  if (!area_filter.empty()) {
    for (const auto& a : area_reg.items) {
      const json::object* ao = a.if_object();
      if (str_of(ao, "area_id") == area_filter || str_of(ao, "name") == area_filter) area_id_filter = str_of(ao, "area_id");
    }
    if (area_id_filter.empty())
      throw ToolException(ToolError{"area_not_found", "No area '" + area_filter + "'.",
                                    "Call ha_get_overview without area to see the area list.", {}});
  }
  std::shared_ptr<const AreaMap> areas_of = area_map_for(*snap);

  snap->states.for_each([&](const ha::EntityStatePtr& st) {
    const std::string_view id = st->entity_id;
    const std::string_view domain = id.substr(0, id.find('.'));
    std::string_view area;
    if (auto it = areas_of->area_of.find(st->entity_id); it != areas_of->area_of.end()) area = it->second;
    if (!area_id_filter.empty() && area != area_id_filter) return;
    ++area_counts[area];
    if (!domains_filter.empty() && std::find(domains_filter.begin(), domains_filter.end(), domain) == domains_filter.end())
      return;
    DomainInfo& d = domains[domain];
    ++d.count;
    if (auto it = d.states.find(st->state); it != d.states.end()) ++it->second;
    else if (d.states.size() < kMaxDistinctStates) d.states.emplace(st->state, 1);
    else d.states_capped = true;
    if (list_entities) d.entities.push_back(st);
  });
  // Deterministic: entities by id, the first `limit` per domain.
  for (auto& [name, d] : domains) {
    auto by_id = [](const ha::EntityStatePtr& a, const ha::EntityStatePtr& b) { return a->entity_id < b->entity_id; };
    const std::size_t keep = std::min(per_domain, d.entities.size());
    std::partial_sort(d.entities.begin(), d.entities.begin() + static_cast<std::ptrdiff_t>(keep), d.entities.end(), by_id);
    d.entities.resize(keep);
  }

  json::object body;
  json::object home;
  if (snap->config) {
    home.emplace("name", str_of(snap->config.get(), "location_name"));
    home.emplace("time_zone", str_of(snap->config.get(), "time_zone"));
  }
  home.emplace("version", snap->ha_version);
  home.emplace("entities", snap->states.size());
  home.emplace("mirror", ha::to_string(env.ha.status().state));
  body.emplace("home", std::move(home));

  std::vector<json::object> area_list;
  for (const auto& a : area_reg.items) {
    const json::object* ao = a.if_object();
    const std::string id = str_of(ao, "area_id");
    if (!area_id_filter.empty() && id != area_id_filter) continue;
    json::object area;
    area.emplace("area_id", id);
    area.emplace("name", str_of(ao, "name"));
    if (std::string floor = str_of(ao, "floor_id"); !floor.empty()) {
      std::string fname = str_of(snap->registry(ha::RegistryKind::floor).find(floor), "name");
      area.emplace("floor", fname.empty() ? floor : fname);
    }
    auto it = area_counts.find(std::string_view(id));
    area.emplace("entities", it == area_counts.end() ? 0 : it->second);
    area_list.push_back(std::move(area));
  }
  std::sort(area_list.begin(), area_list.end(), [](const json::object& a, const json::object& b) {
    return a.at("name").as_string() < b.at("name").as_string();
  });
  // Areas get at most a third of the budget; a huge home lists the rest via area filters.
  PageWriter area_page(env.options.response_budget / 3);
  for (auto& a : area_list)
    if (!area_page.add(std::move(a))) break;
  const std::size_t areas_shown = area_page.count();
  body.emplace("areas", area_page.take());
  if (area_page.budget_cut()) {
    body.emplace("areas_total", area_list.size());
    body.emplace("areas_notice", "Only the first " + std::to_string(areas_shown) + " of " +
                                     std::to_string(area_list.size()) +
                                     " areas (by name) fit; pass area=<name> or use ha_search with area.");
  }

  // Domains: counts + the most common states; entities (standard/full) fill
  // the byte budget in domain order and stop with a truncation notice.
  PageWriter budget(env.options.response_budget > json_size(body) ? env.options.response_budget - json_size(body) : 1);
  json::object out_domains;
  std::size_t listed = 0, total_listable = 0;
  ViewOptions vo;
  vo.place = detail == "full";
  vo.times = detail == "full";
  for (auto& [name, d] : domains) {
    json::object dom;
    dom.emplace("count", d.count);
    std::vector<std::pair<std::string_view, std::size_t>> states(d.states.begin(), d.states.end());
    // Most common first; ties by name, so the output never depends on hash order.
    std::sort(states.begin(), states.end(),
              [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    const bool numeric_domain = name == "sensor" || name == "number" || name == "input_number";
    if (!d.states_capped && (!numeric_domain || states.size() <= 5)) {
      json::object hist;
      for (std::size_t i = 0; i < states.size() && i < 5; ++i) hist.emplace(states[i].first, states[i].second);
      dom.emplace("states", std::move(hist));
    }
    if (list_entities) {
      total_listable += d.entities.size();
      json::array ents;
      for (const auto& st : d.entities) {
        json::object v = entity_view(*snap, *st, vo);
        if (!budget.add(json::value(v))) break;
        ents.emplace_back(std::move(v));
        ++listed;
      }
      const std::size_t shown = ents.size();
      dom.emplace("entities", std::move(ents));
      if (d.count > shown) dom.emplace("more", d.count - shown);
    }
    out_domains.emplace(std::string(name), std::move(dom));
  }
  body.emplace("domains", std::move(out_domains));
  if (budget.budget_cut()) {
    body.emplace("truncated", true);
    body.emplace("notice", "Response size limit reached after " + std::to_string(listed) + " of " +
                               std::to_string(total_listable) +
                               " entities; pass domains=[...] or area to see the rest, or use ha_search.");
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_overview_spec() {
  ToolSpec s;
  s.name = "ha_get_overview";
  s.title = "Home overview";
  s.description =
      "The home at a glance: HA version, areas, entity counts and common states per domain. detail=standard "
      "lists entities per domain (limit each), full adds area and times.";
  s.input_schema = R"J({"type":"object","properties":{
"detail":{"enum":["minimal","standard","full"],"default":"minimal"},
"domains":{"type":"array","items":{"type":"string"}},"area":{"type":"string"},
"limit":{"type":"integer","minimum":1,"maximum":1000,"description":"Entities listed per domain"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"home":{"type":"object"},"areas":{"type":"array"},"domains":{"type":"object"}}})J";
  s.annotations = read_only();
  s.aliases = {"ha_get_system_version"};
  s.legacy_args = {{"detail_level", "detail"}};
  s.hidden_args = {"include_state", "offset"};
  s.run = run_overview;
  return s;
}

}  // namespace hamcp::tools
