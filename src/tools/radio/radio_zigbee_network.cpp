// radio=zigbee network-wide and cluster actions over ZHA's WebSocket API
// (components/zha/websocket_api.py): network_backup (create, or list with
// params.list), network_restore and change_channel (confirm; both rewrite the
// whole network), cluster_read (a device's clusters, a cluster's attributes,
// or attribute values). Backups are shown without their keys: a restore picks
// the stored backup by backup_time, so the network key never leaves HA.
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& zigbee() { return *find_radio("zigbee"); }

json::value field(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v ? *v : json::value(nullptr);
}

// What a backup is, without its keys (network_key, tc link key, key table).
json::object backup_summary(const json::object& backup) {
  json::object out{{"backup_time", field(backup, "backup_time")}};
  if (const json::object* info = backup.contains("network_info") ? backup.at("network_info").if_object() : nullptr) {
    for (const char* k : {"channel", "pan_id", "extended_pan_id", "nwk_update_id", "source"}) out[k] = field(*info, k);
    const json::value* children = info->if_contains("children");
    if (children && children->is_array()) out["children"] = children->as_array().size();
  }
  if (const json::object* node = backup.contains("node_info") ? backup.at("node_info").if_object() : nullptr)
    out["coordinator_ieee"] = field(*node, "ieee");
  return out;
}

asio::awaitable<json::array> stored_backups(ToolEnv& env) {
  return command_list(env, zigbee(), json::object{{"type", "zha/network/backups/list"}});
}

asio::awaitable<json::object> current_network(ToolEnv& env) {
  auto asking = command(env, zigbee(), json::object{{"type", "zha/network/settings"}});
  const json::value settings = co_await std::move(asking);
  co_return backup_summary(settings.at("settings").as_object());
}

asio::awaitable<json::object> network_backup(Args& args, ToolEnv& env) {
  if (param(args, "list") && param(args, "list")->is_bool() && param(args, "list")->get_bool()) {
    auto listing = stored_backups(env);
    const json::array all = co_await std::move(listing);
    json::array out;
    for (const auto& b : all) out.push_back(backup_summary(b.as_object()));
    co_return json::object{{"radio", "zigbee"}, {"backups", std::move(out)}};
  }
  auto creating = command(env, zigbee(), json::object{{"type", "zha/network/backups/create"}});
  const json::value made = co_await std::move(creating);
  co_return json::object{{"done", true},
                         {"backup", backup_summary(made.at("backup").as_object())},
                         {"is_complete", field(made.as_object(), "is_complete")},
                         {"hint", "network_restore with params.backup_time restores it."}};
}

// The stored backup params.backup_time names (its keys stay inside HA).
asio::awaitable<json::object> chosen_backup(Args& args, ToolEnv& env) {
  const std::string wanted = param_str(args, "backup_time");
  auto listing = stored_backups(env);
  const json::array all = co_await std::move(listing);
  json::array times;
  for (const auto& b : all) {
    const json::object& o = b.as_object();
    if (o.contains("backup_time") && o.at("backup_time") == wanted.c_str()) co_return o;
    times.push_back(field(o, "backup_time"));
  }
  ToolError error = bad_argument("params.backup_time", "no stored ZHA backup from " + wanted,
                                 "Use one of backup_times (network_backup with params.list=true lists them).");
  error.extra["backup_times"] = std::move(times);
  throw ToolException(std::move(error));
}

asio::awaitable<json::object> network_restore(Args& args, ToolEnv& env) {
  auto choosing = chosen_backup(args, env);
  json::object backup = co_await std::move(choosing);
  auto reading = current_network(env);
  json::object current = co_await std::move(reading);
  json::object details{{"current", std::move(current)}, {"restore", backup_summary(backup)}};
  if (!args.flag("confirm", false))
    co_return preview("write this backup's network settings to the Zigbee coordinator, replacing the current network",
                      std::move(details));
  json::object message{{"type", "zha/network/backups/restore"}, {"backup", std::move(backup)}};
  if (const json::value* force = param(args, "ezsp_force_write_eui64"); force && force->is_bool())
    message["ezsp_force_write_eui64"] = force->get_bool();
  auto restoring = command(env, zigbee(), std::move(message));
  co_await std::move(restoring);
  details["done"] = true;
  details["restored"] = true;
  co_return details;
}

json::value channel_arg(Args& args) {
  const json::value* v = param(args, "channel");
  if (v && v->is_string() && v->get_string() == "auto") return "auto";
  const std::int64_t channel = param_int(args, "channel");
  if (channel < 11 || channel > 26)
    throw ToolException(bad_argument("params.channel", "must be 11..26 or \"auto\"", "Zigbee uses channels 11-26."));
  return channel;
}

asio::awaitable<json::object> change_channel(Args& args, ToolEnv& env) {
  const json::value channel = channel_arg(args);
  auto reading = current_network(env);
  const json::object current = co_await std::move(reading);
  json::object details{{"from_channel", field(current, "channel")}, {"to_channel", channel}};
  if (!args.flag("confirm", false))
    co_return preview("move the whole Zigbee network to channel " + json::serialize(channel) +
                          "; devices follow within minutes, sleepy ones may need a wake-up",
                      std::move(details));
  auto changing =
      command(env, zigbee(), json::object{{"type", "zha/network/change_channel"}, {"new_channel", channel}});
  co_await std::move(changing);
  auto rereading = current_network(env);
  const json::object after = co_await std::move(rereading);
  details["done"] = true;
  details["channel"] = field(after, "channel");
  co_return details;
}

}  // namespace

// Entries of radio_zigbee.cpp's action table.
asio::awaitable<json::object> zigbee_network_backup(Args& args, ToolEnv& env) { return network_backup(args, env); }
asio::awaitable<json::object> zigbee_network_restore(Args& args, ToolEnv& env) { return network_restore(args, env); }
asio::awaitable<json::object> zigbee_change_channel(Args& args, ToolEnv& env) { return change_channel(args, env); }

}  // namespace hamcp::tools::radio
