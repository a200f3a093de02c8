// Core WebSocket commands: states, config, services, events, entity
// subscriptions, scripts and the small read-only commands clients probe
// (templates and config checks: ws_template_commands.cpp).
#include <algorithm>
#include <set>

#include "sim/core/json_writer.hpp"
#include "sim/core/template.hpp"
#include "sim/core/time_util.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim {
namespace {

using Table = std::map<std::string, WsConnection::Handler, std::less<>>;

json::object error_extra(const ServiceError& e) {
  json::object x;
  if (e.translation_key) {
    x["translation_key"] = *e.translation_key;
    x["translation_domain"] = "homeassistant";
    x["translation_placeholders"] = e.translation_placeholders;
  }
  return x;
}

void get_states(WsConnection& c, int64_t id, const json::object&) {
  c.send_result_raw(id, c.core().store().states_array_json());
}

void get_config(WsConnection& c, int64_t id, const json::object&) { c.send_result(id, c.core().config_json()); }

void get_services(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(id, c.core().services().describe_ws());
}

void get_panels(WsConnection& c, int64_t id, const json::object&) {
  json::object panels;
  for (const char* p : {"lovelace", "energy", "map", "logbook", "history", "config", "developer-tools", "profile"})
    panels[p] = json::object{{"component_name", p},
                             {"icon", nullptr},
                             {"title", nullptr},
                             {"config", nullptr},
                             {"url_path", p},
                             {"require_admin", std::string(p) == "config"},
                             {"config_panel_domain", nullptr}};
  c.send_result(id, panels);
}

void current_user(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(
      id, json::object{{"id", c.core().store().user_id()},
                       {"name", c.user_name()},
                       {"is_owner", c.admin() && c.user_name() == "Owner"},
                       {"is_admin", c.admin()},
                       {"credentials", json::array{json::object{{"auth_provider_type", "homeassistant"},
                                                                {"auth_provider_id", nullptr}}}},
                       {"mfa_modules",
                        json::array{json::object{{"id", "totp"}, {"name", "Authenticator app"}, {"enabled", false}}}}});
}

void call_service(WsConnection& c, int64_t id, const json::object& msg) {
  ServiceCall call;
  call.domain = req_string(msg, "domain");
  call.service = req_string(msg, "service");
  if (const auto* d = msg.if_contains("service_data"); d && !d->is_null()) {
    if (!d->is_object()) throw BadMessage{"expected dict for dictionary value @ data['service_data']"};
    call.data = d->get_object();
  }
  if (const auto* t = msg.if_contains("target"); t && !t->is_null()) {
    if (!t->is_object()) throw BadMessage{"expected dict for dictionary value @ data['target']"};
    call.target = t->get_object();
  }
  call.return_response = opt_bool(msg, "return_response", false);
  auto& store = c.core().store();
  call.context = store.new_context(std::nullopt, store.user_id());
  try {
    auto out = c.core().services().call(call);
    json::object result{{"context", context_json(call.context)}};
    if (call.return_response) result["response"] = out.response ? *out.response : json::value(nullptr);
    c.send_result(id, result);
  } catch (const ServiceError& e) {
    c.send_error(id, e.code, e.message, error_extra(e));
  }
}

void subscribe_events(WsConnection& c, int64_t id, const json::object& msg) {
  std::string type = opt_string(msg, "event_type").value_or("*");
  auto& store = c.core().store();
  auto weak = c.weak();
  uint64_t listener = store.listen(type, [weak, id](const Event& e) {
    if (auto self = weak.lock()) self->send_event(id, event_json(e));
  });
  c.add_subscription(id, [&store, listener] { store.unlisten(listener); });
  c.send_result(id, nullptr);
}

std::string quoted(const std::string& s) { return to_json(json::value(s)); }

void subscribe_entities(WsConnection& c, int64_t id, const json::object& msg) {
  auto ids = opt_strings(msg, "entity_ids");
  auto filter = std::make_shared<std::set<std::string>>(ids.begin(), ids.end());
  bool filtered = msg.contains("entity_ids") && !msg.at("entity_ids").is_null();
  auto& store = c.core().store();
  auto weak = c.weak();
  uint64_t listener = store.listen("state_changed", [weak, id, filter, filtered, &store](const Event& e) {
    auto self = weak.lock();
    if (!self) return;
    const auto* eidv = e.data.if_contains("entity_id");
    if (!eidv || !eidv->is_string()) return;
    std::string eid(eidv->get_string());
    if (filtered && !filter->count(eid)) return;
    if (!e.new_snapshot && !e.old_snapshot) return;  // a hand-fired state_changed event, not a state change
    std::string ev;
    if (!e.new_snapshot) {
      ev = "{\"r\":[" + quoted(eid) + "]}";
    } else if (!e.old_snapshot) {
      ev = "{\"a\":{" + quoted(eid) + ":" + store.compressed_json_cached(e.new_snapshot) + "}}";
    } else {
      ev = "{\"c\":{" + quoted(eid) + ":" + to_json(state_diff_json(*e.old_snapshot, *e.new_snapshot)) + "}}";
    }
    self->send_event_raw(id, ev);
  });
  c.add_subscription(id, [&store, listener] { store.unlisten(listener); });
  c.send_result(id, nullptr);
  // The initial frame: every (matching) entity in compressed form, built by
  // concatenating cached per-entity JSON (a 100k home is one big frame).
  auto all = store.all();
  std::string frame;
  frame.reserve(all.size() * 300 + 16);
  frame += "{\"a\":{";
  bool first = true;
  for (const auto& s : all) {
    if (filtered && !filter->count(s->entity_id)) continue;
    if (!first) frame += ',';
    first = false;
    frame += quoted(s->entity_id);
    frame += ':';
    frame += store.compressed_json_cached(s);
  }
  frame += "}}";
  c.send_event_raw(id, frame);
}

void fire_event(WsConnection& c, int64_t id, const json::object& msg) {
  std::string type = req_string(msg, "event_type");
  json::object data;
  if (const auto* d = msg.if_contains("event_data"); d && !d->is_null()) {
    if (!d->is_object()) throw BadMessage{"expected dict for dictionary value @ data['event_data']"};
    data = d->get_object();
  }
  auto& store = c.core().store();
  Context ctx = store.new_context(std::nullopt, store.user_id());
  store.fire(type, std::move(data), ctx, "REMOTE");
  c.send_result(id, json::object{{"context", context_json(ctx)}});
}

void execute_script(WsConnection& c, int64_t id, const json::object& msg) {
  const auto* seq = msg.if_contains("sequence");
  if (!seq) throw BadMessage{"required key not provided @ data['sequence']"};
  json::array steps = seq->is_array() ? seq->get_array() : json::array{*seq};
  auto& store = c.core().store();
  Context ctx = store.new_context(std::nullopt, store.user_id());
  for (const auto& step : steps) {
    if (!step.is_object()) continue;
    const auto& o = step.get_object();
    const json::value* action = o.if_contains("action");
    if (!action) action = o.if_contains("service");
    if (!action || !action->is_string()) continue;
    std::string full(action->get_string());
    auto dot = full.find('.');
    if (dot == std::string::npos) continue;
    ServiceCall call{full.substr(0, dot),
                     full.substr(dot + 1),
                     o.contains("data") && o.at("data").is_object() ? o.at("data").get_object() : json::object{},
                     o.contains("target") && o.at("target").is_object() ? o.at("target").get_object() : json::object{},
                     ctx,
                     false};
    try {
      c.core().services().call(call);
    } catch (const ServiceError& e) {
      c.send_error(id, e.code == "not_found" ? "home_assistant_error" : e.code, e.message, error_extra(e));
      return;
    }
  }
  c.send_result(id, json::object{{"context", context_json(ctx)}, {"response", nullptr}});
}

void entity_source(WsConnection& c, int64_t id, const json::object&) {
  json::object out;
  for (const auto& e : c.core().store().home().entities) out[e.entity_id] = json::object{{"domain", e.platform}};
  c.send_result(id, out);
}

void extract_from_target(WsConnection& c, int64_t id, const json::object& msg) {
  const auto* t = msg.if_contains("target");
  if (!t || !t->is_object()) throw BadMessage{"required key not provided @ data['target']"};
  auto ids = c.core().services().expand_target(t->get_object());
  json::array ents, missing;
  for (auto& e : ids) (c.core().store().get(e) ? ents : missing).emplace_back(e);
  json::array devs, areas;
  for (auto& d : opt_strings(t->get_object(), "device_id")) devs.emplace_back(d);
  for (auto& a : opt_strings(t->get_object(), "area_id")) areas.emplace_back(a);
  c.send_result(id, json::object{{"referenced_entities", ents},
                                 {"referenced_devices", devs},
                                 {"referenced_areas", areas},
                                 {"missing_devices", json::array{}},
                                 {"missing_areas", json::array{}},
                                 {"missing_floors", json::array{}},
                                 {"missing_labels", json::array{}}});
}

void manifest_list(WsConnection& c, int64_t id, const json::object&) {
  std::set<std::string> domains;
  for (const auto& e : c.core().store().home().entities) domains.insert(e.platform);
  json::array out;
  for (const auto& d : domains)
    out.push_back(json::object{{"domain", d},
                               {"name", d},
                               {"documentation", "https://www.home-assistant.io/integrations/" + d},
                               {"codeowners", json::array{}},
                               {"requirements", json::array{}},
                               {"is_built_in", true},
                               {"iot_class", "local_push"}});
  c.send_result(id, out);
}

void config_entries_get(WsConnection& c, int64_t id, const json::object& msg) {
  auto domain = opt_string(msg, "domain");
  std::map<std::string, std::string> entries;  // entry id -> platform
  for (const auto& d : c.core().store().home().devices)
    for (const auto& ce : d.config_entries)
      entries[ce] = d.identifiers.empty() ? std::string() : d.identifiers.front().first;
  json::array out;
  for (const auto& [eid, platform] : entries) {
    if (domain && *domain != platform) continue;
    out.push_back(json::object{{"entry_id", eid},
                               {"domain", platform},
                               {"title", platform},
                               {"source", "user"},
                               {"state", "loaded"},
                               {"supports_options", false},
                               {"supports_remove_device", true},
                               {"supports_unload", true},
                               {"supports_reconfigure", false},
                               {"pref_disable_new_entities", false},
                               {"pref_disable_polling", false},
                               {"disabled_by", nullptr},
                               {"reason", nullptr},
                               {"error_reason_translation_key", nullptr},
                               {"error_reason_translation_placeholders", nullptr},
                               {"num_subentries", 0}});
  }
  c.send_result(id, out);
}

void empty_list(WsConnection& c, int64_t id, const json::object&) { c.send_result(id, json::array{}); }

void repairs_list(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(id, json::object{{"issues", json::array{}}});
}

void system_log_list(WsConnection& c, int64_t id, const json::object&) {
  json::array out;
  for (const auto& e : c.core().system_log())
    out.push_back(json::object{{"name", e.name},
                               {"message", json::array{json::value(e.message)}},
                               {"level", e.level},
                               {"source", json::array{json::value(e.source_file), json::value(e.source_line)}},
                               {"timestamp", e.timestamp},
                               {"exception", ""},
                               {"count", e.count},
                               {"first_occurred", e.timestamp}});
  c.send_result(id, out);
}

void themes(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(
      id, json::object{{"themes", json::object{}}, {"default_theme", "default"}, {"default_dark_theme", nullptr}});
}

void lovelace_config(WsConnection& c, int64_t id, const json::object&) {
  c.send_error(id, "config_not_found", "No config found.");
}

void backup_info(WsConnection& c, int64_t id, const json::object&) {
  c.send_result(id, json::object{{"agent_errors", json::object{}},
                                 {"backups", json::array{}},
                                 {"last_attempted_automatic_backup", nullptr},
                                 {"last_completed_automatic_backup", nullptr},
                                 {"last_action_event", nullptr},
                                 {"next_automatic_backup", nullptr},
                                 {"next_automatic_backup_additional", false},
                                 {"state", "idle"}});
}

void expose_list(WsConnection& c, int64_t id, const json::object&) {
  json::object out;
  // HA lists only the assistants an entity is exposed to (should_expose true), always as true.
  for (const auto& [assistant, ents] : c.core().exposure())
    for (const auto& [eid, on] : ents) {
      if (!on) continue;
      if (!out.contains(eid)) out[eid] = json::object{};
      out[eid].as_object()[assistant] = true;
    }
  c.send_result(id, json::object{{"exposed_entities", out}});
}

void expose_entity(WsConnection& c, int64_t id, const json::object& msg) {
  auto assistants = opt_strings(msg, "assistants");
  auto ids = opt_strings(msg, "entity_ids");
  if (assistants.empty()) throw BadMessage{"required key not provided @ data['assistants']"};
  if (!msg.contains("should_expose")) throw BadMessage{"required key not provided @ data['should_expose']"};
  bool expose = opt_bool(msg, "should_expose", false);
  for (const auto& a : assistants) {
    if (a != "conversation" && a != "cloud.alexa" && a != "cloud.google_assistant")
      throw BadMessage{
          "value must be one of ['cloud.alexa', 'cloud.google_assistant', 'conversation'] @ data['assistants'][0]"};
    for (const auto& e : ids) c.core().exposure()[a][e] = expose;
  }
  c.send_result(id, nullptr);
}

}  // namespace

void register_core_commands(Table& t) {
  t["get_states"] = get_states;
  t["get_config"] = get_config;
  t["get_services"] = get_services;
  t["get_panels"] = get_panels;
  t["auth/current_user"] = current_user;
  t["call_service"] = call_service;
  t["subscribe_events"] = subscribe_events;
  t["subscribe_entities"] = subscribe_entities;
  t["fire_event"] = fire_event;
  t["execute_script"] = execute_script;
  t["entity/source"] = entity_source;
  t["extract_from_target"] = extract_from_target;
  t["manifest/list"] = manifest_list;
  t["config_entries/get"] = config_entries_get;
  t["persistent_notification/get"] = empty_list;
  t["logger/log_info"] = empty_list;
  t["repairs/list_issues"] = repairs_list;
  t["system_log/list"] = system_log_list;
  t["frontend/get_themes"] = themes;
  t["lovelace/config"] = lovelace_config;
  t["backup/info"] = backup_info;
  t["homeassistant/expose_entity/list"] = expose_list;
  t["homeassistant/expose_entity"] = expose_entity;
}

}  // namespace hamcp::sim
