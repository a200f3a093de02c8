// WebSocket commands of the input helper collections (input_boolean/list, counter/create, …).
#include <algorithm>
#include <set>

#include "common/saturate_cast.hpp"
#include "sim/core/json_writer.hpp"
#include "sim/core/registry_json.hpp"
#include "sim/core/time_util.hpp"
#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

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
      {"schedule", {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}},
      {"person", {"user_id", "device_trackers", "picture"}},
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
  if (domain == "person")  // HA lists storage and YAML persons apart
    return c.send_result(id, json::object{{"storage", std::move(out)}, {"config", json::array{}}});
  c.send_result(id, out);
}

std::string initial_state(const std::string& domain, const json::object& a) {
  auto num = [&](const char* k, double d) {
    return a.contains(k) && a.at(k).is_number() ? a.at(k).to_number<double>() : d;
  };
  char buf[32];
  if (domain == "input_boolean")
    return a.contains("initial") && a.at("initial").is_bool() && a.at("initial").get_bool() ? "on" : "off";
  if (domain == "input_number") {
    std::snprintf(buf, sizeof buf, "%.1f", num("initial", num("min", 0)));
    return buf;
  }
  if (domain == "input_select") {
    if (a.contains("initial") && a.at("initial").is_string()) return std::string(a.at("initial").get_string());
    return std::string(a.at("options").get_array().front().get_string());
  }
  if (domain == "input_text")
    return a.contains("initial") && a.at("initial").is_string() ? std::string(a.at("initial").get_string()) : "";
  if (domain == "counter") return std::to_string(saturate_cast<long>(num("initial", 0)));
  if (domain == "timer") return "idle";
  if (domain == "zone") return "0";
  if (domain == "schedule") return "off";
  if (domain == "person") return "unknown";
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
    if (domain == "input_number")
      attrs = {{"initial", nullptr}, {"editable", true}, {"min", 0}, {"max", 100}, {"step", 1}, {"mode", "slider"}};
    if (domain == "input_text")
      attrs = {{"initial", nullptr}, {"editable", true},   {"min", 0},
               {"max", 100},         {"pattern", nullptr}, {"mode", "text"}};
    if (domain == "counter")
      attrs = {{"initial", 0}, {"editable", true}, {"step", 1}, {"minimum", nullptr}, {"maximum", nullptr}};
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
    if (!msg.contains("icon")) attrs.erase("icon");  // HA replaces the whole item: no icon sent, none kept
  }
  if (auto [p, v] = nullable(msg, "icon"); p) {
    if (v)
      attrs["icon"] = *v;
    else
      attrs.erase("icon");
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
  ents.erase(std::remove_if(ents.begin(), ents.end(), [&](const EntityRegistryEntry& e) { return e.entity_id == eid; }),
             ents.end());
  fire(c, "entity_registry_updated", {{"action", "remove"}, {"entity_id", eid}});
  c.send_result(id, nullptr);
}

// config_entries/get {domain?}: the config entries (sim/flows/ creates them).
// type_filter: a string or a list of integration types (helper, hub, service, device).
std::vector<std::string> type_filter_of(const json::object& msg) {
  const json::value* v = msg.if_contains("type_filter");
  if (v && v->is_string()) return {std::string(v->get_string())};
  return opt_strings(msg, "type_filter");
}

json::array entries_passing(StateStore& store, std::string_view domain, const std::vector<std::string>& filter) {
  json::array out;
  for (auto& e : flows::list_entries(store, domain))
    if (flows::passes_type_filter(e.at("domain").as_string(), filter)) out.push_back(std::move(e));
  return out;
}

void config_entries_get(WsConnection& c, int64_t id, const json::object& msg) {
  c.send_result(id, entries_passing(c.core().store(), opt_string(msg, "domain").value_or(""), type_filter_of(msg)));
}

// config_entries/subscribe {type_filter?}: the entries now (change type null),
// then each change as HA's dispatcher forwards it, those of type_filter's integration types.
void config_entries_subscribe(WsConnection& c, int64_t id, const json::object& msg) {
  auto& store = c.core().store();
  auto weak = c.weak();
  const std::vector<std::string> filter = type_filter_of(msg);
  const uint64_t listener = store.listen(std::string(flows::kConfigEntryChanged), [weak, id, filter](const Event& e) {
    const json::value* entry = e.data.if_contains("entry");
    const json::value* domain = entry && entry->is_object() ? entry->as_object().if_contains("domain") : nullptr;
    if (domain && domain->is_string() && !flows::passes_type_filter(domain->get_string(), filter)) return;
    if (auto self = weak.lock()) self->send_event(id, json::array{e.data});
  });
  c.add_subscription(id, [&store, listener] { store.unlisten(listener); });
  c.send_result(id, nullptr);
  json::array now;
  for (auto& entry : entries_passing(store, "", filter))
    now.push_back(json::object{{"type", nullptr}, {"entry", std::move(entry)}});
  c.send_event(id, now);
}

}  // namespace

void register_config_entry_commands(ws_util::Table& t);  // ws_config_entry_commands.cpp

void register_helper_commands(ws_util::Table& t) {
  register_config_entry_commands(t);
  t["config_entries/get"] = config_entries_get;
  t["config_entries/subscribe"] = config_entries_subscribe;
  for (const auto& [domain, fields] : helper_fields()) {
    t[domain + "/list"] = helper_list;
    t[domain + "/create"] = helper_create;
    t[domain + "/update"] = helper_update;
    t[domain + "/delete"] = helper_delete;
  }
}

}  // namespace hamcp::sim
