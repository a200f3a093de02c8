// ZHA's network commands (homeassistant/components/zha/websocket_api.py) over
// Home::radios["zha"]: network backups (list, create, restore) and the
// channel change. Clusters and reconfigure: ws_zha_cluster_commands.cpp.
#include "sim/core/time_util.hpp"
#include "sim/ws/ws_radio_data.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;

json::object& settings(WsConnection& c) { return zha(c)["network"].as_object()["settings"].as_object(); }

void backups_list(WsConnection& c, int64_t id, const json::object&) { c.send_result(id, list(zha(c), "backups")); }

// zigpy's create_backup: the current network settings stamped now; kept in the list.
void backups_create(WsConnection& c, int64_t id, const json::object&) {
  json::object backup = settings(c);
  backup["backup_time"] = iso_time(now_timestamp());
  list(zha(c), "backups").push_back(backup);
  c.send_result(id, json::object{{"backup", std::move(backup)}, {"is_complete", true}});
}

// NetworkBackup.from_dict refuses a dict without network_info / node_info.
void backups_restore(WsConnection& c, int64_t id, const json::object& msg) {
  const json::value* backup = msg.if_contains("backup");
  if (!backup) throw BadMessage{"required key not provided @ data['backup']"};
  const json::object* b = backup->if_object();
  if (!b || !b->contains("network_info") || !b->contains("node_info"))
    throw BadMessage{"expected a zigpy network backup for dictionary value @ data['backup']"};
  json::object restored = *b;
  restored["backup_time"] = settings(c).at("backup_time");
  settings(c) = std::move(restored);
  c.send_result(id, nullptr);
}

// vol.Any("auto", vol.Range(11, 26)); "auto" picks the sim's quietest channel, 25.
void change_channel(WsConnection& c, int64_t id, const json::object& msg) {
  const json::value* v = msg.if_contains("new_channel");
  if (!v) throw BadMessage{"required key not provided @ data['new_channel']"};
  std::int64_t channel = 25;
  if (!(v->is_string() && v->get_string() == "auto")) {
    if (!v->is_int64() || v->get_int64() < 11 || v->get_int64() > 26)
      throw BadMessage{"value must be at least 11 and at most 26 for dictionary value @ data['new_channel']"};
    channel = v->get_int64();
  }
  json::object& info = settings(c)["network_info"].as_object();
  info["channel"] = channel;
  info["channel_mask"] = json::array{channel};
  info["nwk_update_id"] = info["nwk_update_id"].to_number<std::int64_t>() + 1;
  c.send_result(id, nullptr);
}

}  // namespace

void register_zha_network_commands(ws_util::Table& t) {
  t["zha/network/backups/list"] = when_loaded<kZha, backups_list>;
  t["zha/network/backups/create"] = when_loaded<kZha, backups_create>;
  t["zha/network/backups/restore"] = when_loaded<kZha, backups_restore>;
  t["zha/network/change_channel"] = when_loaded<kZha, change_channel>;
}

}  // namespace hamcp::sim
