// radio=zigbee reconfigure: ZHA's zha/devices/reconfigure (components/zha/
// websocket_api.py), the UI's "Reconfigure" of a device: ZHA binds its
// clusters again and re-applies attribute reporting. HA never answers it with
// a result; it streams the cluster handlers' messages (zha_channel_bind,
// zha_channel_configure_reporting, zha_channel_cfg_done) until unsubscribed.
// They are collected until cfg_done or params.seconds (default 30), then the
// subscription ends and the answer says per cluster what was configured.
// It re-applies ZHA's own configuration, so it needs no confirm. A dropped
// connection ends it with write_outcome_unknown: it is never sent again.
#include <mutex>

#include "tools/radio/radio_stream.hpp"
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& zigbee() { return *find_radio("zigbee"); }

// What the event handler (on the WebSocket client's strand) hands the tool.
struct Progress {
  std::mutex mutex;
  json::array events;
  bool done = false;
};

// One cluster's line of the answer, from its bind and configure-reporting messages.
json::object& cluster_line(json::object& clusters, const json::object& data) {
  const json::value* name = data.if_contains("cluster_name");
  const std::string key = name && name->is_string() ? std::string(name->get_string()) : "unknown";
  json::value& line = clusters[key];
  if (!line.is_object())
    line = json::object{{"cluster_id", data.contains("cluster_id") ? data.at("cluster_id") : nullptr}};
  return line.as_object();
}

// {clusters: {OnOff: {cluster_id, bound, reporting: {on_off: "SUCCESS"}}}, failures: [...]}.
json::object fold(const json::array& events) {
  json::object clusters;
  json::array failures;
  for (const auto& e : events) {
    const json::object* o = e.if_object();
    const json::value* data = o ? o->if_contains("zha_channel_msg_data") : nullptr;
    if (!data || !data->is_object()) continue;
    json::object& line = cluster_line(clusters, data->as_object());
    if (o->at("type") == "zha_channel_bind") {
      const json::value* ok = data->as_object().if_contains("success");
      line["bound"] = ok ? *ok : json::value(nullptr);
      if (ok && *ok == false) failures.push_back(json::object{{"cluster", data->at("cluster_name")}, {"step", "bind"}});
    }
    const json::value* attrs = data->as_object().if_contains("attributes");
    if (o->at("type") != "zha_channel_configure_reporting" || !attrs || !attrs->is_object()) continue;
    json::object reporting;
    for (const auto& [name, a] : attrs->as_object()) {
      const json::value* status = a.is_object() ? a.as_object().if_contains("status") : nullptr;
      reporting[name] = status ? *status : json::value(nullptr);
      if (status && *status != "SUCCESS")
        failures.push_back(
            json::object{{"cluster", data->at("cluster_name")}, {"attribute", name}, {"status", *status}});
    }
    line["reporting"] = std::move(reporting);
  }
  return json::object{{"clusters", std::move(clusters)}, {"failures", std::move(failures)}};
}

void on_event(Progress& progress, const json::value& event) {
  std::lock_guard lock(progress.mutex);
  const json::object* o = event.if_object();
  if (o && o->contains("type") && o->at("type") == "zha_channel_cfg_done") progress.done = true;
  if (progress.events.size() < 200) progress.events.push_back(event);
}

bool finished(Progress& progress) {
  std::lock_guard lock(progress.mutex);
  return progress.done;
}

// Subscribes; HA's refusals as command() words them. nullopt: no message at all
// within the client's wait (a sleeping device configures when it wakes).
constexpr char kCheck[] =
    "Check the device (ha_get_device: its entities available, their last updates) before calling reconfigure again.";

asio::awaitable<std::optional<std::uint64_t>> subscribe(ToolEnv& env, const Device& device,
                                                        std::shared_ptr<Progress> progress,
                                                        std::shared_ptr<std::atomic<bool>> lost) {
  json::object message{{"type", "zha/devices/reconfigure"}, {"ieee", device.identifier}};
  std::optional<ha::HaError> failure;
  try {
    auto subscribing = subscribe_command(
        env, std::move(message), [progress](json::value& event, bool) { on_event(*progress, event); }, std::move(lost),
        "reconfigure", kCheck);
    const std::uint64_t handle = co_await std::move(subscribing);
    co_return handle;
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::command_failed && e.error().cause != ha::ErrorCause::timeout) throw;
    failure = e.error();
  }
  if (failure->cause == ha::ErrorCause::timeout) co_return std::nullopt;
  if (failure->ha_code == "unknown_command")
    throw ToolException("radio_not_configured",
                        "no ZHA config entry: Home Assistant does not know zha/devices/reconfigure.",
                        "Set up the ZHA integration (Settings > Devices & services) with its radio, then call again.");
  ToolError error = from_ha_error(*failure);
  error.code = "radio_refused";
  error.message = "ZHA refused zha/devices/reconfigure (" + failure->ha_code + "): " + failure->detail +
                  (failure->ha_code == "unknown_error" ? " (ZHA does not know the device's IEEE address)" : "");
  error.suggestion = "action=network_status lists the network and its devices.";
  error.extra["ha_code"] = failure->ha_code;
  throw ToolException(std::move(error));
}

}  // namespace

asio::awaitable<json::object> zigbee_reconfigure(Args& args, ToolEnv& env) {
  auto checking = entry_id(env, zigbee());
  co_await std::move(checking);
  auto finding = device_arg(args, env, zigbee());
  const Device device = co_await std::move(finding);
  const std::int64_t seconds = param(args, "seconds") ? param_int(args, "seconds") : 30;
  if (seconds < 1 || seconds > 120)
    throw ToolException(bad_argument("params.seconds", "must be 1..120", "How long to collect ZHA's progress."));
  auto progress = std::make_shared<Progress>();
  auto lost = std::make_shared<std::atomic<bool>>(false);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  auto subscribing = subscribe(env, device, progress, lost);
  const std::optional<std::uint64_t> subscription = co_await std::move(subscribing);
  if (subscription) {
    auto listening = listen_until(deadline, *lost, [progress] { return finished(*progress); });
    co_await std::move(listening);
  }
  if (subscription) {
    auto ending = env.ha.unsubscribe(*subscription);  // after a drop: only hamcp's own book
    co_await std::move(ending);
  }
  if (*lost) throw ToolException(not_repeated("reconfigure", kCheck));
  json::array events;
  bool done = false;
  {
    std::lock_guard lock(progress->mutex);
    events = progress->events;
    done = progress->done;
  }
  json::object out = fold(events);
  out["device_id"] = device.id;
  out["name"] = device.name;
  out["ieee"] = device.identifier;
  out["done"] = done;
  out["messages"] = events.size();
  if (!done)
    out["note"] = "ZHA had not finished within " + std::to_string(seconds) +
                  " s; it goes on in the background (a sleeping device configures when it wakes up).";
  co_return out;
}

}  // namespace hamcp::tools::radio
