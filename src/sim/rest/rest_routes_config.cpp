// /api/config/{automation,script,scene}/config/{key} (the UI editor's storage)
// and /api/config/core/check_config.
#include <algorithm>

#include "sim/core/blueprints.hpp"
#include "sim/core/time_util.hpp"
#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"
#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {

namespace {

std::map<std::string, json::object>& configs_of(Home& home, const std::string& kind) {
  if (kind == "automation") return home.automation_configs;
  if (kind == "script") return home.script_configs;
  return home.scene_configs;
}

// The entity that carries the config `key` of `kind` ("" when none yet).
std::string entity_of(StateStore& store, const std::string& kind, const std::string& key) {
  if (kind == "script") return "script." + key;
  for (const auto& s : store.all())
    if (domain_of(s->entity_id) == kind)
      if (const auto* id = s->attributes.if_contains("id"); id && id->is_string() && id->get_string() == key)
        return s->entity_id;
  return {};
}

RestResponse delete_config(RestCall& c, const std::string& kind) {
  const std::string& key = c.path[0];
  Home& home = c.store.home();
  auto& configs = configs_of(home, kind);
  auto it = configs.find(key);
  if (it == configs.end()) return message_response(400, "Resource not found");
  std::string eid = entity_of(c.store, kind, key);
  configs.erase(it);
  if (!eid.empty()) {
    c.store.remove_state(eid, c.user_context);
    auto& ents = home.entities;
    ents.erase(
        std::remove_if(ents.begin(), ents.end(), [&](const EntityRegistryEntry& e) { return e.entity_id == eid; }),
        ents.end());
  }
  if (kind == "script") c.core.services().refresh_script_services();
  return json_response(200, json::object{{"result", "ok"}});
}

// HA's schema check of a config body (the fields its voluptuous schema requires).
std::optional<RestResponse> check_required(const std::string& kind, const std::string& key, json::object& cfg) {
  auto missing = [](std::string_view field) {
    return message_response(400, "Message malformed: required key not provided @ data['" + std::string(field) + "']");
  };
  if (kind != "scene" && cfg.contains("use_blueprint")) {  // the blueprint brings triggers, actions, sequence
    if (kind == "automation") cfg["id"] = key;
  } else if (kind == "automation") {
    if (!cfg.contains("triggers") && !cfg.contains("trigger")) return missing("triggers");
    if (!cfg.contains("actions") && !cfg.contains("action")) return missing("actions");
    cfg["id"] = key;
  } else if (kind == "script") {
    if (slugify(key) != key)
      return message_response(400, "Message malformed: invalid slug " + key + " (try " + slugify(key) + ")");
    if (!cfg.contains("sequence")) return missing("sequence");
  } else {
    // HA validates a scene as {"states": [<config>]}, so its messages carry that prefix.
    if (!cfg.contains("entities")) return missing("states'][0]['entities");
    cfg["id"] = key;
  }
  return std::nullopt;
}

// The state and attributes HA gives the entity of a freshly saved config.
std::pair<std::string, json::object> entity_state_for(const std::string& kind, const std::string& key,
                                                      const json::object& cfg, const std::string& alias) {
  const json::value mode = cfg.contains("mode") ? cfg.at("mode") : json::value("single");
  json::object attrs;
  std::string state;
  if (kind == "automation") {
    attrs = {{"id", key}, {"last_triggered", nullptr}, {"mode", mode}, {"current", 0}};
    state = "on";
  } else if (kind == "script") {
    attrs = {{"last_triggered", nullptr}, {"mode", mode}, {"current", 0}};
    if (cfg.contains("icon")) attrs["icon"] = cfg.at("icon");
    state = "off";
  } else {
    json::array ids;
    if (cfg.at("entities").is_object())
      for (const auto& kv : cfg.at("entities").get_object()) ids.emplace_back(kv.key());
    attrs = {{"entity_id", ids}, {"id", key}};
    if (cfg.contains("icon")) attrs["icon"] = cfg.at("icon");
    state = "unknown";
  }
  attrs["friendly_name"] = alias;
  return {state, attrs};
}

// A new entity id for `alias` in `kind`'s domain, numbered like HA's when taken.
std::string new_entity_id(StateStore& store, const std::string& kind, const std::string& key,
                          const std::string& alias) {
  std::string object = kind == "script" ? key : slugify(alias);
  const std::string base = object;
  for (int n = 2; store.get(kind + "." + object); ++n) object = base + "_" + std::to_string(n);
  return kind + "." + object;
}

void register_entity(StateStore& store, const Context& ctx, const std::string& kind, const std::string& eid,
                     const std::string& key, const std::string& alias) {
  EntityRegistryEntry e;
  e.entity_id = eid;
  e.id = store.new_context().id;
  e.unique_id = key;
  e.platform = kind == "scene" ? "homeassistant" : kind;
  e.has_entity_name = false;
  e.original_name = alias;
  e.created_at = e.modified_at = now_timestamp();
  store.home().entities.push_back(e);
  store.fire("entity_registry_updated", {{"action", "create"}, {"entity_id", eid}}, ctx);
}

// HA's background reload after a config write: the item's entity is created or
// updated from the stored config, then automation_reloaded / scene_reloaded.
void reload_item(SimCore& core, const Context& ctx, const std::string& kind, const std::string& key) {
  StateStore& store = core.store();
  auto& configs = configs_of(store.home(), kind);
  auto it = configs.find(key);
  if (it == configs.end()) return;  // removed again before the reload ran
  const json::object cfg = it->second;
  const std::string name_key = kind == "scene" ? "name" : "alias";
  std::string alias = kind == "script" ? key : kind + " " + key;
  if (const json::value* name = cfg.if_contains(name_key); name && name->is_string())
    alias = std::string(name->get_string());
  std::string eid = entity_of(store, kind, key);
  const bool created = eid.empty() || !store.get(eid);
  if (eid.empty()) eid = new_entity_id(store, kind, key, alias);
  auto [state, attrs] = entity_state_for(kind, key, cfg, alias);
  if (StatePtr old = created ? nullptr : store.get(eid)) {
    // An edit keeps what the entity lived through.
    if (kind == "automation") {
      state = old->state;
      if (const auto* lt = old->attributes.if_contains("last_triggered")) attrs["last_triggered"] = *lt;
    }
    if (kind == "scene") state = old->state;
  }
  if (created && !store.entity_entry(eid)) {
    register_entity(store, ctx, kind, eid, key, alias);
  } else if (auto* e = store.entity_entry(eid)) {
    e->original_name = alias;
  }
  store.set_state(eid, state, std::move(attrs), ctx);
  if (kind == "script") core.services().refresh_script_services();
  if (kind != "script") store.fire(kind + "_reloaded", {}, ctx);
}

RestResponse save_config(RestCall& c, const std::string& kind) {
  const std::string& key = c.path[0];
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (invalid || !body) return message_response(400, "Invalid JSON specified.");
  json::object cfg = *body;
  if (auto problem = use_blueprint_problem(c.store.home(), kind, cfg))
    return message_response(400, "Message malformed: " + *problem);
  if (auto error = check_required(kind, key, cfg)) return *error;
  configs_of(c.store.home(), kind)[key] = cfg;
  RestResponse out = json_response(200, json::object{{"result", "ok"}});
  // Like HA: the reload (and so the entity) comes after the 200.
  out.after = [core = &c.core, ctx = c.user_context, kind, key] { reload_item(*core, ctx, kind, key); };
  return out;
}

}  // namespace

void add_config_routes(RestRouter& r) {
  for (std::string kind : {"automation", "script", "scene"}) {
    const std::string pattern = "/api/config/" + kind + "/config/{key}";
    r.add("GET", pattern, [kind](RestCall& c) {
      auto& configs = configs_of(c.store.home(), kind);
      auto it = configs.find(c.path[0]);
      if (it == configs.end()) return message_response(404, "Resource not found");
      return json_response(200, it->second);
    });
    r.add("DELETE", pattern, [kind](RestCall& c) { return delete_config(c, kind); });
    r.add("POST", pattern, [kind](RestCall& c) { return save_config(c, kind); });
  }
  r.add("POST", "/api/config/core/check_config", [](RestCall& c) {
    const auto& errors = c.store.home().system.config_errors;
    if (errors)
      return json_response(200, json::object{{"result", "invalid"}, {"errors", *errors}, {"warnings", nullptr}});
    return json_response(200, json::object{{"result", "valid"}, {"errors", nullptr}, {"warnings", nullptr}});
  });
  r.add("POST", "/api/config/config_entries/entry/{entry_id}/reload", [](RestCall& c) {
    if (!flows::find_entry(c.store, c.path[0])) return message_response(404, "Invalid entry specified");
    return json_response(200, json::object{{"require_restart", false}});
  });
}

}  // namespace hamcp::sim
