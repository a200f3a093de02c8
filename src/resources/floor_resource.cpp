// ha://floor/{floor_id}: the floor and its areas with how many entities each
// has (read ha://area/{area_id} for their states).
#include "resources/resource_kinds.hpp"

namespace hamcp::resources {

namespace {

json::array areas_on_floor(const ha::Snapshot& snap, const Membership& members, std::string_view floor_id) {
  json::array areas;
  snap.registry(ha::RegistryKind::area).for_each([&](const json::value& v) {
    const json::object* a = v.if_object();
    if (!a || string_at(*a, "floor_id") != floor_id) return;
    const std::string area_id(string_at(*a, "area_id"));
    json::object line;
    line.emplace("area_id", area_id);
    copy_fields(*a, line, {"name"});
    line.emplace("entity_count", members.in_area(area_id).size());
    areas.emplace_back(std::move(line));
  });
  return areas;
}

}  // namespace

mcp::ResourceTemplate floor_template(std::shared_ptr<ResourceContext> ctx) {
  mcp::ResourceTemplate t;
  t.uri_template = "ha://floor/{floor_id}";
  t.name = "floor";
  t.title = "Home Assistant floor";
  t.description = "One floor: name, level, and its areas with their entity counts.";
  t.mime_type = std::string(kJsonMime);
  t.reader = [ctx](std::string uri, std::map<std::string, std::string> vars,
                   mcp::RequestContext&) -> boost::asio::awaitable<json::array> {
    const std::string floor_id = vars["floor_id"];
    auto reading = ctx->snapshot();
    const ha::SnapshotPtr snap = co_await std::move(reading);
    const ha::RegistryItem floor = snap->registry(ha::RegistryKind::floor).find(floor_id);
    if (!floor) throw_not_found("floor", floor_id, uri);
    json::object body;
    body.emplace("floor_id", floor_id);
    copy_fields(*floor, body, {"name", "level", "aliases", "icon"});
    const auto members = ctx->membership(*snap);
    body["areas"] = areas_on_floor(*snap, *members, floor_id);
    co_return json_contents(uri, body);
  };
  return t;
}

}  // namespace hamcp::resources
