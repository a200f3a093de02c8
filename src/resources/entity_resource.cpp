// ha://entity/{entity_id}: the entity's state with its attributes, and where
// it sits (area, device) and how it is registered.
#include "resources/resource_kinds.hpp"

namespace hamcp::resources {

namespace {

json::object render_entity(const ha::Snapshot& snap, const Membership& members, const std::string& entity_id) {
  const ha::EntityStatePtr state = snap.states.find(entity_id);
  const ha::RegistryItem entry = snap.registry(ha::RegistryKind::entity).find(entity_id);
  json::object body;
  if (state) {
    body = state->to_json();
  } else {
    body.emplace("entity_id", entity_id);
    body.emplace("state", nullptr);  // registered, but HA has no state for it (e.g. disabled)
  }
  if (const std::string_view area = members.area(entity_id); !area.empty()) body["area_id"] = area;
  if (entry) {
    json::object registry;
    copy_fields(*entry, registry,
                {"name", "original_name", "platform", "device_id", "labels", "categories", "disabled_by", "hidden_by",
                 "entity_category", "aliases"});
    body["registry"] = std::move(registry);
  }
  return body;
}

}  // namespace

mcp::ResourceTemplate entity_template(std::shared_ptr<ResourceContext> ctx) {
  mcp::ResourceTemplate t;
  t.uri_template = "ha://entity/{entity_id}";
  t.name = "entity";
  t.title = "Home Assistant entity";
  t.description = "One entity: state, attributes, area, device and registry entry. Subscribe for changes.";
  t.mime_type = std::string(kJsonMime);
  t.reader = [ctx](std::string uri, std::map<std::string, std::string> vars,
                   mcp::RequestContext&) -> boost::asio::awaitable<json::array> {
    const std::string entity_id = vars["entity_id"];
    auto reading = ctx->snapshot();
    const ha::SnapshotPtr snap = co_await std::move(reading);
    if (!snap->states.find(entity_id) && !snap->registry(ha::RegistryKind::entity).find(entity_id))
      throw_not_found("entity", entity_id, uri);
    const auto members = ctx->membership(*snap);
    co_return json_contents(uri, render_entity(*snap, *members, entity_id));
  };
  return t;
}

}  // namespace hamcp::resources
