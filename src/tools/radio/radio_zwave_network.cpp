// radio=zwave actions on the controller and a node's reachability
// (components/zwave_js/api.py, button.py): ping (presses the node's ping
// button, as HA's UI does, then reads its status), add (zwave_js/add_node:
// inclusion runs for params.seconds while its events are collected, then
// stops unless a node was found; a dropped connection ends it, never re-sent,
// and inclusion is stopped), hard_reset (confirm; the controller forgets
// every node: zwave_js/hard_reset_controller).
#include <algorithm>

#include "tools/radio/radio_stream.hpp"
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& zwave() { return *find_radio("zwave"); }

// The node's ping button: translation key "ping" (button.py), else an entity id ending in _ping.
std::string ping_button(const ha::Snapshot& snap, const std::string& device_id) {
  std::string found;
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& v) {
    const json::object* e = v.if_object();
    if (!found.empty() || !e || !e->contains("device_id") || e->at("device_id") != device_id.c_str()) return;
    const std::string entity_id(e->at("entity_id").as_string());
    const json::value* key = e->if_contains("translation_key");
    const bool by_key = key && key->is_string() && key->get_string() == "ping";
    if (entity_id.starts_with("button.") && (by_key || entity_id.ends_with("_ping"))) found = entity_id;
  });
  return found;
}

asio::awaitable<json::value> node_status(ToolEnv& env, const Device& device) {
  auto asking = command(env, zwave(), json::object{{"type", "zwave_js/node_status"}, {"device_id", device.id}});
  json::value node = co_await std::move(asking);
  co_return node.is_object() && node.as_object().contains("status") ? node.at("status") : json::value(nullptr);
}

constexpr char kAddCheck[] =
    "action=network_status shows the controller's inclusion state and its nodes; call add again once it is idle.";

// A drop ended add_node (never sent again): HA's controller may still be
// including, so end that (a new command, not the add repeated) and say so.
asio::awaitable<void> stop_after_drop(ToolEnv& env, const std::string& entry) {
  ToolError error = not_repeated("inclusion (zwave_js/add_node)", kAddCheck);
  try {
    auto stopping = command(env, zwave(), json::object{{"type", "zwave_js/stop_inclusion"}, {"entry_id", entry}});
    error.extra["inclusion_stopped"] = co_await std::move(stopping);
  } catch (const std::exception&) {
    error.extra["inclusion_stopped"] = "unknown";
  }
  throw ToolException(std::move(error));
}

bool names_a_node(const json::value& event) {
  const json::object* e = event.if_object();
  const json::value* name = e ? e->if_contains("event") : nullptr;
  return name && (*name == "node found" || *name == "node added");
}

}  // namespace

asio::awaitable<json::object> zwave_ping(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, zwave());
  const Device device = co_await std::move(finding);
  auto reading = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(reading);
  const std::string button = ping_button(*snap, device.id);
  if (button.empty())
    throw ToolException("no_ping_button", device.name + " has no ping button (the controller has none).",
                        "Ping a node other than the controller; action=network_status lists them.");
  ha::ServiceCall press{"button", "press", {}, {{"entity_id", button}}, false, {}};
  auto pressing = env.ha.call_service(std::move(press));
  co_await std::move(pressing);
  auto asking = node_status(env, device);
  json::value status = co_await std::move(asking);
  co_return json::object{{"done", true},
                         {"device_id", device.id},
                         {"name", device.name},
                         {"pressed", button},
                         {"status", std::move(status)},
                         {"note", "A sleeping node answers when it wakes; its status then changes."}};
}

asio::awaitable<json::object> zwave_add(Args& args, ToolEnv& env) {
  auto finding = entry_id(env, zwave());
  const std::string entry = co_await std::move(finding);
  const std::int64_t seconds = param(args, "seconds") ? param_int(args, "seconds") : 10;
  if (seconds < 1 || seconds > 120)
    throw ToolException(bad_argument("params.seconds", "must be 1..120", "How long to collect inclusion events."));
  json::object message{{"type", "zwave_js/add_node"}, {"entry_id", entry}};
  if (param(args, "inclusion_strategy")) message["inclusion_strategy"] = param_int(args, "inclusion_strategy");
  for (const char* key : {"qr_code_string", "dsk"})
    if (param(args, key)) message[key] = param_str(args, key);
  if (const json::value* force = param(args, "force_security"); force && force->is_bool())
    message["force_security"] = force->get_bool();
  auto events = std::make_shared<json::array>();
  auto lost = std::make_shared<std::atomic<bool>>(false);
  auto subscribing = subscribe_command(
      env, std::move(message),
      [events](json::value& event, bool) {
        if (events->size() < 50) events->push_back(event);
      },
      lost, "inclusion (zwave_js/add_node)", kAddCheck);
  std::uint64_t subscription = 0;
  bool cut_before_confirmed = false;
  try {
    subscription = co_await std::move(subscribing);
  } catch (const ToolException& e) {
    // A drop before HA confirmed add_node: HA may have started inclusion all the same.
    if (e.error().code != "write_outcome_unknown") throw;
    cut_before_confirmed = true;
  }
  if (cut_before_confirmed) {  // not inside the catch: no co_await there
    auto stopping = stop_after_drop(env, entry);
    co_await std::move(stopping);
  }
  auto waiting =
      listen_until(std::chrono::steady_clock::now() + std::chrono::seconds(seconds), *lost, [] { return false; });
  co_await std::move(waiting);
  auto ending = env.ha.unsubscribe(subscription);  // after a drop: only hamcp's own book
  co_await std::move(ending);
  if (*lost) {
    auto stopping = stop_after_drop(env, entry);
    co_await std::move(stopping);
  }
  const bool node_seen = std::any_of(events->begin(), events->end(), names_a_node);
  json::object out{{"listened_seconds", seconds}, {"events", *events}, {"node_found", node_seen}};
  if (!node_seen) {
    // Nothing joined: end inclusion rather than leave the controller open to any device.
    auto stopping = command(env, zwave(), json::object{{"type", "zwave_js/stop_inclusion"}, {"entry_id", entry}});
    out["inclusion_stopped"] = co_await std::move(stopping);
    out["hint"] = "Put the device in inclusion mode (see its manual), then call again.";
  }
  co_return out;
}

asio::awaitable<json::object> zwave_hard_reset(Args& args, ToolEnv& env) {
  auto finding = entry_id(env, zwave());
  const std::string entry = co_await std::move(finding);
  auto asking = command(env, zwave(), json::object{{"type", "zwave_js/network_status"}, {"entry_id", entry}});
  const json::value status = co_await std::move(asking);
  const json::object& controller = status.at("controller").as_object();
  const std::size_t nodes = controller.contains("nodes") ? controller.at("nodes").as_array().size() : 0;
  json::object details{{"home_id", controller.contains("home_id") ? controller.at("home_id") : nullptr},
                       {"nodes", nodes}};
  if (!args.flag("confirm", false))
    co_return preview("factory-reset the Z-Wave controller: it leaves its network and forgets all " +
                          std::to_string(nodes) + " nodes, which must be re-included one by one",
                      std::move(details));
  auto resetting = command(env, zwave(), json::object{{"type", "zwave_js/hard_reset_controller"}, {"entry_id", entry}});
  const json::value controller_device = co_await std::move(resetting);
  details["done"] = true;
  details["reset"] = true;
  details["controller_device_id"] = controller_device;
  co_return details;
}

}  // namespace hamcp::tools::radio
