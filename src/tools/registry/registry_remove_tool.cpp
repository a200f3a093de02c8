// ha_remove_registry: remove an area, floor, label, category, zone or device.
// Without confirm=true only a preview (what would go, what it touches);
// with it one delete, never retried, journaled with the removed item. A
// device goes only where its integrations allow it
// (config/device_registry/remove_config_entry per config entry); otherwise
// the answer says why not. ha-mcp's ha_remove_area_or_floor,
// ha_config_remove_label, ha_config_remove_category, ha_remove_zone and
// ha_remove_device are hidden names that remove at once, as they did there.
#include <algorithm>

#include "home/entity_docs.hpp"
#include "tools/confirmation.hpp"
#include "tools/registry/registry_tools.hpp"
#include "tools/registry/registry_views.hpp"

namespace hamcp::tools {

namespace {

using namespace registry;
using home::str_of;

// Per config entry of the device: may HA remove the device from it?
struct Removability {
  std::vector<std::string> entries;  // the device's config entries
  json::array blocked;               // {entry_id, domain, why}
};

boost::asio::awaitable<Removability> removability(ToolEnv& env, const json::object& device) {
  Removability r;
  for (const json::value& e :
       device.contains("config_entries") ? device.at("config_entries").as_array() : json::array{})
    if (e.is_string()) r.entries.emplace_back(e.get_string());
  auto reading = config_entries(env);  // named: GCC 12 coroutine temporaries
  const std::vector<json::object> known = co_await std::move(reading);
  for (const std::string& id : r.entries) {
    auto it =
        std::find_if(known.begin(), known.end(), [&](const json::object& c) { return str_of(&c, "entry_id") == id; });
    if (it == known.end()) continue;  // HA decides (its answer is reported)
    const json::value* can = it->if_contains("supports_remove_device");
    if (can && can->is_bool() && !can->get_bool())
      r.blocked.push_back(json::object{{"entry_id", id},
                                       {"domain", str_of(&*it, "domain")},
                                       {"why", "the " + str_of(&*it, "domain") +
                                                   " integration does not let devices be removed; it manages them "
                                                   "itself (remove or reconfigure the integration instead)"}});
  }
  co_return r;
}

// What a removal touches besides the item itself (for the preview).
json::object effects(ToolEnv&, const ha::Snapshot& snap, const json::object& item, Kind kind) {
  json::object out;
  if (kind == Kind::floor) {
    json::array areas;
    snap.registry(ha::RegistryKind::area).for_each([&](const json::value& v) {
      if (str_of(v.if_object(), "floor_id") == str_of(&item, "floor_id"))
        areas.emplace_back(str_of(v.if_object(), "area_id"));
    });
    out["areas_left_without_floor"] = std::move(areas);
  } else if (kind == Kind::area) {
    json::array devices;
    snap.registry(ha::RegistryKind::device).for_each([&](const json::value& v) {
      if (str_of(v.if_object(), "area_id") == str_of(&item, "area_id"))
        devices.emplace_back(str_of(v.if_object(), "id"));
    });
    out["devices_left_without_area"] = std::move(devices);
  }
  return out;
}

boost::asio::awaitable<void> remove_device(ToolEnv& env, const json::object& device, const Removability& r,
                                           json::object& body) {
  if (!r.blocked.empty())
    throw ToolException(ToolError{"device_not_removable",
                                  "Home Assistant does not allow removing this device: " +
                                      std::string(r.blocked.at(0).at("why").as_string()) + ". Nothing was removed.",
                                  "Disable it instead: ha_set_registry kind=device disabled_by=user.",
                                  {{"blocked_by", r.blocked}, {"written", false}}});
  json::array done;
  for (const std::string& entry : r.entries) {
    json::object msg{{"type", "config/device_registry/remove_config_entry"},
                     {"device_id", str_of(&device, "id")},
                     {"config_entry_id", entry}};
    std::optional<ToolError> refused;
    try {
      auto writing = write(env, std::move(msg));  // named: GCC 12 coroutine temporaries
      co_await std::move(writing);
    } catch (const ToolException& e) {
      refused = e.error();
    }
    if (refused) {
      refused->code = "device_not_removable";
      refused->suggestion =
          "The integration still provides this device (it is not orphaned). Remove it in the integration, or disable "
          "it: ha_set_registry kind=device disabled_by=user.";
      refused->extra["removed_from_entries"] = done;
      throw ToolException(std::move(*refused));
    }
    done.emplace_back(entry);
  }
  body["removed_from_entries"] = std::move(done);
}

boost::asio::awaitable<mcp::ToolResult> run_remove_registry(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const Kind kind = kind_of(args, {Kind::device, Kind::area, Kind::floor, Kind::label, Kind::category, Kind::zone});
  ha::SnapshotPtr snap = co_await env.snapshot();
  const std::string ref = args.str("id");
  if (ref.empty()) throw ToolException(bad_argument("id", "missing", "Pass the id or exact name to remove."));
  auto listing = list_items(env, *snap, kind, args.str("scope"));
  const std::vector<json::object> items = co_await std::move(listing);
  const json::object* found = find_item(items, kind, ref);
  if (!found) throw ToolException(not_found(kind, ref, items));
  const json::object item = *found;
  const std::string key = key_of(item, kind);
  json::object body{{"kind", info(kind).name}, {"id", key}, {"name", name_of_item(item, kind)}};
  Removability removable;
  if (kind == Kind::device) {
    auto checking = removability(env, item);
    removable = co_await std::move(checking);
  }
  if (!args.flag("confirm", false)) {
    json::object fields = body;
    json::object change{{"would_remove", list_view(item, kind)}};
    for (auto& kv : effects(env, *snap, item, kind)) change[kv.key()] = kv.value();
    for (auto& kv : change) fields[kv.key()] = kv.value();
    if (kind == Kind::device) fields["removable"] = removable.blocked.empty();
    if (!removable.blocked.empty()) fields["blocked_by"] = removable.blocked;
    std::string note = removable.blocked.empty() ? "" : "blocked_by says why it cannot be removed";
    Preview preview{"remove", json::string(key), std::move(change), std::move(note), std::move(fields)};
    // Blocked: nothing to ask the user, confirm=true would meet the same refusal.
    if (!removable.blocked.empty()) co_return preview_result(std::move(preview));
    auto asking = confirm_or_preview(args, env, ctx, std::move(preview));
    std::optional<mcp::ToolResult> previewed = co_await std::move(asking);
    if (previewed) co_return std::move(*previewed);
  }
  if (kind == Kind::device) {
    auto removing = remove_device(env, item, removable, body);
    co_await std::move(removing);
  } else {
    json::object msg{{"type", std::string(info(kind).prefix) + "/delete"}, {info(kind).id_param, key}};
    if (kind == Kind::category) msg["scope"] = str_of(&item, "scope");
    auto writing = write(env, std::move(msg));
    co_await std::move(writing);
  }
  body["result"] = "removed";
  helpers::journal(env, body, std::string(info(kind).name), key, "", "remove", list_view(item, kind), nullptr);
  const json::object nothing;
  auto waiting = wait_mirror(env, kind, key, nothing, true);
  json::object waited = co_await std::move(waiting);
  if (!waited.empty()) body["mirror"] = std::move(waited);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_remove_registry_spec() {
  ToolSpec s;
  s.name = "ha_remove_registry";
  s.title = "Remove an area, floor, label, category, zone or device";
  s.description =
      "Remove one item (id or exact name). Without confirm=true: a preview only. A device goes only where its "
      "integration allows it.";
  s.input_schema = R"J({"type":"object","properties":{
"kind":{"type":"string","enum":["device","area","floor","label","category","zone"]},
"id":{"type":"string"},"scope":{"type":"string"},"confirm":{"type":"boolean"}},"required":["kind"]})J";
  s.output_schema = R"J({"type":"object","properties":{"id":{"type":"string"},"result":{"type":"string"}}})J";
  s.annotations = writes(true, true);
  s.legacy_args = {{"device_id", "id"}, {"label_id", "id"}, {"category_id", "id"}, {"zone_id", "id"}};
  s.alias_args = {{"ha_remove_area_or_floor", R"({"confirm":true})"},
                  {"ha_remove_device", R"({"kind":"device","confirm":true})"},
                  {"ha_config_remove_label", R"({"kind":"label","confirm":true})"},
                  {"ha_config_remove_category", R"({"kind":"category","confirm":true})"},
                  {"ha_remove_zone", R"({"kind":"zone","confirm":true})"}};
  s.run = run_remove_registry;
  return s;
}

}  // namespace hamcp::tools
