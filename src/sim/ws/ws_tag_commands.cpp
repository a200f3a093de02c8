// WebSocket commands of HA's tag storage collection: tag/list, tag/create,
// tag/update, tag/delete. Unlike the input helpers, a tag's id is the caller's
// (tag_id; HA makes a uuid when none is given and refuses one that exists),
// its update schema has only name, description and last_scanned, and its
// entity is named after the tag (tag.<slug of name>, else tag.<slug of id>; HA 2026.2 tag/__init__.py).
#include <algorithm>

#include "sim/core/time_util.hpp"
#include "sim/home/home_builder.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

// HA's voluptuous schemas refuse keys they do not know.
void only_fields(const json::object& msg, std::initializer_list<std::string_view> allowed) {
  for (const auto& kv : msg) {
    if (kv.key() == "type" || kv.key() == "id") continue;
    if (std::find(allowed.begin(), allowed.end(), kv.key()) == allowed.end())
      throw BadMessage{"extra keys not allowed @ data['" + std::string(kv.key()) + "']"};
  }
}

void copy_strings(const json::object& msg, json::object& item) {
  for (const char* k : {"name", "description", "last_scanned"})
    if (auto v = opt_string(msg, k)) item[k] = *v;
  if (const auto* n = item.if_contains("name"); n && n->as_string().empty())
    throw BadMessage{"length of value must be at least 1 for dictionary value @ data['name']"};
}

const EntityRegistryEntry* tag_entity(Home& h, const std::string& tag_id) {
  for (const auto& e : h.entities)
    if (e.platform == "tag" && e.unique_id == tag_id) return &e;
  return nullptr;
}

json::object tag_attributes(const json::object& item) {
  const json::value* name = item.if_contains("name");
  return {{"tag_id", item.at("id")},
          {"last_scanned_by_device_id", nullptr},
          {"friendly_name", name ? *name : json::value("Tag " + std::string(item.at("id").as_string()))}};
}

std::string tag_state(const json::object& item) {
  const json::value* t = item.if_contains("last_scanned");
  return t && t->is_string() ? std::string(t->get_string()) : "unknown";
}

void add_tag_entity(WsConnection& c, const json::object& item) {
  const std::string tag_id(item.at("id").as_string());
  const json::value* name = item.if_contains("name");
  std::string base = slugify(name ? std::string(name->as_string()) : tag_id),
              object = base;  // HA: slug of the name, else of the id
  auto& store = c.core().store();
  for (int n = 2; store.get("tag." + object) || store.entity_entry("tag." + object); ++n)
    object = base + "_" + std::to_string(n);
  EntityRegistryEntry e;
  e.entity_id = "tag." + object;
  e.id = store.new_context().id;
  e.unique_id = tag_id;
  e.platform = "tag";
  e.has_entity_name = false;
  e.original_name = std::string(tag_attributes(item).at("friendly_name").as_string());
  e.created_at = e.modified_at = now_timestamp();
  home(c).entities.push_back(e);
  fire(c, "entity_registry_updated", {{"action", "create"}, {"entity_id", e.entity_id}});
  store.set_state(e.entity_id, tag_state(item), tag_attributes(item), ctx(c));
}

void tag_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& [tag_id, item] : home(c).tags) out.emplace_back(item);
  c.send_result(id, out);
}

void tag_create(WsConnection& c, int64_t id, const json::object& msg) {
  only_fields(msg, {"tag_id", "name", "description", "last_scanned"});
  std::string tag_id = opt_string(msg, "tag_id").value_or("");
  if (tag_id.empty()) tag_id = c.core().store().new_context().id;  // HA: a fresh uuid
  if (home(c).tags.count(tag_id))
    return c.send_error(id, "home_assistant_error", "Tag with id: " + tag_id + " already exists.");
  json::object item{{"id", tag_id}, {"tag_id", tag_id}};
  copy_strings(msg, item);
  home(c).tags[tag_id] = item;
  add_tag_entity(c, item);
  c.send_result(id, item);
}

void tag_update(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string tag_id = req_string(msg, "tag_id");
  json::object fields = msg;
  fields.erase("tag_id");  // the item's key, not a field
  only_fields(fields, {"name", "description", "last_scanned"});
  auto it = home(c).tags.find(tag_id);
  if (it == home(c).tags.end()) return c.send_error(id, "not_found", "Unable to find tag_id " + tag_id);
  copy_strings(fields, it->second);
  const json::object item = it->second;
  if (const EntityRegistryEntry* e = tag_entity(home(c), tag_id))
    c.core().store().set_state(e->entity_id, tag_state(item), tag_attributes(item), ctx(c));
  c.send_result(id, item);
}

void tag_delete(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string tag_id = req_string(msg, "tag_id");
  if (!home(c).tags.erase(tag_id)) return c.send_error(id, "not_found", "Unable to find tag_id " + tag_id);
  if (const EntityRegistryEntry* e = tag_entity(home(c), tag_id)) {
    const std::string eid = e->entity_id;
    c.core().store().remove_state(eid, ctx(c));
    auto& ents = home(c).entities;
    ents.erase(
        std::remove_if(ents.begin(), ents.end(), [&](const EntityRegistryEntry& x) { return x.entity_id == eid; }),
        ents.end());
    fire(c, "entity_registry_updated", {{"action", "remove"}, {"entity_id", eid}});
  }
  c.send_result(id, nullptr);
}

}  // namespace

void register_tag_commands(ws_util::Table& t) {
  t["tag/list"] = tag_list;
  t["tag/create"] = tag_create;
  t["tag/update"] = tag_update;
  t["tag/delete"] = tag_delete;
}

}  // namespace hamcp::sim
