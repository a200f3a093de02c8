// ha://home: the home in one screen: counts by domain, floors, areas, and what
// is unavailable. Entities are not listed (a home may have 10k): read an area,
// a device or an entity for those.
#include <map>

#include "resources/resource_kinds.hpp"

namespace hamcp::resources {

namespace {

constexpr std::size_t kMaxListedAreas = 200;
constexpr std::size_t kMaxListedUnavailable = 50;

void add_counts(const ha::Snapshot& snap, json::object& body) {
  std::map<std::string, std::size_t, std::less<>> domains;
  std::vector<std::string> unavailable;
  std::size_t unavailable_count = 0;
  snap.states.for_each([&](const ha::EntityStatePtr& st) {
    const std::string_view id = st->entity_id;
    const std::string_view domain = id.substr(0, id.find('.'));
    auto it = domains.find(domain);
    if (it == domains.end()) it = domains.emplace(std::string(domain), 0).first;
    ++it->second;
    if (st->state != "unavailable") return;
    ++unavailable_count;
    unavailable.push_back(st->entity_id);
  });
  std::sort(unavailable.begin(), unavailable.end());
  if (unavailable.size() > kMaxListedUnavailable) unavailable.resize(kMaxListedUnavailable);
  json::object counts;
  for (const auto& [domain, n] : domains) counts.emplace(domain, n);
  body["entity_count"] = snap.states.size();
  body["domains"] = std::move(counts);
  json::object down;
  down.emplace("count", unavailable_count);
  json::array ids;
  for (auto& id : unavailable) ids.emplace_back(std::move(id));
  down.emplace("entity_ids", std::move(ids));
  body["unavailable"] = std::move(down);
}

void add_places(const ha::Snapshot& snap, const Membership& members, json::object& body) {
  json::array floors;
  snap.registry(ha::RegistryKind::floor).for_each([&](const json::value& v) {
    const json::object* f = v.if_object();
    if (!f) return;
    json::object line;
    copy_fields(*f, line, {"floor_id", "name", "level"});
    floors.emplace_back(std::move(line));
  });
  json::array areas;
  const ha::Registry& area_registry = snap.registry(ha::RegistryKind::area);
  area_registry.for_each([&](const json::value& v) {
    const json::object* a = v.if_object();
    if (!a || areas.size() >= kMaxListedAreas) return;
    json::object line;
    copy_fields(*a, line, {"area_id", "name", "floor_id"});
    line.emplace("entity_count", members.in_area(std::string(string_at(*a, "area_id"))).size());
    areas.emplace_back(std::move(line));
  });
  body["floors"] = std::move(floors);
  body["area_count"] = area_registry.size();
  body["areas"] = std::move(areas);
  body["device_count"] = snap.registry(ha::RegistryKind::device).size();
}

}  // namespace

mcp::Resource home_resource(std::shared_ptr<ResourceContext> ctx) {
  mcp::Resource r;
  r.uri = "ha://home";
  r.name = "home";
  r.title = "Home summary";
  r.description = "Entity counts by domain, floors, areas and unavailable entities. Subscribe for changes.";
  r.mime_type = std::string(kJsonMime);
  r.reader = [ctx](std::string uri, mcp::RequestContext&) -> boost::asio::awaitable<json::array> {
    auto reading = ctx->snapshot();
    const ha::SnapshotPtr snap = co_await std::move(reading);
    json::object body;
    if (snap->config) copy_fields(*snap->config, body, {"location_name", "time_zone", "unit_system"});
    if (!snap->ha_version.empty()) body["ha_version"] = snap->ha_version;
    add_counts(*snap, body);
    const auto members = ctx->membership(*snap);
    add_places(*snap, *members, body);
    co_return json_contents(uri, body);
  };
  return r;
}

}  // namespace hamcp::resources
