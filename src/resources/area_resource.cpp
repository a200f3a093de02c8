// ha://area/{area_id}: the area and its entities with their states (not their
// attributes: read ha://entity/{entity_id} for those).
#include "resources/resource_kinds.hpp"

namespace hamcp::resources {

mcp::ResourceTemplate area_template(std::shared_ptr<ResourceContext> ctx) {
  mcp::ResourceTemplate t;
  t.uri_template = "ha://area/{area_id}";
  t.name = "area";
  t.title = "Home Assistant area";
  t.description = "One area: name, floor, and its entities with their states. Subscribe for changes.";
  t.mime_type = std::string(kJsonMime);
  t.reader = [ctx](std::string uri, std::map<std::string, std::string> vars,
                   mcp::RequestContext&) -> boost::asio::awaitable<json::array> {
    const std::string area_id = vars["area_id"];
    auto reading = ctx->snapshot();
    const ha::SnapshotPtr snap = co_await std::move(reading);
    const ha::RegistryItem area = snap->registry(ha::RegistryKind::area).find(area_id);
    if (!area) throw_not_found("area", area_id, uri);
    json::object body;
    body.emplace("area_id", area_id);
    copy_fields(*area, body, {"name", "floor_id", "aliases", "icon", "labels"});
    const auto members = ctx->membership(*snap);
    list_entities(*snap, members->in_area(area_id), body);
    co_return json_contents(uri, body);
  };
  return t;
}

}  // namespace hamcp::resources
