// WebSocket commands of the entity and device registries.
#include <algorithm>
#include <set>

#include "common/saturate_cast.hpp"
#include "sim/core/json_writer.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/core/time_util.hpp"
#include "sim/home/home_builder.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

// --- entity registry ---------------------------------------------------------

std::string friendly_name(WsConnection& c, const EntityRegistryEntry& e) {
  if (e.name) return *e.name;
  if (e.has_entity_name && e.device_id)
    if (Device* d = c.core().store().device(*e.device_id)) {
      std::string dev = d->name_by_user.value_or(d->name);
      return e.original_name ? dev + " " + *e.original_name : dev;
    }
  return e.original_name.value_or("");
}

// Keeps the state's friendly_name/icon/device_class in line with the registry.
void sync_state(WsConnection& c, const EntityRegistryEntry& e) {
  auto& store = c.core().store();
  StatePtr s = store.get(e.entity_id);
  if (!s) return;
  json::object a = s->attributes;
  std::string name = friendly_name(c, e);
  if (!name.empty()) a["friendly_name"] = name;
  if (e.icon)
    a["icon"] = *e.icon;
  else if (e.original_icon)
    a["icon"] = *e.original_icon;
  else
    a.erase("icon");
  if (e.device_class)
    a["device_class"] = *e.device_class;
  else if (e.original_device_class)
    a["device_class"] = *e.original_device_class;
  if (a != s->attributes) store.set_state(e.entity_id, s->state, std::move(a), ctx(c));
}

void entity_list(WsConnection& c, int64_t id, const json::object&) {
  std::string out = "[";
  bool first = true;
  for (const auto& e : home(c).entities) {
    if (!first) out += ',';
    first = false;
    out += to_json(entity_entry_json(e, false));
  }
  // Fault injection: pad the frame with plausible fake entries (huge-frame tests).
  std::size_t pad = c.core().pad_registry_bytes.load();
  for (std::size_t n = 0; out.size() < pad; ++n) {
    EntityRegistryEntry fake;
    fake.entity_id = "sensor.hamcp_padding_" + std::to_string(n);
    fake.id = std::string(32, 'f');
    fake.unique_id = "padding-" + std::to_string(n);
    fake.platform = "template";
    fake.original_name = std::string(200, 'x');
    if (!first) out += ',';
    first = false;
    out += to_json(entity_entry_json(fake, false));
  }
  out += ']';
  c.send_result_raw(id, out);
}

void entity_list_for_display(WsConnection& c, int64_t id, const json::object&) {
  json::array ents;
  for (const auto& e : home(c).entities) ents.push_back(entity_display_json(e));
  c.send_result(id, json::object{{"entity_categories", json::object{{"0", "config"}, {"1", "diagnostic"}}},
                                 {"entities", std::move(ents)}});
}

void entity_get(WsConnection& c, int64_t id, const json::object& msg) {
  std::string eid = req_string(msg, "entity_id");
  auto* e = c.core().store().entity_entry(eid);
  if (!e) return c.send_error(id, "not_found", "Entity not found");
  c.send_result(id, entity_entry_json(*e, true));
}

void entity_get_entries(WsConnection& c, int64_t id, const json::object& msg) {
  auto ids = opt_strings(msg, "entity_ids");
  if (!msg.contains("entity_ids")) throw BadMessage{"required key not provided @ data['entity_ids']"};
  json::object out;
  for (const auto& eid : ids) {
    auto* e = c.core().store().entity_entry(eid);
    out[eid] = e ? json::value(entity_entry_json(*e, true)) : json::value(nullptr);
  }
  c.send_result(id, out);
}

// HA's checks before an entity registry update changes anything: {code, message}
// of the error to answer, or nothing. Malformed fields throw BadMessage.
std::optional<std::pair<std::string, std::string>> entity_update_error(WsConnection& c, const json::object& msg,
                                                                       const std::string& eid) {
  auto& store = c.core().store();
  static const std::set<std::string> allowed = {
      "type",    "id",           "entity_id",     "name",           "icon",
      "area_id", "device_class", "new_entity_id", "disabled_by",    "hidden_by",
      "aliases", "labels",       "categories",    "options_domain", "options"};
  for (const auto& kv : msg)
    if (!allowed.count(std::string(kv.key())))
      throw BadMessage{"extra keys not allowed @ data['" + std::string(kv.key()) + "']"};
  for (const char* key : {"disabled_by", "hidden_by"}) {
    auto [present, v] = nullable(msg, key);
    if (present && v && *v != "user")
      throw BadMessage{std::string("value must be one of ['user'] for dictionary value @ data['") + key + "']"};
  }
  if (auto [present, v] = nullable(msg, "area_id"); present && v && !store.area(*v))
    return std::make_pair(std::string("invalid_info"), "Area " + *v + " does not exist");
  if (auto n = opt_string(msg, "new_entity_id"); n && *n != eid) {
    if (domain_of(*n) != domain_of(eid))
      return std::make_pair(std::string("invalid_info"),
                            std::string("New entity ID should be same domain as old entity ID"));
    if (n->find('.') == std::string::npos || slugify(n->substr(n->find('.') + 1)) != n->substr(n->find('.') + 1))
      return std::make_pair(std::string("invalid_info"), "Invalid entity ID: " + *n);
    if (store.entity_entry(*n) || store.get(*n))
      return std::make_pair(std::string("invalid_info"), std::string("Entity with this ID is already registered"));
  }
  return std::nullopt;
}

// Applies the fields in `msg` to `e`, recording old values in `changes`. An
// unknown label stops it there (fields before it stay changed, as in HA's
// handler) and gives the error message.
std::optional<std::string> apply_entity_fields(WsConnection& c, EntityRegistryEntry& e, const json::object& msg,
                                               json::object& changes) {
  auto set_opt = [&](const char* key, std::optional<std::string>& field) {
    auto [present, v] = nullable(msg, key);
    if (present && v != field) {
      changes[key] = opt(field);
      field = v;
    }
  };
  set_opt("name", e.name);
  set_opt("icon", e.icon);
  set_opt("area_id", e.area_id);
  set_opt("device_class", e.device_class);
  set_opt("hidden_by", e.hidden_by);
  set_opt("disabled_by", e.disabled_by);
  if (msg.contains("aliases")) {
    changes["aliases"] = strings(e.aliases);
    e.aliases = opt_strings(msg, "aliases");
  }
  if (msg.contains("labels")) {
    auto labels = opt_strings(msg, "labels");
    for (const auto& l : labels)
      if (std::none_of(home(c).labels.begin(), home(c).labels.end(), [&](const Label& x) { return x.label_id == l; }))
        return "Label " + l + " does not exist";
    changes["labels"] = strings(e.labels);
    e.labels = std::move(labels);
  }
  if (const auto* cats = msg.if_contains("categories"); cats && cats->is_object()) {
    for (const auto& kv : cats->get_object()) {
      if (kv.value().is_null())
        e.categories.erase(std::string(kv.key()));
      else if (kv.value().is_string())
        e.categories[std::string(kv.key())] = std::string(kv.value().get_string());
    }
    changes["categories"] = json::object{};
  }
  if (auto domain = opt_string(msg, "options_domain")) {
    const auto* o = msg.if_contains("options");
    e.options[*domain] = o ? *o : json::value(nullptr);
    changes["options"] = json::object{};
  }
  return std::nullopt;
}

// Disabling an entity removes its state (kept to restore on enabling), as HA does.
void apply_disabled_change(WsConnection& c, const std::string& entity_id, bool disabled, json::object& result) {
  auto& store = c.core().store();
  if (disabled) {
    if (StatePtr s = store.get(entity_id)) {
      c.core().disabled_states[entity_id] = static_cast<const EntityState&>(*s);
      store.remove_state(entity_id, ctx(c));
    }
    result["require_restart"] = false;
    return;
  }
  auto it = c.core().disabled_states.find(entity_id);
  if (it != c.core().disabled_states.end()) {
    store.set_state(entity_id, it->second.state, it->second.attributes, ctx(c));
    c.core().disabled_states.erase(it);
  }
  result["reload_delay"] = 30;
}

void entity_update(WsConnection& c, int64_t id, const json::object& msg) {
  std::string eid = req_string(msg, "entity_id");
  auto& store = c.core().store();
  auto* e = store.entity_entry(eid);
  if (!e) return c.send_error(id, "not_found", "Entity not found");
  if (auto error = entity_update_error(c, msg, eid)) return c.send_error(id, error->first, error->second);
  json::object changes;
  json::object result;
  const auto old_disabled = e->disabled_by;
  if (auto error = apply_entity_fields(c, *e, msg, changes)) return c.send_error(id, "invalid_info", *error);
  e->modified_at = now_timestamp();
  std::string current = eid;
  if (auto n = opt_string(msg, "new_entity_id"); n && *n != eid) {
    store.rename_entity(eid, *n, ctx(c));
    e = store.entity_entry(*n);
    current = *n;
    fire(c, "entity_registry_updated",
         {{"action", "update"},
          {"entity_id", current},
          {"changes", json::object{{"entity_id", eid}}},
          {"old_entity_id", eid}});
  }
  if (old_disabled != e->disabled_by) apply_disabled_change(c, current, e->disabled_by.has_value(), result);
  sync_state(c, *e);
  if (!changes.empty())
    fire(c, "entity_registry_updated", {{"action", "update"}, {"entity_id", current}, {"changes", changes}});
  result["entity_entry"] = entity_entry_json(*e, true);
  c.send_result(id, result);
}

void entity_remove(WsConnection& c, int64_t id, const json::object& msg) {
  std::string eid = req_string(msg, "entity_id");
  auto& ents = home(c).entities;
  auto it = std::find_if(ents.begin(), ents.end(), [&](const EntityRegistryEntry& e) { return e.entity_id == eid; });
  if (it == ents.end()) return c.send_error(id, "not_found", "Entity not found");
  ents.erase(it);
  c.core().store().remove_state(eid, ctx(c));
  fire(c, "entity_registry_updated", {{"action", "remove"}, {"entity_id", eid}});
  c.send_result(id, nullptr);
}

// --- devices -------------------------------------------------------------

// Written item by item, as entity_list: the same text as one array's DOM
// serialised, without holding every device of a 100k-entity home as a DOM.
void device_list(WsConnection& c, int64_t id, const json::object&) {
  std::string out = "[";
  for (const auto& d : home(c).devices) {
    if (out.size() > 1) out += ',';
    out += to_json(device_json(d));
  }
  out += ']';
  c.send_result_raw(id, out);
}

void device_update(WsConnection& c, int64_t id, const json::object& msg) {
  std::string did = req_string(msg, "device_id");
  Device* d = c.core().store().device(did);
  if (!d) return c.send_error(id, "not_found", "Device not found");
  json::object changes;
  if (auto [present, v] = nullable(msg, "area_id"); present) {
    if (v && !c.core().store().area(*v)) return c.send_error(id, "invalid_info", "Area " + *v + " does not exist");
    changes["area_id"] = opt(d->area_id);
    d->area_id = v;
  }
  if (auto [present, v] = nullable(msg, "name_by_user"); present) {
    changes["name_by_user"] = opt(d->name_by_user);
    d->name_by_user = v;
  }
  if (auto [present, v] = nullable(msg, "disabled_by"); present) {
    changes["disabled_by"] = opt(d->disabled_by);
    d->disabled_by = v;
  }
  if (msg.contains("labels")) {
    changes["labels"] = strings(d->labels);
    d->labels = opt_strings(msg, "labels");
  }
  d->modified_at = now_timestamp();
  if (changes.contains("name_by_user"))
    for (auto& e : home(c).entities)
      if (e.device_id == did) sync_state(c, e);
  fire(c, "device_registry_updated", {{"action", "update"}, {"device_id", did}, {"changes", changes}});
  c.send_result(id, device_json(*d));
}

void device_remove_config_entry(WsConnection& c, int64_t id, const json::object& msg) {
  std::string did = req_string(msg, "device_id");
  std::string entry = req_string(msg, "config_entry_id");
  auto& devs = home(c).devices;
  // HA's order of checks and its HomeAssistantError texts (config/device_registry.py).
  bool entry_known = false;
  for (const auto& d : devs)
    entry_known =
        entry_known || std::find(d.config_entries.begin(), d.config_entries.end(), entry) != d.config_entries.end();
  if (!entry_known) return c.send_error(id, "home_assistant_error", "Unknown config entry");
  auto it = std::find_if(devs.begin(), devs.end(), [&](const Device& d) { return d.id == did; });
  if (it == devs.end()) return c.send_error(id, "home_assistant_error", "Unknown device");
  auto& ce = it->config_entries;
  if (std::find(ce.begin(), ce.end(), entry) == ce.end())
    return c.send_error(id, "home_assistant_error", "Config entry not in device");
  if (!it->orphaned)
    return c.send_error(id, "home_assistant_error", "Failed to remove device entry, rejected by integration");
  ce.erase(std::remove(ce.begin(), ce.end(), entry), ce.end());
  if (ce.empty()) {
    devs.erase(it);
    fire(c, "device_registry_updated", {{"action", "remove"}, {"device_id", did}});
    // HA's entity registry drops the entities of a removed device.
    auto& ents = home(c).entities;
    for (auto e = ents.begin(); e != ents.end();) {
      if (e->device_id != did) {
        ++e;
        continue;
      }
      const std::string eid = e->entity_id;
      e = ents.erase(e);
      c.core().store().remove_state(eid, ctx(c));
      fire(c, "entity_registry_updated", {{"action", "remove"}, {"entity_id", eid}});
    }
    c.send_result(id, nullptr);
  } else {
    fire(c, "device_registry_updated", {{"action", "update"}, {"device_id", did}});
    c.send_result(id, device_json(*it));
  }
}

}  // namespace

void register_entity_registry_commands(ws_util::Table& t) {
  t["config/entity_registry/list"] = entity_list;
  t["config/entity_registry/list_for_display"] = entity_list_for_display;
  t["config/entity_registry/get"] = entity_get;
  t["config/entity_registry/get_entries"] = entity_get_entries;
  t["config/entity_registry/update"] = entity_update;
  t["config/entity_registry/remove"] = entity_remove;
  t["config/device_registry/list"] = device_list;
  t["config/device_registry/update"] = device_update;
  t["config/device_registry/remove_config_entry"] = device_remove_config_entry;
}

}  // namespace hamcp::sim
