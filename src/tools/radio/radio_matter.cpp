// radio=matter: the Matter integration through matter/* (components/matter/
// api.py). Reads: network_status (the Matter devices and their nodes'
// diagnostics), diagnostics (one node). Writes: ping, interview,
// remove_fabric (confirm), firmware_update; commissioning in
// radio_matter_commissioning.cpp.
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

constexpr std::size_t kMaxNodesDiagnosed = 50;

const Radio& matter() { return *find_radio("matter"); }

asio::awaitable<json::object> node_diagnostics(ToolEnv& env, const Device& device) {
  auto asking = command(env, matter(), json::object{{"type", "matter/node_diagnostics"}, {"device_id", device.id}});
  json::value diag = co_await std::move(asking);
  json::object out{{"device_id", device.id}, {"name", device.name}};
  if (json::object* o = diag.if_object())
    for (auto& [k, v] : *o) out[k] = std::move(v);
  co_return out;
}

asio::awaitable<json::object> network_status(Args&, ToolEnv& env) {
  auto finding = entry_id(env, matter());
  const std::string entry = co_await std::move(finding);
  auto reading = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(reading);
  const std::vector<Device> devices = radio_devices(*snap, matter());
  json::array nodes;
  for (const auto& d : devices) {
    if (nodes.size() >= kMaxNodesDiagnosed) break;
    // A device of the integration need not be a node of its own (a bridged device is an endpoint).
    std::string refusal;
    try {
      auto diagnosing = node_diagnostics(env, d);
      nodes.push_back(co_await std::move(diagnosing));
      continue;
    } catch (const ToolException& e) {
      if (e.error().code != "radio_refused") throw;
      refusal = e.error().message;
    }
    nodes.push_back(json::object{{"device_id", d.id}, {"name", d.name}, {"diagnostics_error", refusal}});
  }
  json::object out{
      {"radio", "matter"}, {"entry_id", entry}, {"node_count", devices.size()}, {"nodes", std::move(nodes)}};
  if (devices.size() > kMaxNodesDiagnosed) out["truncated"] = true;
  co_return out;
}

asio::awaitable<json::object> diagnostics(Args& args, ToolEnv& env) {
  auto finding = optional_device(args, env, matter());
  const std::optional<Device> device = co_await std::move(finding);
  if (!device) {
    auto network = network_status(args, env);
    json::object out = co_await std::move(network);
    co_return out;
  }
  auto diagnosing = node_diagnostics(env, *device);
  json::object out = co_await std::move(diagnosing);
  co_return out;
}

asio::awaitable<json::object> ping(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, matter());
  const Device device = co_await std::move(finding);
  auto asking = command(env, matter(), json::object{{"type", "matter/ping_node"}, {"device_id", device.id}});
  const json::value answers = co_await std::move(asking);
  bool any = false;
  if (const json::object* o = answers.if_object())
    for (const auto& [ip, ok] : *o) any = any || ok == true;
  co_return json::object{{"device_id", device.id}, {"name", device.name}, {"reachable", any}, {"addresses", answers}};
}

asio::awaitable<json::object> interview(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, matter());
  const Device device = co_await std::move(finding);
  auto asking = command(env, matter(), json::object{{"type", "matter/interview_node"}, {"device_id", device.id}});
  co_await std::move(asking);
  co_return json::object{{"done", true}, {"device_id", device.id}, {"name", device.name}};
}

// remove_fabric {params.fabric_index}: the node leaves that fabric (another controller's, e.g. a
// phone ecosystem's). Home Assistant's own fabric is refused: the device would be lost to it.
asio::awaitable<json::object> remove_fabric(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, matter());
  const Device device = co_await std::move(finding);
  const std::int64_t index = param_int(args, "fabric_index");
  auto diagnosing = node_diagnostics(env, device);
  const json::object diag = co_await std::move(diagnosing);
  const json::value* own = diag.if_contains("active_fabric_index");
  if (own && own->is_number() && own->to_number<std::int64_t>() == index)
    throw ToolException(bad_argument(
        "params.fabric_index", "fabric " + std::to_string(index) + " is Home Assistant's own fabric on " + device.name,
        "Remove the device from Home Assistant instead; other fabrics are listed in "
        "active_fabrics (action=diagnostics)."));
  json::value fabric = nullptr;
  if (const json::value* all = diag.if_contains("active_fabrics"); all && all->is_array())
    for (const auto& f : all->get_array())
      if (f.is_object() && f.as_object().contains("fabric_index") &&
          f.at("fabric_index").to_number<std::int64_t>() == index)
        fabric = f;
  if (fabric.is_null())
    throw ToolException(bad_argument("params.fabric_index", device.name + " has no fabric " + std::to_string(index),
                                     "action=diagnostics lists its active_fabrics."));
  json::object details{{"device_id", device.id}, {"name", device.name}, {"fabric", fabric}};
  if (!args.flag("confirm", false))
    co_return preview("remove fabric " + std::to_string(index) + " from Matter device " + device.name,
                      std::move(details));
  auto removing =
      command(env, matter(),
              json::object{{"type", "matter/remove_matter_fabric"}, {"device_id", device.id}, {"fabric_index", index}});
  co_await std::move(removing);
  details["done"] = true;
  details["removed"] = true;
  co_return details;
}

asio::awaitable<json::object> firmware(Args& args, ToolEnv& env) { return firmware_update(args, env, matter()); }

constexpr Action kActions[] = {
    {"network_status", network_status},
    {"diagnostics", diagnostics},
    {"ping", ping},
    {"interview", interview},
    {"remove_fabric", remove_fabric, true},
    {"firmware_update", firmware},
    {"commission", matter_commission},
    {"commission_on_network", matter_commission_on_network},
    {"share_out", matter_share_out},
    {"set_thread", matter_set_thread},
    {"set_wifi_credentials", matter_set_wifi_credentials},
};

}  // namespace

RadioActions matter_actions() { return {kActions, {}}; }  // every ha-mcp matter action is done

}  // namespace hamcp::tools::radio
