// ha_get_registry: devices, areas, floors, labels, categories, zones and voice
// exposure. Without id: the list (filters, limit/offset; floors nest their
// areas, plus the unassigned ones); with id: one item with its details.
// ha-mcp's read tools (ha_get_device, ha_list_floors_areas,
// ha_config_get_label, ha_config_get_category, ha_get_zone,
// ha_get_entity_exposure) are hidden names that fix `kind`.
#include <algorithm>

#include "common/ascii.hpp"
#include "home/entity_docs.hpp"
#include "tools/registry/registry_tools.hpp"
#include "tools/registry/registry_views.hpp"

namespace hamcp::tools {

namespace {

using namespace registry;
using home::str_of;

bool contains_ci(std::string_view text, std::string_view part) {
  return part.empty() || ascii_lower(text).find(ascii_lower(part)) != std::string::npos;
}

// Device filters: area (id or name), manufacturer (part), integration (a config entry's domain).
struct DeviceFilter {
  std::string area, manufacturer, integration;
  std::vector<std::string> integration_entries;  // entry ids of that domain
  bool matches(const ha::Snapshot& snap, const json::object& d) const {
    if (!area.empty()) {
      const std::string area_id = str_of(&d, "area_id");
      const ha::RegistryItem a = snap.registry(ha::RegistryKind::area).find(area_id);
      if (area_id != area && !(a && ascii_lower(str_of(a.get(), "name")) == ascii_lower(area))) return false;
    }
    if (!contains_ci(str_of(&d, "manufacturer"), manufacturer)) return false;
    if (integration.empty()) return true;
    const json::value* entries = d.if_contains("config_entries");
    if (!entries || !entries->is_array()) return false;
    for (const auto& e : entries->get_array())
      if (e.is_string() && std::find(integration_entries.begin(), integration_entries.end(), e.get_string()) !=
                               integration_entries.end())
        return true;
    return false;
  }
};

boost::asio::awaitable<DeviceFilter> device_filter(Args& args, ToolEnv& env) {
  DeviceFilter f{args.str("area"), args.str("manufacturer"), args.str("integration"), {}};
  if (!f.integration.empty()) {
    auto reading = config_entries(env);  // named: GCC 12 coroutine temporaries
    const std::vector<json::object> entries = co_await std::move(reading);
    for (const auto& e : entries)
      if (str_of(&e, "domain") == f.integration) f.integration_entries.push_back(str_of(&e, "entry_id"));
  }
  co_return f;
}

// ha-mcp's ha_list_floors_areas: each floor with its areas, then the areas on no floor.
void nest_areas(const ha::Snapshot& snap, std::vector<json::object>& floors, json::object& body) {
  json::array unassigned;
  std::vector<json::array> per_floor(floors.size());
  snap.registry(ha::RegistryKind::area).for_each([&](const json::value& v) {
    const json::object* a = v.if_object();
    if (!a) return;
    json::object view{{"area_id", str_of(a, "area_id")}, {"name", str_of(a, "name")}};
    const std::string floor = str_of(a, "floor_id");
    for (std::size_t i = 0; i < floors.size(); ++i)
      if (!floor.empty() && str_of(&floors[i], "floor_id") == floor) return per_floor[i].push_back(std::move(view));
    unassigned.push_back(std::move(view));
  });
  for (std::size_t i = 0; i < floors.size(); ++i) floors[i]["areas"] = std::move(per_floor[i]);
  std::stable_sort(floors.begin(), floors.end(), [](const json::object& a, const json::object& b) {
    const json::value* la = a.if_contains("level");
    const json::value* lb = b.if_contains("level");
    const std::int64_t x = la && la->is_int64() ? la->get_int64() : INT64_MAX;
    const std::int64_t y = lb && lb->is_int64() ? lb->get_int64() : INT64_MAX;
    return x < y;
  });
  body["unassigned_areas"] = std::move(unassigned);
}

// Not a coroutine: the caller awaits the filter first (GCC 12 mishandles by-value coroutine parameters).
mcp::ToolResult list_kind(Args& args, ToolEnv& env, const ha::Snapshot& snap, Kind kind,
                          std::vector<json::object>& items, const DeviceFilter& filter) {
  const std::string query = args.str("query");
  std::vector<json::object> kept;
  for (auto& item : items) {
    if (!contains_ci(name_of_item(item, kind), query) && !contains_ci(key_of(item, kind), query)) continue;
    if (kind == Kind::device && !filter.matches(snap, item)) continue;
    kept.push_back(list_view(item, kind));
  }
  json::object body{{"kind", info(kind).name}};
  if (kind == Kind::floor) nest_areas(snap, kept, body);
  const std::int64_t limit = std::clamp<std::int64_t>(args.integer("limit", 100), 1, 1000);
  const std::size_t offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  PageWriter page(env.options.response_budget);
  for (std::size_t i = offset; i < kept.size() && page.count() < static_cast<std::size_t>(limit); ++i)
    if (!page.add(std::move(kept[i]))) break;
  const std::size_t returned = page.count();
  body["items"] = page.take();
  put_page_info(body, offset, returned, kept.size(), page.budget_cut());
  return ok(std::move(body));
}

// homeassistant/expose_entity/list: only entities with a setting are listed.
boost::asio::awaitable<mcp::ToolResult> get_exposure(Args& args, ToolEnv& env, const ha::Snapshot& snap) {
  json::object msg{{"type", "homeassistant/expose_entity/list"}};
  auto reading = helpers::ws_read(env, std::move(msg));  // named: GCC 12 coroutine temporaries
  json::value r = co_await std::move(reading);
  const json::value* all = r.is_object() ? r.as_object().if_contains("exposed_entities") : nullptr;
  const json::object none;
  const json::object& exposed = all && all->is_object() ? all->get_object() : none;
  const std::string assistant = args.str("assistant");
  const std::string id = args.str("id");
  json::object body{{"kind", "exposure"}};
  if (!id.empty()) {
    json::object settings{{"conversation", false}, {"cloud.alexa", false}, {"cloud.google_assistant", false}};
    if (const json::value* mine = exposed.if_contains(id); mine && mine->is_object())
      for (const auto& kv : mine->get_object()) settings[kv.key()] = kv.value();
    body["entity_id"] = id;
    body["expose"] = std::move(settings);
    co_return ok(std::move(body));
  }
  std::vector<json::object> rows;
  for (const auto& kv : exposed) {
    json::array to;
    if (const json::object* o = kv.value().if_object())
      for (const auto& a : *o)
        if (a.value() == json::value(true) && (assistant.empty() || a.key() == assistant)) to.emplace_back(a.key());
    if (!to.empty()) rows.push_back(json::object{{"entity_id", kv.key()}, {"exposed_to", std::move(to)}});
  }
  const DeviceFilter no_filter;
  co_return list_kind(args, env, snap, Kind::exposure, rows, no_filter);
}

boost::asio::awaitable<mcp::ToolResult> run_get_registry(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const Kind kind = kind_of(args);
  ha::SnapshotPtr snap = co_await env.snapshot();
  // ha-mcp: ha_get_device entity_id= is the device of that entity; exposure's entity_id is its id.
  if (const std::string entity = args.str("entity_id"); !entity.empty() && !args.has("id")) {
    const std::string device = kind == Kind::device ? device_of_entity(*snap, entity) : entity;
    if (device.empty())
      throw ToolException(bad_argument("entity_id", entity + " belongs to no device", "Pass device_id instead."));
    args.raw()["id"] = device;
  }
  if (kind == Kind::exposure) {
    auto reading = get_exposure(args, env, *snap);  // named: GCC 12 coroutine temporaries
    mcp::ToolResult exposure = co_await std::move(reading);
    co_return exposure;
  }
  auto listing = list_items(env, *snap, kind, args.str("scope"));
  std::vector<json::object> items = co_await std::move(listing);
  const std::string ref = args.str("id");
  if (ref.empty()) {
    auto filtering = device_filter(args, env);  // named: GCC 12 coroutine temporaries
    const DeviceFilter filter = co_await std::move(filtering);
    co_return list_kind(args, env, *snap, kind, items, filter);
  }
  const json::object* item = find_item(items, kind, ref);
  if (!item) throw ToolException(not_found(kind, ref, items));
  auto detailing = detail_view(env, *snap, *item, kind);
  json::object view = co_await std::move(detailing);
  json::object body{{"kind", info(kind).name}, {"item", std::move(view)}};
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_get_registry_spec() {
  ToolSpec s;
  s.name = "ha_get_registry";
  s.title = "Get devices, areas, floors, labels, categories, zones, exposure";
  s.description =
      "List a registry (query/filters, limit/offset; floors nest their areas) or one item by id or name with details "
      "(device: entities, integration, config entries). exposure: entities exposed to assistants (id: one entity).";
  s.input_schema = R"J({"type":"object","properties":{
"kind":{"type":"string","enum":["device","area","floor","label","category","zone","exposure"]},
"id":{"type":"string"},"query":{"type":"string"},
"integration":{"type":"string","description":"device filter: domain"},
"area":{"type":"string","description":"device filter: area id or name"},
"manufacturer":{"type":"string"},"scope":{"type":"string","description":"category: automation, script, scene, helpers"},
"limit":{"type":"integer"},"offset":{"type":"integer"}},"required":["kind"]})J";
  s.output_schema = R"J({"type":"object","properties":{"items":{"type":"array"},"item":{"type":"object"}}})J";
  s.annotations = read_only();
  s.legacy_args = {
      {"device_id", "id"}, {"label_id", "id"}, {"category_id", "id"}, {"zone_id", "id"}, {"area_id", "area"}};
  s.hidden_args = {"entity_id", "assistant", "detail_level", "fields", "area_fields"};
  s.alias_args = {{"ha_get_device", R"({"kind":"device"})"},      {"ha_list_floors_areas", R"({"kind":"floor"})"},
                  {"ha_config_get_label", R"({"kind":"label"})"}, {"ha_config_get_category", R"({"kind":"category"})"},
                  {"ha_get_zone", R"({"kind":"zone"})"},          {"ha_get_entity_exposure", R"({"kind":"exposure"})"}};
  s.run = run_get_registry;
  return s;
}

}  // namespace hamcp::tools
