// WebSocket commands of the area, floor, label and category registries.
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

// --- areas, floors, labels, categories -------------------------------------

template <class T>
std::string unique_slug(const std::vector<T>& items, const std::string& name, std::string T::*id_field) {
  std::string base = slugify(name), id = base;
  for (int n = 2; std::any_of(items.begin(), items.end(), [&](const T& x) { return x.*id_field == id; }); ++n)
    id = base + "_" + std::to_string(n);
  return id;
}

template <class T>
bool name_taken(const std::vector<T>& items, const std::string& name, const std::string* except_id,
                std::string T::*id_field) {
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
  if (const auto* l = msg.if_contains("level"))
    f.level = l->is_int64() ? std::optional<int>(static_cast<int>(l->get_int64())) : std::nullopt;
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
  auto it = std::find_if(cats.begin(), cats.end(),
                         [&](const Category& x) { return x.scope == scope && x.category_id == cid; });
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
  auto it = std::find_if(cats.begin(), cats.end(),
                         [&](const Category& x) { return x.scope == scope && x.category_id == cid; });
  if (it == cats.end()) return c.send_error(id, "invalid_info", "Category ID doesn't exist");
  cats.erase(it);
  for (auto& e : home(c).entities)
    if (auto f = e.categories.find(scope); f != e.categories.end() && f->second == cid) e.categories.erase(f);
  fire(c, "category_registry_updated", {{"action", "remove"}, {"scope", scope}, {"category_id", cid}});
  c.send_result(id, "success");
}

}  // namespace

void register_area_registry_commands(ws_util::Table& t) {
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
}

}  // namespace hamcp::sim
