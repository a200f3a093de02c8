// radio=zigbee: ZHA through zha/* (components/zha/websocket_api.py).
// Reads: network_status, diagnostics (network or one device), groups.
// Writes: permit_join, remove_device (confirm; through the device registry, as
// HA's UI removes a ZHA device), bind, unbind, group_add, group_remove
// (confirm), group_members_add, group_members_remove. Backups, channel,
// clusters and reconfigure: radio_zigbee_network.cpp, radio_zigbee_clusters.cpp,
// radio_zigbee_reconfigure.cpp.
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& zigbee() { return *find_radio("zigbee"); }

json::object device_summary(const json::object& d) {
  json::object out;
  for (const char* k :
       {"ieee", "nwk", "user_given_name", "name", "manufacturer", "model", "device_type", "power_source", "available",
        "lqi", "rssi", "last_seen", "quirk_applied", "quirk_class", "device_reg_id", "area_id"})
    if (const json::value* v = d.if_contains(k); v && !v->is_null()) out[k] = *v;
  return out;
}

asio::awaitable<json::array> zha_devices(ToolEnv& env) {
  return command_list(env, zigbee(), json::object{{"type", "zha/devices"}});
}

asio::awaitable<json::object> network_status(Args&, ToolEnv& env) {
  auto finding = entry_id(env, zigbee());
  const std::string entry = co_await std::move(finding);
  auto asking = command(env, zigbee(), json::object{{"type", "zha/network/settings"}});
  const json::value settings = co_await std::move(asking);
  auto listing = zha_devices(env);
  const json::array devices = co_await std::move(listing);
  json::object network;
  const json::object& s = settings.as_object();
  if (const json::value* info = s.at("settings").as_object().if_contains("network_info"))
    for (const char* k : {"channel", "pan_id", "extended_pan_id", "nwk_update_id", "source"})
      if (const json::value* v = info->as_object().if_contains(k)) network[k] = *v;
  json::object by_type;
  json::array list;
  std::size_t unavailable = 0;
  for (const auto& d : devices) {
    const json::object& o = d.as_object();
    const std::string type = o.contains("device_type") ? std::string(o.at("device_type").as_string()) : "Unknown";
    by_type[type] = (by_type.contains(type) ? by_type[type].as_int64() : 0) + 1;
    if (o.contains("available") && o.at("available") == false) ++unavailable;
    list.push_back(device_summary(o));
  }
  co_return json::object{{"radio", "zigbee"},
                         {"entry_id", entry},
                         {"radio_type", s.at("radio_type")},
                         {"device", s.at("device")},
                         {"network", std::move(network)},
                         {"device_count", devices.size()},
                         {"devices_by_type", std::move(by_type)},
                         {"unavailable", unavailable},
                         {"devices", std::move(list)}};
}

asio::awaitable<json::object> diagnostics(Args& args, ToolEnv& env) {
  auto finding = optional_device(args, env, zigbee());
  const std::optional<Device> device = co_await std::move(finding);
  if (!device) {
    auto network = network_status(args, env);
    json::object out = co_await std::move(network);
    json::array weak;
    for (const auto& d : out.at("devices").as_array()) {
      const json::object& o = d.as_object();
      const bool gone = o.contains("available") && o.at("available") == false;
      const bool low = o.contains("lqi") && o.at("lqi").is_number() && o.at("lqi").to_number<double>() < 100;
      if (gone || low) weak.push_back(o);
    }
    out["weak_or_unavailable"] = std::move(weak);
    co_return out;
  }
  auto asking = command(env, zigbee(), json::object{{"type", "zha/device"}, {"ieee", device->identifier}});
  json::value info = co_await std::move(asking);
  json::object out = device_summary(info.as_object());
  for (const char* k : {"neighbors", "routes", "entities", "endpoint_names", "signature"})
    if (const json::value* v = info.as_object().if_contains(k)) out[k] = *v;
  out["device_id"] = device->id;
  co_return out;
}

asio::awaitable<json::object> groups(Args&, ToolEnv& env) {
  auto asking = command(env, zigbee(), json::object{{"type", "zha/groups"}});
  json::value all = co_await std::move(asking);
  json::array out;
  for (const auto& g : all.as_array()) {
    const json::object& o = g.as_object();
    json::array members;
    for (const auto& m : o.at("members").as_array()) {
      const json::object& mo = m.as_object();
      const json::object* d = mo.contains("device") ? mo.at("device").if_object() : nullptr;
      members.push_back(json::object{{"ieee", d && d->contains("ieee") ? d->at("ieee") : nullptr},
                                     {"name", d && d->contains("user_given_name") ? d->at("user_given_name") : nullptr},
                                     {"endpoint_id", mo.at("endpoint_id")}});
    }
    out.push_back(
        json::object{{"group_id", o.at("group_id")}, {"name", o.at("name")}, {"members", std::move(members)}});
  }
  co_return json::object{{"radio", "zigbee"}, {"groups", std::move(out)}};
}

asio::awaitable<json::object> permit_join(Args& args, ToolEnv& env) {
  auto finding = optional_device(args, env, zigbee());
  const std::optional<Device> via = co_await std::move(finding);
  const std::int64_t duration = param(args, "duration") ? param_int(args, "duration") : 60;
  if (duration < 0 || duration > 254)
    throw ToolException(
        bad_argument("params.duration", "must be 0..254 seconds", "ZHA permits joining for at most 254 s."));
  json::object message{{"type", "zha/devices/permit"}, {"duration", duration}};
  if (via) message["ieee"] = via->identifier;
  auto asking = command(env, zigbee(), std::move(message));
  co_await std::move(asking);
  json::object out{{"done", true}, {"permit_join_seconds", duration}};
  out["through"] = via ? json::value(via->name) : json::value("all routers");
  co_return out;
}

asio::awaitable<json::object> remove_device(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zigbee());
  const Device device = co_await std::move(finding);
  auto entry_finding = entry_id(env, zigbee());
  const std::string entry = co_await std::move(entry_finding);
  json::object details{{"device_id", device.id}, {"name", device.name}, {"ieee", device.identifier}};
  if (!args.flag("confirm", false))
    co_return preview("remove Zigbee device " + device.name + " (" + device.identifier +
                          ") from the ZHA network and from Home Assistant with its entities",
                      std::move(details));
  auto removing = command(env, zigbee(),
                          json::object{{"type", "config/device_registry/remove_config_entry"},
                                       {"device_id", device.id},
                                       {"config_entry_id", entry}});
  co_await std::move(removing);
  details["done"] = true;
  details["removed"] = true;
  co_return details;
}

asio::awaitable<json::object> binding(Args& args, ToolEnv& env, bool bind) {
  auto finding = device_arg(args, env, zigbee());
  const Device source = co_await std::move(finding);
  std::string target = param(args, "target_ieee") ? param_str(args, "target_ieee") : std::string();
  if (target.empty()) {
    const std::string target_device = param_str(args, "target_device_id");
    json::object raw{{"device_id", target_device}};
    Args target_args(raw);
    auto target_finding = device_arg(target_args, env, zigbee());
    const Device t = co_await std::move(target_finding);
    target = t.identifier;
  }
  const char* type = bind ? "zha/devices/bind" : "zha/devices/unbind";
  auto asking =
      command(env, zigbee(), json::object{{"type", type}, {"source_ieee", source.identifier}, {"target_ieee", target}});
  co_await std::move(asking);
  co_return json::object{{"done", true},
                         {bind ? "bound" : "unbound", true},
                         {"source", source.name},
                         {"source_ieee", source.identifier},
                         {"target_ieee", target}};
}

asio::awaitable<json::object> bind(Args& args, ToolEnv& env) { return binding(args, env, true); }
asio::awaitable<json::object> unbind(Args& args, ToolEnv& env) { return binding(args, env, false); }

// params.members: [{ieee | device_id, endpoint_id}] -> ZHA's member references.
asio::awaitable<json::array> members_arg(Args& args, ToolEnv& env) {
  const json::value* members = param(args, "members");
  if (!members || !members->is_array() || members->get_array().empty())
    throw ToolException(
        bad_argument("params.members", "missing", "Pass [{\"device_id\": ..., \"endpoint_id\": 1}, ...]."));
  json::array out;
  for (const auto& m : members->get_array()) {
    const json::object* o = m.if_object();
    if (!o)
      throw ToolException(bad_argument("params.members", "each member must be an object", "{device_id, endpoint_id}"));
    std::string ieee = o->contains("ieee") && o->at("ieee").is_string() ? std::string(o->at("ieee").get_string()) : "";
    if (ieee.empty()) {
      json::object raw{{"device_id", o->contains("device_id") ? o->at("device_id") : json::value("")}};
      Args member_args(raw);
      auto finding = device_arg(member_args, env, zigbee());
      const Device d = co_await std::move(finding);
      ieee = d.identifier;
    }
    const json::value* ep = o->if_contains("endpoint_id");
    out.push_back(json::object{{"ieee", ieee}, {"endpoint_id", ep && ep->is_int64() ? ep->get_int64() : 1}});
  }
  co_return out;
}

asio::awaitable<json::object> group_add(Args& args, ToolEnv& env) {
  json::object message{{"type", "zha/group/add"}, {"group_name", param_str(args, "name")}};
  if (param(args, "group_id")) message["group_id"] = param_int(args, "group_id");
  if (param(args, "members")) {
    auto reading = members_arg(args, env);
    message["members"] = co_await std::move(reading);
  }
  auto asking = command(env, zigbee(), std::move(message));
  const json::value group = co_await std::move(asking);
  co_return json::object{
      {"done", true}, {"created", true}, {"group_id", group.at("group_id")}, {"name", group.at("name")}};
}

asio::awaitable<json::object> group_remove(Args& args, ToolEnv& env) {
  const std::int64_t group_id = param_int(args, "group_id");
  auto reading = groups(args, env);
  const json::object all = co_await std::move(reading);
  const json::value* found = nullptr;
  for (const auto& g : all.at("groups").as_array())
    if (g.at("group_id").to_number<std::int64_t>() == group_id) found = &g;
  if (!found)
    throw ToolException(
        bad_argument("params.group_id", "ZHA has no group " + std::to_string(group_id), "action=groups lists them."));
  json::object details{{"group", *found}};
  if (!args.flag("confirm", false))
    co_return preview("remove ZHA group " + std::to_string(group_id), std::move(details));
  auto asking =
      command(env, zigbee(), json::object{{"type", "zha/group/remove"}, {"group_ids", json::array{group_id}}});
  co_await std::move(asking);
  details["done"] = true;
  details["removed"] = true;
  co_return details;
}

asio::awaitable<json::object> group_members(Args& args, ToolEnv& env, bool add) {
  const std::int64_t group_id = param_int(args, "group_id");
  auto reading = members_arg(args, env);
  json::array members = co_await std::move(reading);
  const char* type = add ? "zha/group/members/add" : "zha/group/members/remove";
  auto asking = command(env, zigbee(), json::object{{"type", type}, {"group_id", group_id}, {"members", members}});
  const json::value group = co_await std::move(asking);
  co_return json::object{{"done", true},
                         {"group_id", group_id},
                         {add ? "added" : "removed", std::move(members)},
                         {"member_count", group.at("members").as_array().size()}};
}

asio::awaitable<json::object> members_add(Args& args, ToolEnv& env) { return group_members(args, env, true); }
asio::awaitable<json::object> members_remove(Args& args, ToolEnv& env) { return group_members(args, env, false); }

asio::awaitable<json::object> firmware(Args& args, ToolEnv& env) { return firmware_update(args, env, zigbee()); }

constexpr Action kActions[] = {
    {"network_status", network_status},
    {"diagnostics", diagnostics},
    {"groups", groups},
    {"permit_join", permit_join},
    {"remove_device", remove_device, true},
    {"bind", bind},
    {"unbind", unbind},
    {"group_add", group_add},
    {"group_remove", group_remove, true},
    {"group_members_add", members_add},
    {"group_members_remove", members_remove},
    {"network_backup", zigbee_network_backup},
    {"network_restore", zigbee_network_restore, true},
    {"change_channel", zigbee_change_channel, true},
    {"cluster_read", zigbee_cluster_read},
    {"cluster_write", zigbee_cluster_write, true},
    {"cluster_command", zigbee_cluster_command, true},
    {"reconfigure", zigbee_reconfigure},
    {"firmware_update", firmware},
};
}  // namespace

RadioActions zigbee_actions() { return {kActions, {}}; }  // every ha-mcp zigbee action is done

}  // namespace hamcp::tools::radio
