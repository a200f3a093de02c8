// radio=zigbee cluster_write and cluster_command: ZHA's services
// zha.set_zigbee_cluster_attribute and zha.issue_zigbee_cluster_command
// (components/zha/websocket_api.py). Both change the device, so they preview
// without confirm. The cluster, attribute and command are checked against the
// device's own lists first (a typo is named with what exists, nothing sent);
// cluster_write reads the attribute before and after, so the answer shows
// exactly what changed.
#include "tools/radio/radio_zigbee_zcl.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;
using namespace zcl;

const Radio& zigbee() { return *find_radio("zigbee"); }

// The device and cluster both actions name, after checking ZHA is set up.
struct Target {
  Device device;
  ClusterRef ref;
};

asio::awaitable<Target> target_arg(Args& args, ToolEnv& env) {
  auto checking = entry_id(env, zigbee());
  co_await std::move(checking);
  auto finding = device_arg(args, env, zigbee());
  Device device = co_await std::move(finding);
  if (!param(args, "cluster_id"))
    throw ToolException(bad_argument("params.cluster_id", "missing",
                                     "action=cluster_read with device_id lists the device's clusters."));
  auto resolving = cluster_arg(args, env, device);
  ClusterRef ref = co_await std::move(resolving);
  co_return Target{std::move(device), std::move(ref)};
}

json::object summary(const Target& t) {
  return json::object{{"device_id", t.device.id},       {"name", t.device.name},
                      {"ieee", t.device.identifier},    {"endpoint_id", t.ref.endpoint_id},
                      {"cluster_id", t.ref.cluster_id}, {"cluster_type", t.ref.cluster_type}};
}

// The ZHA service data every cluster service takes.
json::object service_data(Args& args, const Target& t) {
  json::object data{{"ieee", t.ref.ieee},
                    {"endpoint_id", t.ref.endpoint_id},
                    {"cluster_id", t.ref.cluster_id},
                    {"cluster_type", t.ref.cluster_type}};
  if (param(args, "manufacturer")) data["manufacturer"] = param_int(args, "manufacturer");
  return data;
}

// params.value as HA's schema takes it: vol.Any(int, cv.boolean, cv.string).
json::value write_value(Args& args) {
  const json::value* v = param(args, "value");
  if (!v) throw ToolException(bad_argument("params.value", "missing", "Pass the value to write."));
  if (v->is_int64() || v->is_uint64() || v->is_bool() || v->is_string()) return *v;
  if (v->is_double() && v->get_double() == static_cast<double>(static_cast<std::int64_t>(v->get_double())))
    return static_cast<std::int64_t>(v->get_double());
  throw ToolException(bad_argument("params.value", "must be a whole number, true/false or text",
                                   "ZCL attributes take integers, booleans or strings."));
}

// The attribute's value as the device reports it now; null when it does not answer.
asio::awaitable<json::value> current_value(ToolEnv& env, const ClusterRef& ref, std::int64_t attribute) {
  json::object message = ref.message("zha/devices/clusters/attributes/value");
  message["attribute"] = attribute;
  try {
    auto reading = command(env, zigbee(), std::move(message));
    json::value value = co_await std::move(reading);
    co_return value;
  } catch (const ToolException&) {
  }
  co_return nullptr;
}

}  // namespace

asio::awaitable<json::object> zigbee_cluster_write(Args& args, ToolEnv& env) {
  auto targeting = target_arg(args, env);
  const Target t = co_await std::move(targeting);
  if (!param(args, "attribute"))
    throw ToolException(bad_argument("params.attribute", "missing", "Pass the attribute's id or name."));
  auto listing = attributes_of(env, t.ref);
  const json::array known = co_await std::move(listing);
  const auto wanted = wanted_attributes(args, known);
  if (wanted.size() != 1)
    throw ToolException(bad_argument("params.attribute", "one attribute per write", "Pass a single id or name."));
  const auto& [attribute, attribute_name] = wanted.front();
  const json::value value = write_value(args);
  json::object details = summary(t);
  details["attribute"] = json::object{{"id", attribute}, {"name", attribute_name}};
  details["value"] = value;
  auto reading = current_value(env, t.ref, attribute);
  details["before"] = co_await std::move(reading);
  if (!args.flag("confirm", false))
    co_return preview("write " + (attribute_name.empty() ? std::to_string(attribute) : attribute_name) + " = " +
                          json::serialize(value) + " on " + t.device.name,
                      std::move(details));
  json::object data = service_data(args, t);
  data["attribute"] = attribute;
  data["value"] = value;
  ha::ServiceCall call;
  call.domain = "zha";
  call.service = "set_zigbee_cluster_attribute";
  call.data = std::move(data);
  auto writing = service(env, zigbee(), std::move(call));
  co_await std::move(writing);
  auto rereading = current_value(env, t.ref, attribute);
  details["after"] = co_await std::move(rereading);
  details["done"] = true;
  details["written"] = true;
  co_return details;
}

namespace {

// params.command (id or name; params.command_type narrows it) in the cluster's command list
// (zha/devices/clusters/commands).
asio::awaitable<json::object> command_arg(Args& args, ToolEnv& env, const ClusterRef& ref) {
  const json::value* wanted = param(args, "command");
  if (!wanted) throw ToolException(bad_argument("params.command", "missing", "Pass the command's id or name."));
  auto listing = command_list(env, zigbee(), ref.message("zha/devices/clusters/commands"));
  const json::array known = co_await std::move(listing);
  const std::optional<std::int64_t> id = zcl_number(*wanted);
  const std::string type = param(args, "command_type") ? param_str(args, "command_type") : std::string();
  if (!type.empty() && type != "server" && type != "client")
    throw ToolException(bad_argument("params.command_type", "must be \"server\" or \"client\"",
                                     "Leave it out: the command's own type is used."));
  for (const auto& k : known) {
    const json::object& o = k.as_object();
    if (!type.empty() && o.at("type") != type.c_str()) continue;
    if ((id && o.at("id").to_number<std::int64_t>() == *id) || (!id && o.at("name") == *wanted))
      co_return json::object{{"id", o.at("id")}, {"name", o.at("name")}, {"command_type", o.at("type")}};
  }
  json::array names;
  for (const auto& k : known)
    names.push_back(json::object{{"id", k.at("id")}, {"name", k.at("name")}, {"command_type", k.at("type")}});
  ToolError error = bad_argument("params.command", "the cluster has no command " + json::serialize(*wanted),
                                 "Use an id or a name listed in commands.");
  error.extra["commands"] = std::move(names);
  throw ToolException(std::move(error));
}

}  // namespace

asio::awaitable<json::object> zigbee_cluster_command(Args& args, ToolEnv& env) {
  auto targeting = target_arg(args, env);
  const Target t = co_await std::move(targeting);
  auto resolving = command_arg(args, env, t.ref);
  const json::object cmd = co_await std::move(resolving);
  const json::value* list_args = param(args, "args");
  const json::value* named = param(args, "params");
  if (list_args && named)
    throw ToolException(bad_argument("params.args", "give args or params, not both", "params (by name) is preferred."));
  if (named && !named->is_object())
    throw ToolException(bad_argument("params.params", "must be an object", "{\"identify_time\": 5}"));
  json::object details = summary(t);
  details["command"] = cmd;
  details["params"] = named ? *named : json::value(json::object{});
  if (list_args) details["args"] = *list_args;
  if (!args.flag("confirm", false))
    co_return preview("send " + std::string(cmd.at("name").as_string()) + " to " + t.device.name + " (cluster " +
                          std::to_string(t.ref.cluster_id) + ")",
                      std::move(details));
  json::object data = service_data(args, t);
  data["command"] = cmd.at("id");
  data["command_type"] = cmd.at("command_type");
  if (list_args)
    data["args"] = list_args->is_array() ? *list_args : json::value(json::array{*list_args});
  else
    data["params"] = details["params"];  // HA wants args or params: an empty params for a command without any
  ha::ServiceCall call;
  call.domain = "zha";
  call.service = "issue_zigbee_cluster_command";
  call.data = std::move(data);
  auto issuing = service(env, zigbee(), std::move(call));
  co_await std::move(issuing);
  details["done"] = true;
  details["issued"] = true;
  co_return details;
}

}  // namespace hamcp::tools::radio
