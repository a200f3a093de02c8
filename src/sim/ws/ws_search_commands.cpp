// WebSocket commands search/related and automation/script config.
#include <algorithm>
#include <set>

#include "common/saturate_cast.hpp"
#include "sim/core/blueprints.hpp"
#include "sim/core/json_writer.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/core/time_util.hpp"
#include "sim/home/home_builder.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

// --- search/related ----------------------------------------------------------

struct Related {
  std::map<std::string, std::set<std::string>> by_type;
  void add(const std::string& type, const std::string& id) { by_type[type].insert(id); }
};

// automations/scripts/scenes whose config mentions `needle`
void configs_mentioning(WsConnection& c, const std::string& needle, Related& r) {
  std::string quoted = "\"" + needle + "\"";
  auto& store = c.core().store();
  for (const auto& s : store.all()) {
    std::string_view dom = domain_of(s->entity_id);
    if (dom != "automation" && dom != "script" && dom != "scene") continue;
    const json::object* config = nullptr;
    if (dom == "script") {
      auto it = home(c).script_configs.find(s->entity_id.substr(7));
      if (it != home(c).script_configs.end()) config = &it->second;
    } else {
      const auto* idv = s->attributes.if_contains("id");
      if (!idv || !idv->is_string()) continue;
      auto& m = dom == "automation" ? home(c).automation_configs : home(c).scene_configs;
      auto it = m.find(std::string(idv->get_string()));
      if (it != m.end()) config = &it->second;
    }
    if (config && to_json(*config).find(quoted) != std::string::npos) r.add(std::string(dom), s->entity_id);
  }
}

std::optional<std::string> entity_area(WsConnection& c, const EntityRegistryEntry& e) {
  if (e.area_id) return e.area_id;
  if (e.device_id)
    if (Device* d = c.core().store().device(*e.device_id)) return d->area_id;
  return std::nullopt;
}

void related_to_entity(WsConnection& c, const std::string& item, Related& r) {
  if (auto* e = c.core().store().entity_entry(item)) {
    if (e->device_id) r.add("device", *e->device_id);
    if (auto a = entity_area(c, *e)) {
      r.add("area", *a);
      if (Area* ar = c.core().store().area(*a); ar && ar->floor_id) r.add("floor", *ar->floor_id);
    }
    for (const auto& l : e->labels) r.add("label", l);
    if (e->config_entry_id) r.add("config_entry", *e->config_entry_id);
    r.add("integration", e->platform);
  }
  configs_mentioning(c, item, r);
}

void related_to_device(WsConnection& c, const std::string& item, Related& r) {
  if (Device* d = c.core().store().device(item)) {
    if (d->area_id) r.add("area", *d->area_id);
    for (const auto& ce : d->config_entries) r.add("config_entry", ce);
    for (const auto& l : d->labels) r.add("label", l);
    for (const auto& e : home(c).entities)
      if (e.device_id == item) {
        r.add("entity", e.entity_id);
        r.add("integration", e.platform);
        configs_mentioning(c, e.entity_id, r);
      }
  }
  configs_mentioning(c, item, r);
}

void related_to_area(WsConnection& c, const std::string& item, Related& r) {
  Home& h = home(c);
  if (Area* a = c.core().store().area(item)) {
    if (a->floor_id) r.add("floor", *a->floor_id);
    for (const auto& l : a->labels) r.add("label", l);
  }
  for (const auto& d : h.devices)
    if (d.area_id == item) r.add("device", d.id);
  for (const auto& e : h.entities)
    if (entity_area(c, e) == item) r.add("entity", e.entity_id);
  configs_mentioning(c, item, r);
}

void related_to_floor(WsConnection& c, const std::string& item, Related& r) {
  for (const auto& a : home(c).areas)
    if (a.floor_id == item) r.add("area", a.area_id);
  configs_mentioning(c, item, r);
}

void related_to_label(WsConnection& c, const std::string& item, Related& r) {
  Home& h = home(c);
  auto has = [&](const std::vector<std::string>& labels) {
    return std::find(labels.begin(), labels.end(), item) != labels.end();
  };
  for (const auto& e : h.entities)
    if (has(e.labels)) {
      std::string_view dom = domain_of(e.entity_id);
      r.add(dom == "automation" || dom == "script" || dom == "scene" ? std::string(dom) : "entity", e.entity_id);
    }
  for (const auto& d : h.devices)
    if (has(d.labels)) r.add("device", d.id);
  for (const auto& a : h.areas)
    if (has(a.labels)) r.add("area", a.area_id);
  configs_mentioning(c, item, r);
}

// The stored config of an automation, script or scene entity as JSON text ("" if none).
std::string config_text(WsConnection& c, const std::string& type, const std::string& item) {
  Home& h = home(c);
  StatePtr s = c.core().store().get(item);
  if (!s) return {};
  if (type == "script") {
    auto it = h.script_configs.find(item.substr(7));
    return it == h.script_configs.end() ? std::string() : to_json(it->second);
  }
  const auto* idv = s->attributes.if_contains("id");
  if (!idv || !idv->is_string()) return {};
  auto& m = type == "automation" ? h.automation_configs : h.scene_configs;
  auto it = m.find(std::string(idv->get_string()));
  return it == m.end() ? std::string() : to_json(it->second);
}

void related_to_config(WsConnection& c, const std::string& type, const std::string& item, Related& r) {
  Home& h = home(c);
  if (const std::string config = config_text(c, type, item); !config.empty()) {
    constexpr std::string_view kUse = "\"use_blueprint\":{\"path\":\"";
    if (const auto bp = config.find(kUse); bp != std::string::npos) {
      const std::size_t from = bp + kUse.size();
      r.add(type + "_blueprint", config.substr(from, config.find('"', from) - from));
    }
    auto mentions = [&](const std::string& id) { return config.find("\"" + id + "\"") != std::string::npos; };
    for (const auto& e : h.entities)
      if (mentions(e.entity_id)) r.add("entity", e.entity_id);
    for (const auto& a : h.areas)
      if (mentions(a.area_id)) r.add("area", a.area_id);
    for (const auto& d : h.devices)
      if (mentions(d.id)) r.add("device", d.id);
    for (const auto& l : h.labels)
      if (mentions(l.label_id)) r.add("label", l.label_id);
  }
  if (auto* e = c.core().store().entity_entry(item)) {
    for (const auto& l : e->labels) r.add("label", l);
    for (const auto& [scope, cat] : e->categories) r.add("category", cat);
  }
}

// HA's _async_search_config_entry: its devices (with what they relate to) and its entities.
void related_to_config_entry(WsConnection& c, const std::string& item, Related& r) {
  for (const auto& d : home(c).devices)
    if (std::find(d.config_entries.begin(), d.config_entries.end(), item) != d.config_entries.end()) {
      r.add("device", d.id);
      related_to_device(c, d.id, r);
    }
  for (const auto& e : home(c).entities)
    if (e.config_entry_id == item) r.add("entity", e.entity_id);
}

void search_related(WsConnection& c, int64_t id, const json::object& msg) {
  std::string type = req_string(msg, "item_type"), item = req_string(msg, "item_id");
  using Finder = void (*)(WsConnection&, const std::string&, Related&);
  static const std::map<std::string, Finder, std::less<>> finders = {
      {"entity", related_to_entity}, {"device", related_to_device}, {"area", related_to_area},
      {"floor", related_to_floor},   {"label", related_to_label},   {"config_entry", related_to_config_entry}};
  static const std::set<std::string, std::less<>> known_without_relations = {"integration", "group", "person"};
  Related r;
  if (auto f = finders.find(type); f != finders.end()) {
    f->second(c, item, r);
  } else if (type == "automation" || type == "script" || type == "scene") {
    related_to_config(c, type, item, r);
  } else if (type == "automation_blueprint" || type == "script_blueprint") {
    const std::string domain = type.substr(0, type.find('_'));
    for (const auto& user : blueprint_users(home(c), domain, item)) r.add(domain, user);
  } else if (!known_without_relations.count(type)) {
    throw BadMessage{
        "value must be one of ['area', 'automation', 'automation_blueprint', 'config_entry', 'device', "
        "'entity', 'floor', 'group', 'integration', 'label', 'person', 'scene', 'script', "
        "'script_blueprint'] for dictionary value @ data['item_type']"};
  }
  json::object out;
  for (auto& [t, ids] : r.by_type) {
    json::array a;
    for (const auto& i : ids)
      if (!(t == type && i == item)) a.emplace_back(i);
    if (!a.empty()) out[t] = std::move(a);
  }
  c.send_result(id, out);
}

void automation_config(WsConnection& c, int64_t id, const json::object& msg) {
  std::string eid = req_string(msg, "entity_id");
  StatePtr s = c.core().store().get(eid);
  if (!s || domain_of(eid) != "automation") return c.send_error(id, "not_found", "Entity not found");
  const auto* idv = s->attributes.if_contains("id");
  auto& m = home(c).automation_configs;
  auto it = idv && idv->is_string() ? m.find(std::string(idv->get_string())) : m.end();
  if (it == m.end()) return c.send_error(id, "not_found", "Entity not found");
  c.send_result(id, json::object{{"config", it->second}});
}

void script_config(WsConnection& c, int64_t id, const json::object& msg) {
  std::string eid = req_string(msg, "entity_id");
  auto& m = home(c).script_configs;
  auto it = domain_of(eid) == "script" ? m.find(eid.substr(7)) : m.end();
  if (it == m.end()) return c.send_error(id, "not_found", "Entity not found");
  c.send_result(id, json::object{{"config", it->second}});
}

}  // namespace

void register_search_commands(ws_util::Table& t) {
  t["search/related"] = search_related;
  t["automation/config"] = automation_config;
  t["script/config"] = script_config;
}

}  // namespace hamcp::sim
