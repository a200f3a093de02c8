// radio=zwave: Z-Wave JS through zwave_js/* (components/zwave_js/api.py).
// Reads: network_status, diagnostics (network or one node), get_config_params,
// get_config_param. Writes: set_config_param, reinterview, rebuild_routes,
// remove_device (failed nodes only, confirm), firmware_update; ping, add and
// hard_reset (confirm) in radio_zwave_network.cpp.
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& zwave() { return *find_radio("zwave"); }

// "<home id>-<node id>" -> node id (0 when the identifier has another form).
std::int64_t node_id_of(const std::string& identifier) {
  const auto dash = identifier.find('-');
  if (dash == std::string::npos) return 0;
  try {
    return std::stoll(identifier.substr(dash + 1));
  } catch (const std::exception&) {
    return 0;
  }
}

asio::awaitable<json::object> network_status(Args&, ToolEnv& env) {
  auto finding = entry_id(env, zwave());
  const std::string entry = co_await std::move(finding);
  auto asking = command(env, zwave(), json::object{{"type", "zwave_js/network_status"}, {"entry_id", entry}});
  json::value status = co_await std::move(asking);
  auto reading = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(reading);
  std::map<std::int64_t, Device> by_node;
  for (auto& d : radio_devices(*snap, zwave())) by_node[node_id_of(d.identifier)] = d;
  json::object& controller = status.as_object()["controller"].as_object();
  json::object counts;
  json::array nodes;
  for (auto& n : controller["nodes"].as_array()) {
    json::object& node = n.as_object();
    const std::string s = node.contains("status") && node.at("status").is_string()
                              ? std::string(node.at("status").get_string())
                              : "unknown";
    counts[s] = (counts.contains(s) ? counts[s].as_int64() : 0) + 1;
    auto dev = by_node.find(node.contains("node_id") ? node.at("node_id").to_number<std::int64_t>() : -1);
    if (dev != by_node.end()) {
      node["device_id"] = dev->second.id;
      node["name"] = dev->second.name;
    }
    nodes.push_back(std::move(node));
  }
  controller.erase("nodes");
  co_return json::object{{"radio", "zwave"},
                         {"entry_id", entry},
                         {"client", status.as_object()["client"]},
                         {"controller", std::move(controller)},
                         {"node_count", nodes.size()},
                         {"nodes_by_status", std::move(counts)},
                         {"nodes", std::move(nodes)}};
}

asio::awaitable<json::object> diagnostics(Args& args, ToolEnv& env) {
  auto finding = optional_device(args, env, zwave());
  const std::optional<Device> device = co_await std::move(finding);
  if (!device) {
    auto network = network_status(args, env);
    json::object out = co_await std::move(network);
    json::array problems;
    for (const auto& n : out.at("nodes").as_array())
      if (n.as_object().at("status") == "dead" || n.as_object().at("ready") == false) problems.push_back(n);
    out["problem_nodes"] = std::move(problems);
    co_return out;
  }
  auto asking = command(env, zwave(), json::object{{"type", "zwave_js/node_status"}, {"device_id", device->id}});
  json::value node = co_await std::move(asking);
  co_return json::object{{"radio", "zwave"}, {"device_id", device->id}, {"name", device->name}, {"node", node}};
}

// One parameter as the tools show it: property, label, value, range, states.
json::object param_view(const std::string& value_id, const json::object& p) {
  json::object out{{"value_id", value_id}, {"property", p.at("property")}, {"endpoint", p.at("endpoint")}};
  if (const json::value* key = p.if_contains("property_key"); key && !key->is_null()) out["property_key"] = *key;
  out["value"] = p.contains("value") ? p.at("value") : nullptr;
  if (const json::object* meta = p.if_contains("metadata") ? p.at("metadata").if_object() : nullptr)
    for (const char* k : {"label", "description", "min", "max", "default", "unit", "writeable", "states"})
      if (const json::value* v = meta->if_contains(k); v && !v->is_null()) out[k] = *v;
  return out;
}

asio::awaitable<json::array> config_params(ToolEnv& env, const Device& device) {
  auto asking =
      command(env, zwave(), json::object{{"type", "zwave_js/get_config_parameters"}, {"device_id", device.id}});
  const json::value params = co_await std::move(asking);
  json::array out;
  if (const json::object* o = params.if_object())
    for (const auto& [value_id, p] : *o)
      if (p.is_object()) out.push_back(param_view(std::string(value_id), p.get_object()));
  co_return out;
}

asio::awaitable<json::object> get_config_params(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zwave());
  const Device device = co_await std::move(finding);
  auto reading = config_params(env, device);
  json::array params = co_await std::move(reading);
  co_return json::object{{"device_id", device.id}, {"name", device.name}, {"parameters", std::move(params)}};
}

std::int64_t property_arg(Args& args) {
  return param(args, "property") ? param_int(args, "property") : param_int(args, "parameter");
}

const json::object* find_param(const json::array& params, std::int64_t property, std::int64_t endpoint) {
  for (const auto& p : params) {
    const json::object& o = p.as_object();
    if (o.at("property").to_number<std::int64_t>() == property &&
        o.at("endpoint").to_number<std::int64_t>() == endpoint)
      return &o;
  }
  return nullptr;
}

asio::awaitable<json::object> get_config_param(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zwave());
  const Device device = co_await std::move(finding);
  const std::int64_t property = property_arg(args);
  const std::int64_t endpoint = param(args, "endpoint") ? param_int(args, "endpoint") : 0;
  auto reading = config_params(env, device);
  const json::array params = co_await std::move(reading);
  const json::object* p = find_param(params, property, endpoint);
  if (!p)
    throw ToolException(bad_argument("params.property", device.name + " has no parameter " + std::to_string(property),
                                     "action=get_config_params lists its parameters."));
  co_return json::object{{"device_id", device.id}, {"name", device.name}, {"parameter", *p}};
}

asio::awaitable<json::object> set_config_param(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zwave());
  const Device device = co_await std::move(finding);
  const std::int64_t property = property_arg(args);
  const std::int64_t endpoint = param(args, "endpoint") ? param_int(args, "endpoint") : 0;
  const std::int64_t value = param_int(args, "value");
  auto reading = config_params(env, device);
  const json::array params = co_await std::move(reading);
  const json::object* before = find_param(params, property, endpoint);
  if (!before)
    throw ToolException(bad_argument("params.property", device.name + " has no parameter " + std::to_string(property),
                                     "action=get_config_params lists its parameters."));
  json::object message{{"type", "zwave_js/set_config_parameter"},
                       {"device_id", device.id},
                       {"property", property},
                       {"endpoint", endpoint},
                       {"value", value}};
  if (param(args, "property_key")) message["property_key"] = param_int(args, "property_key");
  auto setting = command(env, zwave(), std::move(message));
  const json::value result = co_await std::move(setting);
  co_return json::object{{"done", true},
                         {"device_id", device.id},
                         {"name", device.name},
                         {"property", property},
                         {"label", before->contains("label") ? before->at("label") : nullptr},
                         {"before", before->at("value")},
                         {"value", value},
                         {"result", result}};
}

asio::awaitable<json::object> reinterview(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zwave());
  const Device device = co_await std::move(finding);
  auto asking = command(env, zwave(), json::object{{"type", "zwave_js/refresh_node_info"}, {"device_id", device.id}});
  co_await std::move(asking);
  co_return json::object{{"done", true},
                         {"device_id", device.id},
                         {"name", device.name},
                         {"note", "Z-Wave JS started the interview; a sleeping node finishes it when it wakes."}};
}

asio::awaitable<json::object> rebuild_routes(Args& args, ToolEnv& env) {
  auto finding = optional_device(args, env, zwave());
  const std::optional<Device> device = co_await std::move(finding);
  if (device) {
    auto asking =
        command(env, zwave(), json::object{{"type", "zwave_js/rebuild_node_routes"}, {"device_id", device->id}});
    const json::value ok = co_await std::move(asking);
    co_return json::object{{"done", true}, {"device_id", device->id}, {"name", device->name}, {"rebuilt", ok}};
  }
  auto entry_finding = entry_id(env, zwave());
  const std::string entry = co_await std::move(entry_finding);
  auto asking = command(env, zwave(), json::object{{"type", "zwave_js/begin_rebuilding_routes"}, {"entry_id", entry}});
  const json::value started = co_await std::move(asking);
  co_return json::object{{"done", true},
                         {"scope", "network"},
                         {"started", started},
                         {"note", "Z-Wave JS rebuilds every node's routes in the background (minutes)."}};
}

asio::awaitable<json::object> remove_device(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zwave());
  const Device device = co_await std::move(finding);
  auto asking = command(env, zwave(), json::object{{"type", "zwave_js/node_status"}, {"device_id", device.id}});
  const json::value node = co_await std::move(asking);
  json::object details{{"device_id", device.id}, {"name", device.name}, {"node", node}};
  const bool failed = node.as_object().contains("status") && node.at("status") == "dead";
  if (!failed)
    details["warning"] =
        "Z-Wave JS removes only a failed (dead) node; a working node is removed by exclusion at the device.";
  if (!args.flag("confirm", false))
    co_return preview(
        "remove failed Z-Wave node " + device.name + " from the network and its device from Home Assistant",
        std::move(details));
  auto removing =
      command(env, zwave(), json::object{{"type", "zwave_js/remove_failed_node"}, {"device_id", device.id}});
  co_await std::move(removing);
  details["done"] = true;
  details["removed"] = true;
  co_return details;
}

asio::awaitable<json::object> firmware(Args& args, ToolEnv& env) { return firmware_update(args, env, zwave()); }

constexpr Action kActions[] = {
    {"network_status", network_status},
    {"diagnostics", diagnostics},
    {"get_config_params", get_config_params},
    {"get_config_param", get_config_param},
    {"set_config_param", set_config_param},
    {"reinterview", reinterview},
    {"rebuild_routes", rebuild_routes},
    {"remove_device", remove_device, true},
    {"firmware_update", firmware},
    {"ping", zwave_ping},
    {"add", zwave_add},
    {"hard_reset", zwave_hard_reset, true},
};

}  // namespace

RadioActions zwave_actions() { return {kActions, {}}; }  // every ha-mcp zwave action is done

}  // namespace hamcp::tools::radio
