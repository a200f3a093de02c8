// ha_get_overview: the home at a glance, deterministic (sorted, never
// sampled), sized by detail level and held to the response budget. The
// numbers come from OverviewFeed (overview_feed.hpp), kept current from the
// mirror, so a call does not walk the home. Also serves ha_get_system_version.
#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "home/entity_docs.hpp"
#include "home/overview_data.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/entities/entity_view.hpp"
#include "tools/entities/overview_hidden.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

// Room kept for the truncation members ("truncated", "notice") so adding them
// never pushes a response over its budget.
constexpr std::size_t kNoticeReserve = 256;

struct AreaRow {
  std::string area_id, name, floor;  // floor: its name, else its id
};
struct AreaRows : std::vector<AreaRow> {
  ha::RegistryPtr areas, floors;  // held: identity check without pointer reuse
};

// The area list sorted by name, rebuilt only when the area or floor registry
// is refetched.
std::shared_ptr<const AreaRows> area_rows_for(const ha::Snapshot& snap) {
  static std::mutex mutex;
  static std::shared_ptr<const AreaRows> cached;
  const ha::RegistryPtr& areas = snap.registries[static_cast<std::size_t>(ha::RegistryKind::area)];
  const ha::RegistryPtr& floors = snap.registries[static_cast<std::size_t>(ha::RegistryKind::floor)];
  {
    std::lock_guard lock(mutex);
    if (cached && cached->areas == areas && cached->floors == floors) return cached;
  }
  auto fresh = std::make_shared<AreaRows>();
  fresh->areas = areas;
  fresh->floors = floors;
  for (const json::value& a : snap.registry(ha::RegistryKind::area).items()) {
    const json::object* ao = a.if_object();
    AreaRow row{str_of(ao, "area_id"), str_of(ao, "name"), {}};
    if (std::string floor = str_of(ao, "floor_id"); !floor.empty()) {
      std::string fname = str_of(snap.registry(ha::RegistryKind::floor).find(floor), "name");
      row.floor = fname.empty() ? floor : fname;
    }
    fresh->push_back(std::move(row));
  }
  std::stable_sort(fresh->begin(), fresh->end(), [](const AreaRow& a, const AreaRow& b) { return a.name < b.name; });
  std::lock_guard lock(mutex);
  cached = fresh;
  return fresh;
}

struct OverviewRequest {
  std::string detail;
  std::size_t budget_bytes = 1;
  overview::Query query;
};

OverviewRequest read_request(Args& args, const ToolEnv& env, const ha::Snapshot& latest) {
  OverviewRequest req;
  req.detail = args.str("detail", "minimal");
  if (req.detail != "minimal" && req.detail != "standard" && req.detail != "full")
    throw ToolException(bad_argument("detail", "must be minimal, standard or full", "Use detail=\"standard\"."));
  req.budget_bytes = std::max<std::size_t>(env.options.response_budget, 1);
  overview::Query& query = req.query;
  query.list_entities = req.detail != "minimal";
  query.per_domain = static_cast<std::size_t>(
      std::clamp<std::int64_t>(args.integer("limit", req.detail == "full" ? 50 : 10), 1, 1000));
  // Every entity view is >= 20 bytes, so the budget cuts the listing before
  // this many ids: no need to copy more out of the aggregates.
  query.max_listed = req.budget_bytes / 16 + 2;
  query.domains = args.list("domains");
  const std::string area_filter = args.str("area");
  if (area_filter.empty()) return req;
  for (const json::value& a : latest.registry(ha::RegistryKind::area).items()) {
    const json::object* ao = a.if_object();
    if (str_of(ao, "area_id") == area_filter || str_of(ao, "name") == area_filter)
      query.area_id = str_of(ao, "area_id");
  }
  if (query.area_id.empty())
    throw ToolException(ToolError{"area_not_found",
                                  "No area '" + area_filter + "'.",
                                  "Call ha_get_overview without area to see the area list.",
                                  {}});
  return req;
}

json::object home_section(const ha::Snapshot& snap, const ToolEnv& env, const HiddenTally* hidden) {
  json::object home;
  if (snap.config) {
    home.emplace("name", str_of(snap.config.get(), "location_name"));
    home.emplace("time_zone", str_of(snap.config.get(), "time_zone"));
  }
  home.emplace("version", snap.ha_version);
  const std::size_t left_out = hidden ? hidden->with_state : 0;  // a visibility filter's hidden entities
  home.emplace("entities", snap.states.size() - std::min(left_out, snap.states.size()));
  home.emplace("mirror", ha::to_string(env.ha.status().state));
  return home;
}

// Areas sorted by name (cached per area/floor registry), rendered only until
// their share of the budget is spent: a home with thousands of areas costs no
// more than one with fifty.
void add_areas(json::object& body, const ha::Snapshot& snap, const OverviewRequest& req, const overview::Summary& sum) {
  std::shared_ptr<const AreaRows> rows = area_rows_for(snap);
  std::size_t areas_total = 0;
  PageWriter area_page(req.budget_bytes / 3);
  for (const AreaRow& row : *rows) {
    if (!req.query.area_id.empty() && row.area_id != req.query.area_id) continue;
    ++areas_total;
    if (area_page.budget_cut()) continue;  // keep counting for areas_total
    json::object area;
    area.emplace("area_id", row.area_id);
    area.emplace("name", row.name);
    if (!row.floor.empty()) area.emplace("floor", row.floor);
    auto it = sum.area_counts.find(row.area_id);
    area.emplace("entities", it == sum.area_counts.end() ? 0 : it->second);
    area_page.add(std::move(area));
  }
  const std::size_t areas_shown = area_page.count();
  body.emplace("areas", area_page.take());
  if (area_page.budget_cut()) {
    body.emplace("areas_total", areas_total);
    body.emplace("areas_notice", "Only the first " + std::to_string(areas_shown) + " of " +
                                     std::to_string(areas_total) +
                                     " areas (by name) fit; pass area=<name> or use ha_search with area.");
  }
}

// Domains: counts + the most common states, each entry sized with room for its
// "more" count so the entity listing gets only what is left. Returns the bytes
// the body will take with these domains (entity lists still empty).
std::size_t domain_skeletons(json::object& out_domains, json::object& body, const OverviewRequest& req,
                             const overview::Summary& sum) {
  std::size_t domains_shown = 0, skeleton_bytes = json_size(body) + 12;  // + ,"domains":{}
  for (const auto& [name, d] : sum.domains) {
    json::object dom;
    dom.emplace("count", d.count);
    if (d.show_states) {
      json::object hist;
      for (const auto& [state, n] : d.top_states) hist.emplace(state, n);
      dom.emplace("states", std::move(hist));
    }
    if (req.query.list_entities) {
      dom.emplace("entities", json::array());
      dom.emplace("more", d.count);
    }
    const std::size_t size = json_size(json::value(dom)) + json_size(json::value(name)) + 2;  // "name": + comma
    if (domains_shown > 0 && skeleton_bytes + size > req.budget_bytes - std::min(req.budget_bytes, kNoticeReserve))
      break;
    skeleton_bytes += size;
    out_domains.emplace(name, std::move(dom));
    ++domains_shown;
  }
  if (domains_shown < sum.domains.size()) {
    body.emplace("domains_total", sum.domains.size());
    body.emplace("domains_notice", "Only the first " + std::to_string(domains_shown) + " of " +
                                       std::to_string(sum.domains.size()) +
                                       " domains (by name) fit; pass domains=[...] for the others.");
  }
  return skeleton_bytes;
}

struct Listing {
  bool cut = false;
  std::size_t listed = 0, total_listable = 0;
};

// Entities (standard/full) fill what is left of the budget in domain order and
// stop at the first one that does not fit. Domains after the cut keep their
// placeholder: "entities":[] and "more" = count.
Listing fill_entities(json::object& out_domains, const ha::Snapshot& snap, const OverviewRequest& req,
                      const overview::Summary& sum, std::size_t listing_bytes) {
  Listing listing;
  PageWriter budget(listing_bytes);
  ViewOptions vo;
  vo.place = req.detail == "full";
  vo.times = req.detail == "full";
  for (const auto& [name, d] : sum.domains) listing.total_listable += std::min(req.query.per_domain, d.count);
  for (auto& [name, value] : out_domains) {
    const overview::DomainSummary& d = sum.domains.at(std::string(name));
    json::object& dom = value.as_object();
    json::array& ents = dom["entities"].as_array();
    for (const auto& id : d.first_ids) {
      ha::EntityStatePtr st = snap.states.find(id);
      if (!st) continue;  // cannot happen: the summary describes `snap`
      json::object v = entity_view(snap, *st, vo);
      // PageWriter always takes a first item; with no room left at all, take none.
      if (listing_bytes == 0 || !budget.add(json::value(v))) {
        listing.cut = true;
        break;
      }
      ents.emplace_back(std::move(v));
      ++listing.listed;
    }
    const std::size_t shown = ents.size();
    if (d.count > shown)
      dom["more"] = d.count - shown;
    else
      dom.erase("more");
    if (listing.cut) break;
  }
  return listing;
}

json::object render_overview(const ha::Snapshot& snap, const ToolEnv& env, const OverviewRequest& req,
                             const overview::Summary& sum, const HiddenTally* hidden) {
  json::object body;
  body.emplace("home", home_section(snap, env, hidden));
  add_areas(body, snap, req, sum);
  json::object out_domains;
  const std::size_t skeleton_bytes = domain_skeletons(out_domains, body, req, sum);
  const bool domains_cut = out_domains.size() < sum.domains.size();
  const std::size_t room =
      req.budget_bytes > skeleton_bytes + kNoticeReserve ? req.budget_bytes - skeleton_bytes - kNoticeReserve : 0;
  Listing listing;
  if (req.query.list_entities) listing = fill_entities(out_domains, snap, req, sum, domains_cut ? 0 : room);
  body.emplace("domains", std::move(out_domains));
  if (listing.cut) {
    body.emplace("truncated", true);
    body.emplace("notice", "Response size limit reached after " + std::to_string(listing.listed) + " of " +
                               std::to_string(listing.total_listable) +
                               " entities; pass domains=[...] or area to see the rest, or use ha_search.");
  }
  return body;
}

boost::asio::awaitable<mcp::ToolResult> run_overview(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr latest = co_await env.snapshot();
  const OverviewRequest req = read_request(args, env, *latest);
  auto hiding = env.ha.hidden_entities();
  const HiddenSetPtr hidden = co_await std::move(hiding);
  // Aggregates kept current from the mirror: O(domains + areas) per call.
  overview::Summary sum = env.overview.summarize(latest, req.query);
  const ha::SnapshotPtr snap = sum.snapshot ? sum.snapshot : latest;
  // A visibility filter's hidden entities are not counted either (tally kept per hidden set, following states).
  std::shared_ptr<const HiddenTally> tally;
  if (!hidden->empty()) tally = HiddenTally::of(hidden, snap);
  if (tally) tally->leave_out(sum, req.query);
  co_return ok(render_overview(*snap, env, req, sum, tally.get()));
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
  s.output_schema =
      R"J({"type":"object","properties":{"home":{"type":"object"},"areas":{"type":"array"},"domains":{"type":"object"}}})J";
  s.annotations = read_only();
  s.aliases = {"ha_get_system_version"};
  s.legacy_args = {{"detail_level", "detail"}};
  s.hidden_args = {"include_state", "offset"};
  s.run = run_overview;
  return s;
}

}  // namespace hamcp::tools
