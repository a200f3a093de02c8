// ZHA's WebSocket API (homeassistant/components/zha/websocket_api.py) over
// Home::radios["zha"]: network settings, devices, one device by IEEE, groups
// (list, one, add, remove, members add/remove), permit joining, bind/unbind;
// backups and channel in ws_zha_network_commands.cpp, clusters and
// reconfigure in ws_zha_cluster_commands.cpp.
// Unknown while there is no "zha" config entry.
#include "sim/ws/ws_radio_data.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;
using namespace radio_util;
using namespace radio_data;

json::object* group_by_id(WsConnection& c, std::int64_t group_id) {
  for (auto& g : list(zha(c), "groups"))
    if (g.as_object().at("group_id").to_number<std::int64_t>() == group_id) return &g.as_object();
  return nullptr;
}

// A group as ZHA's group_info shows it: members with their device's info.
json::object group_info(WsConnection& c, const json::object& g) {
  json::array members;
  for (const auto& m : g.at("members").as_array()) {
    const std::string ieee(m.at("ieee").as_string());
    const json::object* d = zha_device(c, ieee);
    members.push_back(json::object{{"endpoint_id", m.at("endpoint_id")},
                                   {"device", d ? json::value(*d) : json::value(nullptr)},
                                   {"entities", json::array{}}});
  }
  return json::object{{"name", g.at("name")}, {"group_id", g.at("group_id")}, {"members", std::move(members)}};
}

void network_settings(WsConnection& c, int64_t id, const json::object&) { c.send_result(id, zha(c)["network"]); }

void devices(WsConnection& c, int64_t id, const json::object&) { c.send_result(id, list(zha(c), "devices")); }

void device(WsConnection& c, int64_t id, const json::object& msg) {
  const json::object* d = zha_device(c, req_string(msg, "ieee"));
  if (!d) return c.send_error(id, "not_found", "ZHA Device not found");
  c.send_result(id, *d);
}

void groups(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& g : list(zha(c), "groups")) out.push_back(group_info(c, g.as_object()));
  c.send_result(id, out);
}

void group(WsConnection& c, int64_t id, const json::object& msg) {
  const json::object* g = group_by_id(c, req_int(msg, "group_id"));
  if (!g) return c.send_error(id, "not_found", "ZHA Group not found");
  c.send_result(id, group_info(c, *g));
}

json::array members_of(const json::object& msg) {
  const json::value* m = msg.if_contains("members");
  if (!m) return {};
  if (!m->is_array()) throw BadMessage{"expected list for dictionary value @ data['members']"};
  json::array out;
  for (const auto& item : m->as_array()) {
    const json::object* o = item.if_object();
    if (!o || !o->contains("ieee") || !o->contains("endpoint_id"))
      throw BadMessage{"required key not provided @ data['members'][0]['ieee']"};
    out.push_back(json::object{{"ieee", o->at("ieee")}, {"endpoint_id", o->at("endpoint_id")}});
  }
  return out;
}

void group_add(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string name = req_string(msg, "group_name");
  std::int64_t group_id = msg.contains("group_id") ? req_int(msg, "group_id") : 0;
  if (!group_id) {
    group_id = 1;
    while (group_by_id(c, group_id)) ++group_id;
  }
  list(zha(c), "groups").push_back(json::object{{"group_id", group_id}, {"name", name}, {"members", members_of(msg)}});
  c.send_result(id, group_info(c, *group_by_id(c, group_id)));
}

void group_remove(WsConnection& c, int64_t id, const json::object& msg) {
  const json::value* ids = msg.if_contains("group_ids");
  if (!ids) throw BadMessage{"required key not provided @ data['group_ids']"};
  json::array& all = list(zha(c), "groups");
  for (const auto& gid : ids->is_array() ? ids->as_array() : json::array{*ids})
    for (auto it = all.begin(); it != all.end();) it = it->as_object().at("group_id") == gid ? all.erase(it) : it + 1;
  groups(c, id, msg);
}

void group_members(WsConnection& c, int64_t id, const json::object& msg, bool add) {
  json::object* g = group_by_id(c, req_int(msg, "group_id"));
  if (!g) return c.send_error(id, "not_found", "ZHA Group not found");
  const json::array changes = members_of(msg);
  json::array& members = g->at("members").as_array();
  for (const auto& m : changes) {
    auto same = std::find(members.begin(), members.end(), m);
    if (add && same == members.end()) members.push_back(m);
    if (!add && same != members.end()) members.erase(same);
  }
  c.send_result(id, group_info(c, *g));
}

void members_add(WsConnection& c, int64_t id, const json::object& msg) { group_members(c, id, msg, true); }
void members_remove(WsConnection& c, int64_t id, const json::object& msg) { group_members(c, id, msg, false); }

// zha/devices/permit: HA answers at once and streams join events until unsubscribed.
void permit(WsConnection& c, int64_t id, const json::object& msg) {
  const std::int64_t duration = msg.contains("duration") ? req_int(msg, "duration") : 60;
  if (duration < 0 || duration > 254)
    throw BadMessage{"value must be at most 254 for dictionary value @ data['duration']"};
  zha(c)["permit_duration"] = duration;
  zha(c)["permit_node"] = msg.contains("ieee") ? msg.at("ieee") : json::value(nullptr);
  // HA then streams the gateway's join messages on the command's id; the sim has none to send.
  c.send_result(id, nullptr);
}

void binding(WsConnection& c, int64_t id, const json::object& msg, bool bind) {
  const std::string source = req_string(msg, "source_ieee"), target = req_string(msg, "target_ieee");
  if (!zha_device(c, source) || !zha_device(c, target))
    return c.send_error(id, "home_assistant_error", "ZHA device not found");
  json::array& bindings = list(zha(c), "bindings");
  const json::value pair = json::object{{"source_ieee", source}, {"target_ieee", target}};
  auto it = std::find(bindings.begin(), bindings.end(), pair);
  if (bind && it == bindings.end()) bindings.push_back(pair);
  if (!bind && it != bindings.end()) bindings.erase(it);
  c.send_result(id, nullptr);
}

void bind(WsConnection& c, int64_t id, const json::object& msg) { binding(c, id, msg, true); }
void unbind(WsConnection& c, int64_t id, const json::object& msg) { binding(c, id, msg, false); }

}  // namespace

void register_zha_network_commands(ws_util::Table& t);  // ws_zha_network_commands.cpp
void register_zha_cluster_commands(ws_util::Table& t);  // ws_zha_cluster_commands.cpp

void register_zha_commands(ws_util::Table& t) {
  register_zha_network_commands(t);
  register_zha_cluster_commands(t);
  t["zha/network/settings"] = when_loaded<kZha, network_settings>;
  t["zha/devices"] = when_loaded<kZha, devices>;
  t["zha/device"] = when_loaded<kZha, device>;
  t["zha/groups"] = when_loaded<kZha, groups>;
  t["zha/group"] = when_loaded<kZha, group>;
  t["zha/group/add"] = when_loaded<kZha, group_add>;
  t["zha/group/remove"] = when_loaded<kZha, group_remove>;
  t["zha/group/members/add"] = when_loaded<kZha, members_add>;
  t["zha/group/members/remove"] = when_loaded<kZha, members_remove>;
  t["zha/devices/permit"] = when_loaded<kZha, permit>;
  t["zha/devices/bind"] = when_loaded<kZha, bind>;
  t["zha/devices/unbind"] = when_loaded<kZha, unbind>;
}

}  // namespace hamcp::sim
