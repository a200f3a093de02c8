// Registry commands: entity/device/area/floor/label/category registries,
// search/related, automation/script config, input helper collections.
#include <algorithm>
#include <set>

#include "sim/core/json_writer.hpp"
#include "sim/home/home_builder.hpp"
#include "common/saturate_cast.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/core/time_util.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim {
namespace {

using Table = std::map<std::string, WsConnection::Handler, std::less<>>;

Home& home(WsConnection& c) { return c.core().store().home(); }
Context ctx(WsConnection& c) { return c.core().store().new_context(std::nullopt, c.core().store().user_id()); }
void fire(WsConnection& c, const char* type, json::object data) { c.core().store().fire(type, std::move(data), ctx(c)); }

json::value opt(const std::optional<std::string>& v) { return v ? json::value(*v) : json::value(nullptr); }
json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

// Optional string-or-null field: returns {present, value}.
std::pair<bool, std::optional<std::string>> nullable(const json::object& msg, std::string_view key) {
  const json::value* v = msg.if_contains(key);
  if (!v) return {false, std::nullopt};
  if (v->is_null()) return {true, std::nullopt};
  if (!v->is_string()) throw BadMessage{"expected str for dictionary value @ data['" + std::string(key) + "']"};
  return {true, std::string(v->get_string())};
}

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
  if (e.icon) a["icon"] = *e.icon;
  else if (e.original_icon) a["icon"] = *e.original_icon;
  else a.erase("icon");
  if (e.device_class) a["device_class"] = *e.device_class;
  else if (e.original_device_class) a["device_class"] = *e.original_device_class;
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

void entity_update(WsConnection& c, int64_t id, const json::object& msg) {
  std::string eid = req_string(msg, "entity_id");
  auto& store = c.core().store();
  auto* e = store.entity_entry(eid);
  if (!e) return c.send_error(id, "not_found", "Entity not found");
  static const std::set<std::string> allowed = {"type", "id", "entity_id", "name", "icon", "area_id", "device_class",
                                                "new_entity_id", "disabled_by", "hidden_by", "aliases", "labels",
                                                "categories", "options_domain", "options"};
  for (const auto& kv : msg)
    if (!allowed.count(std::string(kv.key()))) throw BadMessage{"extra keys not allowed @ data['" + std::string(kv.key()) + "']"};
  json::object changes;
  json::object result;
  for (const char* key : {"disabled_by", "hidden_by"}) {
    auto [present, v] = nullable(msg, key);
    if (present && v && *v != "user") throw BadMessage{std::string("value must be one of ['user'] for dictionary value @ data['") + key + "']"};
  }
  if (auto [present, v] = nullable(msg, "area_id"); present && v && !store.area(*v))
    return c.send_error(id, "invalid_info", "Area " + *v + " does not exist");
  if (auto n = opt_string(msg, "new_entity_id"); n && *n != eid) {
    if (domain_of(*n) != domain_of(eid))
      return c.send_error(id, "invalid_info", "New entity ID should be same domain as old entity ID");
    if (n->find('.') == std::string::npos || slugify(n->substr(n->find('.') + 1)) != n->substr(n->find('.') + 1))
      return c.send_error(id, "invalid_info", "Invalid entity ID: " + *n);
    if (store.entity_entry(*n) || store.get(*n))
      return c.send_error(id, "invalid_info", "Entity with this ID is already registered");
  }
  auto set_opt = [&](const char* key, std::optional<std::string>& field) {
    auto [present, v] = nullable(msg, key);
    if (present && v != field) {
      changes[key] = opt(field);
      field = v;
    }
  };
  set_opt("name", e->name);
  set_opt("icon", e->icon);
  set_opt("area_id", e->area_id);
  set_opt("device_class", e->device_class);
  set_opt("hidden_by", e->hidden_by);
  auto old_disabled = e->disabled_by;
  set_opt("disabled_by", e->disabled_by);
  if (msg.contains("aliases")) {
    changes["aliases"] = strings(e->aliases);
    e->aliases = opt_strings(msg, "aliases");
  }
  if (msg.contains("labels")) {
    auto labels = opt_strings(msg, "labels");
    for (const auto& l : labels)
      if (std::none_of(home(c).labels.begin(), home(c).labels.end(), [&](const Label& x) { return x.label_id == l; }))
        return c.send_error(id, "invalid_info", "Label " + l + " does not exist");
    changes["labels"] = strings(e->labels);
    e->labels = std::move(labels);
  }
  if (const auto* cats = msg.if_contains("categories"); cats && cats->is_object()) {
    for (const auto& kv : cats->get_object()) {
      if (kv.value().is_null()) e->categories.erase(std::string(kv.key()));
      else if (kv.value().is_string()) e->categories[std::string(kv.key())] = std::string(kv.value().get_string());
    }
    changes["categories"] = json::object{};
  }
  if (auto domain = opt_string(msg, "options_domain")) {
    const auto* o = msg.if_contains("options");
    e->options[*domain] = o ? *o : json::value(nullptr);
    changes["options"] = json::object{};
  }
  e->modified_at = now_timestamp();
  std::string current = eid;
  if (auto n = opt_string(msg, "new_entity_id"); n && *n != eid) {
    store.rename_entity(eid, *n, ctx(c));
    e = store.entity_entry(*n);
    current = *n;
    fire(c, "entity_registry_updated", {{"action", "update"}, {"entity_id", current}, {"changes", json::object{{"entity_id", eid}}}, {"old_entity_id", eid}});
  }
  if (old_disabled != e->disabled_by) {
    if (e->disabled_by) {
      if (StatePtr s = store.get(current)) {
        c.core().disabled_states[current] = static_cast<const EntityState&>(*s);
        store.remove_state(current, ctx(c));
      }
      result["require_restart"] = false;
    } else {
      auto it = c.core().disabled_states.find(current);
      if (it != c.core().disabled_states.end()) {
        store.set_state(current, it->second.state, it->second.attributes, ctx(c));
        c.core().disabled_states.erase(it);
      }
      result["reload_delay"] = 30;
    }
  }
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

void device_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& d : home(c).devices) out.push_back(device_json(d));
  c.send_result(id, out);
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
  auto it = std::find_if(devs.begin(), devs.end(), [&](const Device& d) { return d.id == did; });
  if (it == devs.end()) return c.send_error(id, "not_found", "Device not found");
  auto& ce = it->config_entries;
  if (std::find(ce.begin(), ce.end(), entry) == ce.end()) return c.send_error(id, "not_found", "Config entry not found");
  ce.erase(std::remove(ce.begin(), ce.end(), entry), ce.end());
  if (ce.empty()) {
    devs.erase(it);
    fire(c, "device_registry_updated", {{"action", "remove"}, {"device_id", did}});
    c.send_result(id, nullptr);
  } else {
    fire(c, "device_registry_updated", {{"action", "update"}, {"device_id", did}});
    c.send_result(id, device_json(*it));
  }
}

// --- areas, floors, labels, categories -------------------------------------

template <class T>
std::string unique_slug(const std::vector<T>& items, const std::string& name, std::string T::*id_field) {
  std::string base = slugify(name), id = base;
  for (int n = 2; std::any_of(items.begin(), items.end(), [&](const T& x) { return x.*id_field == id; }); ++n)
    id = base + "_" + std::to_string(n);
  return id;
}

template <class T>
bool name_taken(const std::vector<T>& items, const std::string& name, const std::string* except_id, std::string T::*id_field) {
  auto norm = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
  };
  for (const auto& x : items)
    if (norm(x.name) == norm(name) && (!except_id || x.*id_field != *except_id)) return true;
  return false;
}

void apply_area_fields(Area& a, const json::object& msg) {
  if (auto v = opt_string(msg, "name")) a.name = *v;
  if (msg.contains("aliases")) a.aliases = opt_strings(msg, "aliases");
  if (msg.contains("labels")) a.labels = opt_strings(msg, "labels");
  if (auto [p, v] = nullable(msg, "floor_id"); p) a.floor_id = v;
  if (auto [p, v] = nullable(msg, "icon"); p) a.icon = v;
  if (auto [p, v] = nullable(msg, "picture"); p) a.picture = v;
  if (auto [p, v] = nullable(msg, "humidity_entity_id"); p) a.humidity_entity_id = v;
  if (auto [p, v] = nullable(msg, "temperature_entity_id"); p) a.temperature_entity_id = v;
  a.modified_at = now_timestamp();
}

void area_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& a : home(c).areas) out.push_back(area_json(a));
  c.send_result(id, out);
}

void area_create(WsConnection& c, int64_t id, const json::object& msg) {
  std::string name = req_string(msg, "name");
  auto& areas = home(c).areas;
  if (name_taken(areas, name, nullptr, &Area::area_id))
    return c.send_error(id, "invalid_info", "The name " + name + " (" + slugify(name) + ") is already in use");
  Area a;
  a.area_id = unique_slug(areas, name, &Area::area_id);
  a.created_at = now_timestamp();
  apply_area_fields(a, msg);
  areas.push_back(a);
  fire(c, "area_registry_updated", {{"action", "create"}, {"area_id", a.area_id}});
  c.send_result(id, area_json(a));
}

void area_update(WsConnection& c, int64_t id, const json::object& msg) {
  std::string aid = req_string(msg, "area_id");
  Area* a = c.core().store().area(aid);
  if (!a) return c.send_error(id, "invalid_info", "Area ID doesn't exist");
  if (auto n = opt_string(msg, "name"); n && name_taken(home(c).areas, *n, &aid, &Area::area_id))
    return c.send_error(id, "invalid_info", "The name " + *n + " (" + slugify(*n) + ") is already in use");
  apply_area_fields(*a, msg);
  fire(c, "area_registry_updated", {{"action", "update"}, {"area_id", aid}});
  c.send_result(id, area_json(*a));
}

void area_delete(WsConnection& c, int64_t id, const json::object& msg) {
  std::string aid = req_string(msg, "area_id");
  auto& areas = home(c).areas;
  auto it = std::find_if(areas.begin(), areas.end(), [&](const Area& a) { return a.area_id == aid; });
  if (it == areas.end()) return c.send_error(id, "invalid_info", "Area ID doesn't exist");
  areas.erase(it);
  for (auto& d : home(c).devices)
    if (d.area_id == aid) d.area_id.reset();
  for (auto& e : home(c).entities)
    if (e.area_id == aid) e.area_id.reset();
  fire(c, "area_registry_updated", {{"action", "remove"}, {"area_id", aid}});
  c.send_result(id, "success");
}

void floor_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& f : home(c).floors) out.push_back(floor_json(f));
  c.send_result(id, out);
}

void apply_floor_fields(Floor& f, const json::object& msg) {
  if (auto v = opt_string(msg, "name")) f.name = *v;
  if (msg.contains("aliases")) f.aliases = opt_strings(msg, "aliases");
  if (auto [p, v] = nullable(msg, "icon"); p) f.icon = v;
  if (const auto* l = msg.if_contains("level")) f.level = l->is_int64() ? std::optional<int>(static_cast<int>(l->get_int64())) : std::nullopt;
  f.modified_at = now_timestamp();
}

void floor_create(WsConnection& c, int64_t id, const json::object& msg) {
  std::string name = req_string(msg, "name");
  auto& floors = home(c).floors;
  if (name_taken(floors, name, nullptr, &Floor::floor_id))
    return c.send_error(id, "invalid_info", "The name " + name + " (" + slugify(name) + ") is already in use");
  Floor f;
  f.floor_id = unique_slug(floors, name, &Floor::floor_id);
  f.created_at = now_timestamp();
  apply_floor_fields(f, msg);
  floors.push_back(f);
  fire(c, "floor_registry_updated", {{"action", "create"}, {"floor_id", f.floor_id}});
  c.send_result(id, floor_json(f));
}

void floor_update(WsConnection& c, int64_t id, const json::object& msg) {
  std::string fid = req_string(msg, "floor_id");
  auto& floors = home(c).floors;
  auto it = std::find_if(floors.begin(), floors.end(), [&](const Floor& f) { return f.floor_id == fid; });
  if (it == floors.end()) return c.send_error(id, "invalid_info", "Floor ID doesn't exist");
  apply_floor_fields(*it, msg);
  fire(c, "floor_registry_updated", {{"action", "update"}, {"floor_id", fid}});
  c.send_result(id, floor_json(*it));
}

void floor_delete(WsConnection& c, int64_t id, const json::object& msg) {
  std::string fid = req_string(msg, "floor_id");
  auto& floors = home(c).floors;
  auto it = std::find_if(floors.begin(), floors.end(), [&](const Floor& f) { return f.floor_id == fid; });
  if (it == floors.end()) return c.send_error(id, "invalid_info", "Floor ID doesn't exist");
  floors.erase(it);
  for (auto& a : home(c).areas)
    if (a.floor_id == fid) a.floor_id.reset();
  fire(c, "floor_registry_updated", {{"action", "remove"}, {"floor_id", fid}});
  c.send_result(id, "success");
}

void label_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& l : home(c).labels) out.push_back(label_json(l));
  c.send_result(id, out);
}

void apply_label_fields(Label& l, const json::object& msg) {
  if (auto v = opt_string(msg, "name")) l.name = *v;
  if (auto [p, v] = nullable(msg, "color"); p) l.color = v;
  if (auto [p, v] = nullable(msg, "icon"); p) l.icon = v;
  if (auto [p, v] = nullable(msg, "description"); p) l.description = v;
  l.modified_at = now_timestamp();
}

void label_create(WsConnection& c, int64_t id, const json::object& msg) {
  std::string name = req_string(msg, "name");
  auto& labels = home(c).labels;
  if (name_taken(labels, name, nullptr, &Label::label_id))
    return c.send_error(id, "invalid_info", "The name " + name + " (" + slugify(name) + ") is already in use");
  Label l;
  l.label_id = unique_slug(labels, name, &Label::label_id);
  l.created_at = now_timestamp();
  apply_label_fields(l, msg);
  labels.push_back(l);
  fire(c, "label_registry_updated", {{"action", "create"}, {"label_id", l.label_id}});
  c.send_result(id, label_json(l));
}

void label_update(WsConnection& c, int64_t id, const json::object& msg) {
  std::string lid = req_string(msg, "label_id");
  auto& labels = home(c).labels;
  auto it = std::find_if(labels.begin(), labels.end(), [&](const Label& l) { return l.label_id == lid; });
  if (it == labels.end()) return c.send_error(id, "invalid_info", "Label ID doesn't exist");
  apply_label_fields(*it, msg);
  fire(c, "label_registry_updated", {{"action", "update"}, {"label_id", lid}});
  c.send_result(id, label_json(*it));
}

void label_delete(WsConnection& c, int64_t id, const json::object& msg) {
  std::string lid = req_string(msg, "label_id");
  auto& labels = home(c).labels;
  auto it = std::find_if(labels.begin(), labels.end(), [&](const Label& l) { return l.label_id == lid; });
  if (it == labels.end()) return c.send_error(id, "invalid_info", "Label ID doesn't exist");
  labels.erase(it);
  auto drop = [&](std::vector<std::string>& v) { v.erase(std::remove(v.begin(), v.end(), lid), v.end()); };
  for (auto& e : home(c).entities) drop(e.labels);
  for (auto& d : home(c).devices) drop(d.labels);
  for (auto& a : home(c).areas) drop(a.labels);
  fire(c, "label_registry_updated", {{"action", "remove"}, {"label_id", lid}});
  c.send_result(id, "success");
}

void category_list(WsConnection& c, int64_t id, const json::object& msg) {
  std::string scope = req_string(msg, "scope");
  json::array out;
  for (const auto& cat : home(c).categories)
    if (cat.scope == scope) out.push_back(category_json(cat));
  c.send_result(id, out);
}

void category_create(WsConnection& c, int64_t id, const json::object& msg) {
  std::string scope = req_string(msg, "scope"), name = req_string(msg, "name");
  auto& cats = home(c).categories;
  for (const auto& x : cats)
    if (x.scope == scope && x.name == name)
      return c.send_error(id, "invalid_info", "The name '" + name + "' is already in use");
  Category cat;
  cat.category_id = c.core().store().new_context().id;
  cat.scope = scope;
  cat.name = name;
  if (auto v = opt_string(msg, "icon")) cat.icon = v;
  cat.created_at = cat.modified_at = now_timestamp();
  cats.push_back(cat);
  fire(c, "category_registry_updated", {{"action", "create"}, {"scope", scope}, {"category_id", cat.category_id}});
  c.send_result(id, category_json(cat));
}

void category_update(WsConnection& c, int64_t id, const json::object& msg) {
  std::string scope = req_string(msg, "scope"), cid = req_string(msg, "category_id");
  auto& cats = home(c).categories;
  auto it = std::find_if(cats.begin(), cats.end(), [&](const Category& x) { return x.scope == scope && x.category_id == cid; });
  if (it == cats.end()) return c.send_error(id, "invalid_info", "Category ID doesn't exist");
  if (auto v = opt_string(msg, "name")) it->name = *v;
  if (auto [p, v] = nullable(msg, "icon"); p) it->icon = v;
  it->modified_at = now_timestamp();
  fire(c, "category_registry_updated", {{"action", "update"}, {"scope", scope}, {"category_id", cid}});
  c.send_result(id, category_json(*it));
}

void category_delete(WsConnection& c, int64_t id, const json::object& msg) {
  std::string scope = req_string(msg, "scope"), cid = req_string(msg, "category_id");
  auto& cats = home(c).categories;
  auto it = std::find_if(cats.begin(), cats.end(), [&](const Category& x) { return x.scope == scope && x.category_id == cid; });
  if (it == cats.end()) return c.send_error(id, "invalid_info", "Category ID doesn't exist");
  cats.erase(it);
  for (auto& e : home(c).entities)
    if (auto f = e.categories.find(scope); f != e.categories.end() && f->second == cid) e.categories.erase(f);
  fire(c, "category_registry_updated", {{"action", "remove"}, {"scope", scope}, {"category_id", cid}});
  c.send_result(id, "success");
}

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

void search_related(WsConnection& c, int64_t id, const json::object& msg) {
  std::string type = req_string(msg, "item_type"), item = req_string(msg, "item_id");
  Related r;
  Home& h = home(c);
  auto entity_area = [&](const EntityRegistryEntry& e) -> std::optional<std::string> {
    if (e.area_id) return e.area_id;
    if (e.device_id)
      if (Device* d = c.core().store().device(*e.device_id)) return d->area_id;
    return std::nullopt;
  };
  if (type == "entity") {
    if (auto* e = c.core().store().entity_entry(item)) {
      if (e->device_id) r.add("device", *e->device_id);
      if (auto a = entity_area(*e)) {
        r.add("area", *a);
        if (Area* ar = c.core().store().area(*a); ar && ar->floor_id) r.add("floor", *ar->floor_id);
      }
      for (const auto& l : e->labels) r.add("label", l);
      if (e->config_entry_id) r.add("config_entry", *e->config_entry_id);
      r.add("integration", e->platform);
    }
    configs_mentioning(c, item, r);
  } else if (type == "device") {
    if (Device* d = c.core().store().device(item)) {
      if (d->area_id) r.add("area", *d->area_id);
      for (const auto& ce : d->config_entries) r.add("config_entry", ce);
      for (const auto& l : d->labels) r.add("label", l);
      for (const auto& e : h.entities)
        if (e.device_id == item) {
          r.add("entity", e.entity_id);
          r.add("integration", e.platform);
          configs_mentioning(c, e.entity_id, r);
        }
    }
    configs_mentioning(c, item, r);
  } else if (type == "area") {
    if (Area* a = c.core().store().area(item)) {
      if (a->floor_id) r.add("floor", *a->floor_id);
      for (const auto& l : a->labels) r.add("label", l);
    }
    for (const auto& d : h.devices)
      if (d.area_id == item) r.add("device", d.id);
    for (const auto& e : h.entities)
      if (entity_area(e) == item) r.add("entity", e.entity_id);
    configs_mentioning(c, item, r);
  } else if (type == "floor") {
    for (const auto& a : h.areas)
      if (a.floor_id == item) r.add("area", a.area_id);
    configs_mentioning(c, item, r);
  } else if (type == "label") {
    for (const auto& e : h.entities)
      if (std::find(e.labels.begin(), e.labels.end(), item) != e.labels.end()) {
        std::string_view dom = domain_of(e.entity_id);
        r.add(dom == "automation" || dom == "script" || dom == "scene" ? std::string(dom) : "entity", e.entity_id);
      }
    for (const auto& d : h.devices)
      if (std::find(d.labels.begin(), d.labels.end(), item) != d.labels.end()) r.add("device", d.id);
    for (const auto& a : h.areas)
      if (std::find(a.labels.begin(), a.labels.end(), item) != a.labels.end()) r.add("area", a.area_id);
    configs_mentioning(c, item, r);
  } else if (type == "automation" || type == "script" || type == "scene") {
    StatePtr s = c.core().store().get(item);
    std::string config;
    if (s && type == "script") {
      auto it = h.script_configs.find(item.substr(7));
      if (it != h.script_configs.end()) config = to_json(it->second);
    } else if (s) {
      if (const auto* idv = s->attributes.if_contains("id"); idv && idv->is_string()) {
        auto& m = type == "automation" ? h.automation_configs : h.scene_configs;
        auto it = m.find(std::string(idv->get_string()));
        if (it != m.end()) config = to_json(it->second);
      }
    }
    if (!config.empty()) {
      for (const auto& e : h.entities)
        if (config.find("\"" + e.entity_id + "\"") != std::string::npos) r.add("entity", e.entity_id);
      for (const auto& a : h.areas)
        if (config.find("\"" + a.area_id + "\"") != std::string::npos) r.add("area", a.area_id);
      for (const auto& d : h.devices)
        if (config.find("\"" + d.id + "\"") != std::string::npos) r.add("device", d.id);
      for (const auto& l : h.labels)
        if (config.find("\"" + l.label_id + "\"") != std::string::npos) r.add("label", l.label_id);
    }
    if (auto* e = c.core().store().entity_entry(item)) {
      for (const auto& l : e->labels) r.add("label", l);
      for (const auto& [scope, cat] : e->categories) r.add("category", cat);
    }
  } else if (type != "config_entry" && type != "integration" && type != "group" && type != "person" &&
             type != "automation_blueprint" && type != "script_blueprint") {
    throw BadMessage{"value must be one of ['area', 'automation', 'automation_blueprint', 'config_entry', 'device', "
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

// --- input helper collections ------------------------------------------------

const std::map<std::string, std::vector<std::string>>& helper_fields() {
  static const std::map<std::string, std::vector<std::string>> f = {
      {"input_boolean", {"initial"}},
      {"input_number", {"min", "max", "step", "mode", "unit_of_measurement", "initial"}},
      {"input_select", {"options", "initial"}},
      {"input_text", {"min", "max", "mode", "pattern", "initial"}},
      {"input_datetime", {"has_date", "has_time", "initial"}},
      {"input_button", {}},
      {"counter", {"initial", "step", "minimum", "maximum", "restore"}},
      {"timer", {"duration", "restore"}},
      {"zone", {"latitude", "longitude", "radius", "passive"}},
  };
  return f;
}

std::string helper_domain(std::string_view type) { return std::string(type.substr(0, type.find('/'))); }

json::object helper_item(const StoredState& s, const std::string& domain) {
  std::string object = s.entity_id.substr(domain.size() + 1);
  json::object item{{"id", object}};
  if (const auto* n = s.attributes.if_contains("friendly_name")) item["name"] = *n;
  if (const auto* i = s.attributes.if_contains("icon")) item["icon"] = *i;
  for (const auto& f : helper_fields().at(domain))
    if (const auto* v = s.attributes.if_contains(f)) item[f] = *v;
  return item;
}

void helper_list(WsConnection& c, int64_t id, const json::object& msg) {
  std::string domain = helper_domain(msg.at("type").get_string());
  json::array out;
  for (const auto& s : c.core().store().all())
    if (domain_of(s->entity_id) == domain && !(domain == "zone" && s->entity_id == "zone.home"))
      out.push_back(helper_item(*s, domain));
  c.send_result(id, out);
}

std::string initial_state(const std::string& domain, const json::object& a) {
  auto num = [&](const char* k, double d) { return a.contains(k) && a.at(k).is_number() ? a.at(k).to_number<double>() : d; };
  char buf[32];
  if (domain == "input_boolean") return a.contains("initial") && a.at("initial").is_bool() && a.at("initial").get_bool() ? "on" : "off";
  if (domain == "input_number") { std::snprintf(buf, sizeof buf, "%.1f", num("initial", num("min", 0))); return buf; }
  if (domain == "input_select") {
    if (a.contains("initial") && a.at("initial").is_string()) return std::string(a.at("initial").get_string());
    return std::string(a.at("options").get_array().front().get_string());
  }
  if (domain == "input_text") return a.contains("initial") && a.at("initial").is_string() ? std::string(a.at("initial").get_string()) : "";
  if (domain == "counter") return std::to_string(saturate_cast<long>(num("initial", 0)));
  if (domain == "timer") return "idle";
  if (domain == "zone") return "0";
  return "unknown";
}

void helper_write(WsConnection& c, int64_t id, const json::object& msg, bool create) {
  std::string domain = helper_domain(msg.at("type").get_string());
  auto& store = c.core().store();
  std::string eid;
  json::object attrs;
  if (create) {
    std::string name = req_string(msg, "name");
    if (domain == "input_select" && (!msg.contains("options") || opt_strings(msg, "options").empty()))
      throw BadMessage{"required key not provided @ data['options']"};
    if (domain == "zone" && (!msg.contains("latitude") || !msg.contains("longitude")))
      throw BadMessage{"required key not provided @ data['latitude']"};
    std::string object = slugify(name), base = object;
    for (int n = 2; store.get(domain + "." + object) || store.entity_entry(domain + "." + object); ++n)
      object = base + "_" + std::to_string(n);
    eid = domain + "." + object;
    attrs["editable"] = true;
    if (domain == "input_number") attrs = {{"initial", nullptr}, {"editable", true}, {"min", 0}, {"max", 100}, {"step", 1}, {"mode", "slider"}};
    if (domain == "input_text") attrs = {{"initial", nullptr}, {"editable", true}, {"min", 0}, {"max", 100}, {"pattern", nullptr}, {"mode", "text"}};
    if (domain == "counter") attrs = {{"initial", 0}, {"editable", true}, {"step", 1}, {"minimum", nullptr}, {"maximum", nullptr}};
    if (domain == "timer") attrs = {{"duration", "0:00:00"}, {"editable", true}};
    if (domain == "zone") attrs = {{"radius", 100}, {"passive", false}, {"persons", json::array{}}, {"editable", true}};
    attrs["friendly_name"] = name;
  } else {
    std::string key = domain + "_id";
    std::string object = req_string(msg, key);
    eid = domain + "." + object;
    StatePtr s = store.get(eid);
    if (!s) return c.send_error(id, "not_found", "Unable to find " + key + " " + object);
    attrs = s->attributes;
    if (auto n = opt_string(msg, "name")) attrs["friendly_name"] = *n;
  }
  if (auto [p, v] = nullable(msg, "icon"); p) {
    if (v) attrs["icon"] = *v;
    else attrs.erase("icon");
  }
  for (const auto& f : helper_fields().at(domain))
    if (const auto* v = msg.if_contains(f)) attrs[f] = *v;
  std::string state = create ? initial_state(domain, attrs) : store.get(eid)->state;
  if (!create && domain == "input_select") {
    auto opts = opt_strings(attrs, "options");
    if (std::find(opts.begin(), opts.end(), state) == opts.end() && !opts.empty()) state = opts.front();
  }
  if (create) {
    EntityRegistryEntry e;
    e.entity_id = eid;
    e.id = store.new_context().id;
    e.unique_id = eid.substr(domain.size() + 1);
    e.platform = domain;
    e.has_entity_name = false;
    e.original_name = std::string(attrs.at("friendly_name").get_string());
    e.created_at = e.modified_at = now_timestamp();
    home(c).entities.push_back(e);
    fire(c, "entity_registry_updated", {{"action", "create"}, {"entity_id", eid}});
  }
  StatePtr s = store.set_state(eid, state, std::move(attrs), ctx(c));
  c.send_result(id, helper_item(*s, domain));
}

void helper_create(WsConnection& c, int64_t id, const json::object& msg) { helper_write(c, id, msg, true); }
void helper_update(WsConnection& c, int64_t id, const json::object& msg) { helper_write(c, id, msg, false); }

void helper_delete(WsConnection& c, int64_t id, const json::object& msg) {
  std::string domain = helper_domain(msg.at("type").get_string());
  std::string key = domain + "_id";
  std::string object = req_string(msg, key);
  std::string eid = domain + "." + object;
  auto& store = c.core().store();
  if (!store.get(eid)) return c.send_error(id, "not_found", "Unable to find " + key + " " + object);
  store.remove_state(eid, ctx(c));
  auto& ents = home(c).entities;
  ents.erase(std::remove_if(ents.begin(), ents.end(), [&](const EntityRegistryEntry& e) { return e.entity_id == eid; }), ents.end());
  fire(c, "entity_registry_updated", {{"action", "remove"}, {"entity_id", eid}});
  c.send_result(id, nullptr);
}

}  // namespace

void register_registry_commands(Table& t) {
  t["config/entity_registry/list"] = entity_list;
  t["config/entity_registry/list_for_display"] = entity_list_for_display;
  t["config/entity_registry/get"] = entity_get;
  t["config/entity_registry/get_entries"] = entity_get_entries;
  t["config/entity_registry/update"] = entity_update;
  t["config/entity_registry/remove"] = entity_remove;
  t["config/device_registry/list"] = device_list;
  t["config/device_registry/update"] = device_update;
  t["config/device_registry/remove_config_entry"] = device_remove_config_entry;
  t["config/area_registry/list"] = area_list;
  t["config/area_registry/create"] = area_create;
  t["config/area_registry/update"] = area_update;
  t["config/area_registry/delete"] = area_delete;
  t["config/floor_registry/list"] = floor_list;
  t["config/floor_registry/create"] = floor_create;
  t["config/floor_registry/update"] = floor_update;
  t["config/floor_registry/delete"] = floor_delete;
  t["config/label_registry/list"] = label_list;
  t["config/label_registry/create"] = label_create;
  t["config/label_registry/update"] = label_update;
  t["config/label_registry/delete"] = label_delete;
  t["config/category_registry/list"] = category_list;
  t["config/category_registry/create"] = category_create;
  t["config/category_registry/update"] = category_update;
  t["config/category_registry/delete"] = category_delete;
  t["search/related"] = search_related;
  t["automation/config"] = automation_config;
  t["script/config"] = script_config;
  for (const auto& [domain, fields] : helper_fields()) {
    t[domain + "/list"] = helper_list;
    t[domain + "/create"] = helper_create;
    t[domain + "/update"] = helper_update;
    t[domain + "/delete"] = helper_delete;
  }
}

}  // namespace hamcp::sim
