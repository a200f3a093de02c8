// ha://device/{device_id}: the device (maker, model, area) and its entities
// with their states.
#include "resources/resource_kinds.hpp"

namespace hamcp::resources {

mcp::ResourceTemplate device_template(std::shared_ptr<ResourceContext> ctx) {
  mcp::ResourceTemplate t;
  t.uri_template = "ha://device/{device_id}";
  t.name = "device";
  t.title = "Home Assistant device";
  t.description = "One device: name, maker, model, area, and its entities with their states.";
  t.mime_type = std::string(kJsonMime);
  t.reader = [ctx](std::string uri, std::map<std::string, std::string> vars,
                   mcp::RequestContext&) -> boost::asio::awaitable<json::array> {
    const std::string device_id = vars["device_id"];
    auto reading = ctx->snapshot();
    const ha::SnapshotPtr snap = co_await std::move(reading);
    const ha::RegistryItem device = snap->registry(ha::RegistryKind::device).find(device_id);
    if (!device) throw_not_found("device", device_id, uri);
    json::object body;
    body.emplace("device_id", device_id);
    copy_fields(*device, body,
                {"name", "name_by_user", "manufacturer", "model", "model_id", "sw_version", "hw_version", "area_id",
                 "via_device_id", "disabled_by", "labels", "entry_type"});
    const auto members = ctx->membership(*snap);
    list_entities(*snap, members->of_device(device_id), body);
    co_return json_contents(uri, body);
  };
  return t;
}

}  // namespace hamcp::resources
