// Entity registry: ha_get_entity, ha_set_entity (rename, name, icon, area,
// labels, aliases, device class, enable/disable, hide, voice exposure) and
// ha_remove_entity. The 6.x ha_rename_entity is an alias of ha_set_entity.
#include <algorithm>
#include <cctype>
#include <regex>

#include "common/ascii.hpp"
#include "common/json_fields.hpp"
#include "home/entity_docs.hpp"
#include "tools/confirmation.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/entities/entity_view.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

// Registry entry or ToolException (unknown id -> suggestions; state-only
// entity -> explain why it cannot be edited). The mirror refreshes registries
// a moment after a change (e.g. right after a rename), so an id the snapshot
// does not know yet is checked with HA directly before giving up.
boost::asio::awaitable<json::object> require_entry(ToolEnv& env, const ha::Snapshot& snap, const std::string& id) {
  if (ha::RegistryItem e = snap.registry(ha::RegistryKind::entity).find(id)) co_return *e;
  std::optional<json::object> fresh;
  try {
    json::object msg;
    msg.emplace("type", "config/entity_registry/get");
    msg.emplace("entity_id", id);
    json::value r = co_await env.ha.command(std::move(msg));
    if (r.is_object()) fresh = r.get_object();
  } catch (const ha::HaException&) {
  }
  if (fresh) co_return *fresh;
  if (snap.states.find(id))
    throw ToolException(
        ToolError{"entity_not_in_registry",
                  id + " exists but is not in the entity registry (it has no unique_id, e.g. defined in YAML), so Home "
                       "Assistant cannot edit or remove it through the registry.",
                  "Give it a unique_id in its YAML/integration config, or change it there.",
                  {}});
  throw ToolException(unknown_entity(env.index, id));
}

// {assistant: bool} for one entity, or nothing if HA does not support exposure.
boost::asio::awaitable<std::optional<json::object>> exposure_of(ToolEnv& env, const std::string& id) {
  std::optional<json::object> out;
  try {
    json::object msg;
    msg.emplace("type", "homeassistant/expose_entity/list");
    json::value r = co_await env.ha.command(std::move(msg));
    // HA lists only the assistants an entity is exposed to: the others are false.
    out = json::object{{"conversation", false}, {"cloud.alexa", false}, {"cloud.google_assistant", false}};
    if (const json::object* ro = r.if_object())
      if (const json::value* all = ro->if_contains("exposed_entities"); all && all->is_object())
        if (const json::value* mine = all->get_object().if_contains(id); mine && mine->is_object())
          for (const auto& kv : mine->get_object()) (*out)[kv.key()] = kv.value();
  } catch (const ha::HaException&) {
    // Older HA or a restricted token: exposure is optional information.
  }
  co_return out;
}

boost::asio::awaitable<json::object> entity_details(ToolEnv& env, const ha::Snapshot& snap, const std::string& id) {
  if (!snap.registry(ha::RegistryKind::entity).find(id)) {
    if (!snap.states.find(id)) throw ToolException(unknown_entity(env.index, id));
    json::object v;
    v.emplace("entity_id", id);
    v.emplace("registered", false);
    v.emplace("note", "Not in the entity registry (no unique_id): name, area and labels cannot be edited here.");
    co_return v;
  }
  json::object entry = *snap.registry(ha::RegistryKind::entity).find(id);
  // The registry list omits aliases and capabilities; fetch the full entry (one small command).
  try {
    json::object msg;
    msg.emplace("type", "config/entity_registry/get");
    msg.emplace("entity_id", id);
    json::value full = co_await env.ha.command(std::move(msg));
    if (const json::object* f = full.if_object())
      for (const auto& kv : *f) entry[kv.key()] = kv.value();
  } catch (const ha::HaException&) {
  }
  json::object v = registry_view(snap, entry);
  if (ha::EntityStatePtr st = snap.states.find(id)) v.emplace("state", st->state);
  co_return v;
}

boost::asio::awaitable<mcp::ToolResult> run_get_entity(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const std::vector<std::string> ids = args.list("entity_id");
  if (ids.empty()) throw ToolException(bad_argument("entity_id", "missing", "Pass an entity id."));
  if (!args.get("entity_id")->is_array()) {
    json::object v = co_await entity_details(env, *snap, ids.front());
    if (auto exp = co_await exposure_of(env, ids.front())) v.emplace("expose", std::move(*exp));
    co_return ok(std::move(v));
  }
  PageWriter page(env.options.response_budget);
  json::array missing;
  for (const auto& id : ids) {
    std::optional<json::object> v;
    try {
      v = co_await entity_details(env, *snap, id);
    } catch (const ToolException&) {
      missing.emplace_back(id);
    }
    if (v && !page.add(std::move(*v))) break;
  }
  json::object body;
  body.emplace("entities", page.take());
  if (!missing.empty()) body.emplace("not_found", std::move(missing));
  if (page.budget_cut()) {
    body.emplace("truncated", true);
    body.emplace("notice", "Response size limit reached; ask for the remaining ids separately.");
  }
  co_return ok(std::move(body));
}

std::string resolve_area(const ha::Snapshot& snap, const std::string& wanted) {
  const std::string w = ascii_lower(wanted);
  std::string names;
  for (const json::value& a : snap.registry(ha::RegistryKind::area).items()) {
    const json::object* ao = a.if_object();
    const std::string id = str_of(ao, "area_id");
    if (id == wanted || ascii_lower(str_of(ao, "name")) == w) return id;
    if (names.size() < 400) names += (names.empty() ? "" : ", ") + str_of(ao, "name");
  }
  throw ToolException(
      bad_argument("area", "no area '" + wanted + "'", "Use one of: " + names + " (or null to clear)."));
}

json::array resolve_labels(const ha::Snapshot& snap, const std::vector<std::string>& wanted) {
  json::array out;
  for (const auto& l : wanted) {
    std::string found;
    std::string names;
    for (const json::value& item : snap.registry(ha::RegistryKind::label).items()) {
      const json::object* lo = item.if_object();
      if (str_of(lo, "label_id") == l || ascii_lower(str_of(lo, "name")) == ascii_lower(l))
        found = str_of(lo, "label_id");
      if (names.size() < 400) names += (names.empty() ? "" : ", ") + str_of(lo, "name");
    }
    if (found.empty())
      throw ToolException(bad_argument("labels", "no label '" + l + "'",
                                       names.empty() ? "This home has no labels yet; create one in HA first."
                                                     : "Use existing labels: " + names + "."));
    out.emplace_back(found);
  }
  return out;
}

// The new id of a rename, checked: an entity id, same domain, not taken.
void add_rename(Args& args, const ha::Snapshot& snap, const std::string& id, json::object& msg, json::array& changed,
                std::string& final_id) {
  auto n = args.opt_str("new_entity_id");
  if (!n || *n == id) return;
  static const std::regex kId("^[a-z0-9_]+\\.[a-z0-9_]+$");
  if (!std::regex_match(*n, kId))
    throw ToolException(bad_argument("new_entity_id", "'" + *n + "' is not an entity id",
                                     "Use lowercase domain.object_id, e.g. light.kitchen_ceiling."));
  if (n->substr(0, n->find('.')) != id.substr(0, id.find('.')))
    throw ToolException(bad_argument("new_entity_id", "the domain cannot change",
                                     "Keep the prefix " + id.substr(0, id.find('.') + 1) + "."));
  if (snap.states.find(*n) || snap.registry(ha::RegistryKind::entity).find(*n))
    throw ToolException(ToolError{"entity_id_taken", *n + " already exists.", "Choose another new_entity_id.", {}});
  msg.emplace("new_entity_id", *n);
  changed.emplace_back("new_entity_id");
  final_id = *n;
}

// The registry fields of ha_set_entity as one config/entity_registry/update
// message; `changed` names each field set.
void add_registry_fields(Args& args, const ha::Snapshot& snap, json::object& msg, json::array& changed) {
  // Strings that may be null (= reset to the integration's default).
  for (const char* key : {"name", "icon", "device_class"}) {
    const json::value* v = args.get(key);
    if (!v) continue;
    msg.emplace(key, v->is_string() && v->get_string().empty() ? json::value(nullptr) : *v);
    changed.emplace_back(key);
  }
  if (const json::value* area = args.get("area")) {
    msg.emplace("area_id", area->is_null() || (area->is_string() && area->get_string().empty())
                               ? json::value(nullptr)
                               : json::value(resolve_area(snap, std::string(area->as_string()))));
    changed.emplace_back("area");
  }
  if (args.get("labels")) {
    msg.emplace("labels", resolve_labels(snap, args.list("labels")));
    changed.emplace_back("labels");
  }
  if (const json::value* aliases = args.get("aliases")) {
    msg.emplace("aliases", *aliases);
    changed.emplace_back("aliases");
  }
  if (const json::value* en = args.get("enabled"); en && en->is_bool()) {
    msg.emplace("disabled_by", en->get_bool() ? json::value(nullptr) : json::value("user"));
    changed.emplace_back("enabled");
  }
  if (const json::value* h = args.get("hidden"); h && h->is_bool()) {
    msg.emplace("hidden_by", h->get_bool() ? json::value("user") : json::value(nullptr));
    changed.emplace_back("hidden");
  }
}

// What HA answered to the registry update that the caller needs.
void add_update_answer(const json::value& r, const ha::Snapshot& snap, json::object& body) {
  const json::object* ro = r.if_object();
  if (!ro) return;
  if (const json::value* entry = ro->if_contains("entity_entry"); entry && entry->is_object())
    body.emplace("entity", registry_view(snap, entry->get_object()));
  if (ro->contains("require_restart")) body.emplace("require_restart", ro->at("require_restart"));
  if (ro->contains("reload_delay")) body.emplace("reload_delay", ro->at("reload_delay"));
}

// One homeassistant/expose_entity per direction (expose / stop exposing).
boost::asio::awaitable<void> set_exposure(ToolEnv& env, const std::string& entity_id, const json::object& expose) {
  for (bool value : {true, false}) {
    json::array assistants;
    for (const auto& kv : expose)
      if (kv.value().is_bool() && kv.value().get_bool() == value) assistants.emplace_back(kv.key());
    if (assistants.empty()) continue;
    json::object m;
    m.emplace("type", "homeassistant/expose_entity");
    m.emplace("assistants", std::move(assistants));
    m.emplace("entity_ids", json::array{json::value(entity_id)});
    m.emplace("should_expose", value);
    co_await env.ha.command(std::move(m));
  }
}

boost::asio::awaitable<mcp::ToolResult> run_set_entity(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const std::string id = args.str("entity_id");
  co_await require_entry(env, *snap, id);

  json::object msg;
  msg.emplace("type", "config/entity_registry/update");
  msg.emplace("entity_id", id);
  json::array changed;
  std::string final_id = id;
  add_rename(args, *snap, id, msg, changed, final_id);
  add_registry_fields(args, *snap, msg, changed);
  const json::object* expose = args.object("expose");
  if (changed.empty() && (!expose || expose->empty()))
    throw ToolException(bad_argument("entity_id", "nothing to change",
                                     "Pass at least one of new_entity_id, name, icon, area, labels, aliases, "
                                     "device_class, enabled, hidden, expose."));

  json::object body;
  if (!changed.empty()) {
    json::value r = co_await env.ha.command(std::move(msg));  // never retried
    add_update_answer(r, *snap, body);
  }
  if (expose && !expose->empty()) {
    co_await set_exposure(env, final_id, *expose);
    changed.emplace_back("expose");
    body.emplace("expose", *expose);
  }
  body.emplace("entity_id", final_id);
  body.emplace("updated", std::move(changed));
  if (final_id != id)
    body.emplace("note", "Renamed: automations, scripts and dashboards that use " + id + " must be updated.");
  co_return ok(std::move(body));
}

// The registry entry a removal names: its id, name and where it comes from.
json::object entry_named(const json::object& entry) {
  json::object item{{"entity_id", string_or_empty(entry, "entity_id")}};
  for (const char* key : {"name", "original_name", "platform", "device_id", "area_id"})
    if (std::string value = string_or_empty(entry, key); !value.empty()) item[key] = std::move(value);
  return item;
}

boost::asio::awaitable<mcp::ToolResult> run_remove_entity(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const std::string id = args.str("entity_id");
  const json::object entry = co_await require_entry(env, *snap, id);
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{"remove",
                                           json::string(id),
                                           json::object{{"removes", entry_named(entry)}},
                                           "not journaled: HA keeps no copy once the registry entry is gone",
                                           {}});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::object msg;
  msg.emplace("type", "config/entity_registry/remove");
  msg.emplace("entity_id", id);
  co_await env.ha.command(std::move(msg));  // never retried
  json::object body;
  body.emplace("removed", id);
  body.emplace("note", "Removed from the entity registry. An integration that still provides it may add it again.");
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_get_entity_spec() {
  ToolSpec s;
  s.name = "ha_get_entity";
  s.title = "Get entity settings";
  s.description =
      "Registry settings of an entity (or list): name, area, device, labels, aliases, icon, enabled, hidden, voice "
      "exposure.";
  s.input_schema = R"J({"type":"object","properties":{
"entity_id":{"type":"string"}},"required":["entity_id"]})J";
  s.output_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},"entities":{"type":"array"}}})J";
  s.annotations = read_only();
  s.also_accepts = {{"entity_id", R"J({"type":["string","array"],"items":{"type":"string"},"maxItems":50})J"}};
  s.run = run_get_entity;
  return s;
}

ToolSpec make_set_entity_spec() {
  ToolSpec s;
  s.name = "ha_set_entity";
  s.title = "Change entity settings";
  s.description =
      "Change an entity's registry settings. Only given fields change; null resets name/icon/area/device_class. "
      "new_entity_id renames (same domain). expose: {\"conversation\":true,\"cloud.alexa\":false,...}.";
  s.input_schema = R"J({"type":"object","properties":{
"entity_id":{"type":"string"},"new_entity_id":{"type":"string"},
"name":{"type":"string"},"icon":{"type":"string"},
"area":{"type":"string","description":"Area id or name"},
"labels":{"type":"array","items":{"type":"string"}},"aliases":{"type":"array","items":{"type":"string"}},
"device_class":{"type":"string"},"enabled":{"type":"boolean"},"hidden":{"type":"boolean"},
"expose":{"type":"object","additionalProperties":{"type":"boolean"}}},"required":["entity_id"]})J";
  s.output_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},"updated":{"type":"array"}}})J";
  s.annotations = writes(true, true);
  s.aliases = {"ha_rename_entity"};
  s.legacy_args = {{"area_id", "area"}, {"expose_to", "expose"}, {"new_name", "name"}};
  // null resets (the description says so); advertised as plain strings.
  const char* nullable = R"J({"type":["string","null"]})J";
  s.also_accepts = {{"name", nullable}, {"icon", nullable}, {"area", nullable}, {"device_class", nullable}};
  s.run = run_set_entity;
  return s;
}

ToolSpec make_remove_entity_spec() {
  ToolSpec s;
  s.name = "ha_remove_entity";
  s.title = "Remove entity";
  s.description = "Remove an entity from HA's entity registry. Irreversible; without confirm=true: a preview.";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},"confirm":{"type":"boolean"}},
"required":["entity_id"]})J";
  s.output_schema = R"J({"type":"object","properties":{"removed":{"type":"string"}}})J";
  s.annotations = writes(true, false);
  s.run = run_remove_entity;
  return s;
}

}  // namespace hamcp::tools
