// The flow lifecycle (start, show, answer, abort) and the config entries the
// flows create, with Home Assistant's result shapes.
#include "sim/flows/flow_engine.hpp"

#include <algorithm>
#include <random>

#include "sim/core/time_util.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim::flows {

std::string new_flow_id() {
  static std::mt19937_64 random{std::random_device{}()};
  static const char* const kHex = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 32; ++i) id += kHex[random() % 16];
  return id;
}

namespace {

// Config and options flows share the store's flow table with subentry flows
// (subentry_flows.cpp); each API finds only its own kind.
bool is_flow_of(const json::object& flow, bool options_flow) {
  return !flow.contains("subentry") && flow.at("options").as_bool() == options_flow;
}

Answer message(int status, std::string text) { return {status, json::object{{"message", std::move(text)}}}; }

json::object* internal_entry(StateStore& store, std::string_view entry_id) { return stored_entry(store, entry_id); }

bool is_reconfigure(const json::object& flow) { return flow.contains("reconfigure"); }

// The config step an options or reconfigure flow's step stands for.
std::string config_step_of(const Handler& h, const std::string& step_id) {
  if (step_id == "init") return h.options_step.empty() ? "user" : h.options_step;
  if (step_id == "reconfigure") return h.reconfigure_step;
  return step_id;
}

const Step& step_of(const Handler& h, const json::object& flow) {
  const std::string step_id(flow.at("step_id").as_string());
  const bool derived = flow.at("options").as_bool() || is_reconfigure(flow);
  return h.steps.at(derived ? config_step_of(h, step_id) : step_id);
}

// The options flow's form: the config form without the name, current options suggested.
json::array options_schema(const json::array& schema, const json::object& options) {
  json::array out;
  for (const auto& f : schema) {
    if (f.at("name").as_string() == "name") continue;
    json::object field = f.as_object();
    field.erase("default");
    if (const auto* current = options.if_contains(field.at("name").as_string()))
      field["description"] = json::object{{"suggested_value", *current}};
    out.push_back(std::move(field));
  }
  return out;
}

json::object step_body(const json::object& flow, const Handler& h, const std::string& flow_id, json::value errors,
                       StateStore& store) {
  const std::string step_id(flow.at("step_id").as_string());
  const bool options_flow = flow.at("options").as_bool();
  const Step& step = step_of(h, flow);
  json::object body;
  body["flow_id"] = flow_id;
  body["handler"] = options_flow ? flow.at("entry_id") : json::value(h.domain);
  body["step_id"] = step_id;
  if (!step.menu_options.empty()) {
    body["type"] = "menu";
    json::array options;
    for (const auto& o : step.menu_options) options.emplace_back(o);
    body["menu_options"] = std::move(options);
    body["description_placeholders"] = nullptr;
    return body;
  }
  body["type"] = "form";
  if (options_flow || is_reconfigure(flow)) {
    const json::object* entry = internal_entry(store, flow.at("entry_id").as_string());
    body["data_schema"] = options_schema(step.schema, entry ? entry->at("options").as_object() : json::object{});
  } else {
    body["data_schema"] = step.schema;
  }
  body["errors"] = std::move(errors);
  body["description_placeholders"] = nullptr;
  body["last_step"] = nullptr;
  body["preview"] = nullptr;
  return body;
}

// HA reloads an entry after its options change: its entities are rendered again.
void reload_entry(StateStore& store, const Handler& h, const std::string& entry_id, const json::object& options) {
  if (!h.reload) return;
  std::vector<std::string> entities;
  for (const auto& e : store.home().entities)
    if (e.config_entry_id == entry_id) entities.push_back(e.entity_id);
  FlowState state{store, options, entry_id};
  for (const auto& eid : entities)
    if (StatePtr s = store.get(eid)) h.reload(state, *s, options);
}

json::object new_entry(const Handler& h, const std::string& title) {
  json::object entry = entry_json(h.domain, title, new_flow_id().substr(0, 26), now_timestamp());
  entry["supports_reconfigure"] = !h.reconfigure_step.empty();
  entry["supported_subentry_types"] = h.subentry_types;
  return entry;
}

json::object abort_body(const std::string& flow_id, const std::string& domain, const std::string& reason) {
  return json::object{{"type", "abort"},
                      {"flow_id", flow_id},
                      {"handler", domain},
                      {"reason", reason},
                      {"description_placeholders", nullptr}};
}

// A reconfigure flow's answer: the entry's values updated, the flow ends as HA's
// async_update_reload_and_abort does.
Answer finish_reconfigure(StateStore& store, const Handler& h, const std::string& flow_id, const json::object& flow) {
  json::object* entry = internal_entry(store, flow.at("entry_id").as_string());
  if (!entry) return message(404, "Invalid flow specified");
  json::object& options = entry->at("options").as_object();
  for (const auto& kv : flow.at("data").as_object()) options[kv.key()] = kv.value();
  entry->at("entry").as_object()["modified_at"] = now_timestamp();
  signal_entry_change(store, "updated", entry->at("entry").as_object());
  reload_entry(store, h, std::string(flow.at("entry_id").as_string()), options);
  return {200, abort_body(flow_id, h.domain, "reconfigure_successful")};
}

Answer finish(StateStore& store, const Handler& h, const std::string& flow_id, json::object& flow) {
  json::object data = flow.at("data").as_object();
  json::object body{
      {"type", "create_entry"}, {"flow_id", flow_id}, {"description", nullptr}, {"description_placeholders", nullptr}};
  if (flow.at("options").as_bool()) {
    json::object* entry = internal_entry(store, flow.at("entry_id").as_string());
    if (!entry) return message(404, "Invalid flow specified");
    json::object& options = entry->at("options").as_object();
    for (const auto& kv : data) options[kv.key()] = kv.value();
    entry->at("entry").as_object()["modified_at"] = now_timestamp();
    signal_entry_change(store, "updated", entry->at("entry").as_object());
    reload_entry(store, h, std::string(flow.at("entry_id").as_string()), options);
    body["handler"] = flow.at("entry_id");
    body["title"] = "";  // HA's HTTP answer drops the result's data (the new options): none here either
    return {200, std::move(body)};
  }
  const std::string title = data.contains("name") ? std::string(data.at("name").as_string()) : h.domain;
  json::object entry = new_entry(h, title);
  FlowState state{store, data, std::string(entry.at("entry_id").as_string())};
  if (h.setup) h.setup(state, title, data);
  body["handler"] = h.domain;
  body["title"] = title;
  body["version"] = 1;
  body["minor_version"] = 1;
  body["options"] = data;
  body["subentries"] = json::array{};
  body["result"] = entry;
  signal_entry_change(store, "added", entry);
  store.home().config_entries.push_back(json::object{{"entry", std::move(entry)}, {"options", std::move(data)}});
  return {200, std::move(body)};
}

}  // namespace

json::object entry_json(const std::string& domain, const std::string& title, const std::string& entry_id,
                        double created_at) {
  return json::object{{"entry_id", entry_id},
                      {"domain", domain},
                      {"title", title},
                      {"source", "user"},
                      {"state", "loaded"},
                      {"supports_options", true},
                      {"supports_remove_device", false},
                      {"supports_unload", true},
                      {"supports_reconfigure", false},
                      {"supported_subentry_types", json::object{}},
                      {"pref_disable_new_entities", false},
                      {"pref_disable_polling", false},
                      {"disabled_by", nullptr},
                      {"reason", nullptr},
                      {"error_reason_translation_key", nullptr},
                      {"error_reason_translation_placeholders", nullptr},
                      {"num_subentries", 0},
                      {"created_at", created_at},
                      {"modified_at", created_at}};
}

const HandlerTable& flow_handlers() {
  static const HandlerTable table = [] {
    HandlerTable t;
    add_helper_flow_handlers(t);
    add_integration_flow_handlers(t);
    return t;
  }();
  return table;
}

Answer start_flow(StateStore& store, const json::object& request, bool options_flow) {
  const json::value* handler = request.if_contains("handler");
  if (!handler || !handler->is_string())
    return message(400, "Message format incorrect: required key not provided @ data['handler']");
  json::object flow{{"options", options_flow}, {"data", json::object{}}};
  const Handler* h = nullptr;
  if (options_flow) {
    json::object* entry = internal_entry(store, handler->get_string());
    if (!entry) return message(404, "Invalid handler specified");
    h = handler_of(entry->at("entry").at("domain").as_string());
    if (!h) return message(400, "Entry does not support options");
    flow["entry_id"] = *handler;
    const json::object& options = entry->at("options").as_object();
    const json::value* chosen = h->menu_key.empty() ? nullptr : options.if_contains(h->menu_key);
    flow["step_id"] = chosen && chosen->is_string() ? *chosen : json::value("init");
  } else {
    h = handler_of(handler->get_string());
    if (!h) return message(404, "Invalid handler specified");
    flow["step_id"] = "user";
    if (const json::value* entry_id = request.if_contains("entry_id"); entry_id && entry_id->is_string()) {
      if (!internal_entry(store, entry_id->get_string()) || h->reconfigure_step.empty())
        return {200, abort_body(new_flow_id(), h->domain, "not_implemented")};
      flow["entry_id"] = *entry_id;
      flow["reconfigure"] = true;
      flow["step_id"] = "reconfigure";
    }
  }
  flow["handler"] = h->domain;
  const std::string flow_id = new_flow_id();
  const bool fresh = !options_flow && !flow.contains("reconfigure");
  const std::string reason = fresh && h->abort_on_start ? h->abort_on_start(store) : std::string();
  if (!reason.empty()) return {200, abort_body(flow_id, h->domain, reason)};
  json::object body = step_body(flow, *h, flow_id, nullptr, store);
  store.home().flows[flow_id] = std::move(flow);
  return {200, std::move(body)};
}

Answer show_flow(StateStore& store, const std::string& flow_id, bool options_flow) {
  auto& flows = store.home().flows;
  auto it = flows.find(flow_id);
  if (it == flows.end() || !is_flow_of(it->second, options_flow)) return message(404, "Invalid flow specified");
  const Handler* h = handler_of(it->second.at("handler").as_string());
  return {200, step_body(it->second, *h, flow_id, nullptr, store)};
}

Answer answer_flow(StateStore& store, const std::string& flow_id, const json::object& answer, bool options_flow) {
  auto& flows = store.home().flows;
  auto it = flows.find(flow_id);
  if (it == flows.end() || !is_flow_of(it->second, options_flow)) return message(404, "Invalid flow specified");
  json::object& flow = it->second;
  const Handler& h = *handler_of(flow.at("handler").as_string());
  const Step& step = step_of(h, flow);
  json::object given = answer;
  if (!step.menu_options.empty()) {
    const json::value* next = given.if_contains("next_step_id");
    const bool valid = next && next->is_string() &&
                       std::count(step.menu_options.begin(), step.menu_options.end(), next->get_string()) > 0;
    if (!valid) return {400, json::object{{"errors", json::object{{"next_step_id", "invalid option"}}}}};
    if (!h.menu_key.empty()) flow.at("data").as_object()[h.menu_key] = *next;
    flow["step_id"] = *next;
    return {200, step_body(flow, h, flow_id, nullptr, store)};
  }
  const bool derived = options_flow || is_reconfigure(flow);
  const json::array schema = derived ? options_schema(step.schema, json::object{}) : step.schema;
  json::object errors = check_answer(schema, given);
  if (!errors.empty()) return {400, json::object{{"errors", std::move(errors)}}};
  json::object& data = flow.at("data").as_object();
  for (const auto& kv : given) data[kv.key()] = kv.value();
  if (is_reconfigure(flow)) {
    Answer done = finish_reconfigure(store, h, flow_id, flow);
    flows.erase(it);
    return done;
  }
  FlowState state{store, data, options_flow ? std::string(flow.at("entry_id").as_string()) : std::string()};
  const StepResult result = step.submit ? step.submit(state, given) : StepResult::create();
  switch (result.kind) {
    case StepResult::Kind::next_step:
      flow["step_id"] = result.value;
      return {200, step_body(flow, h, flow_id, nullptr, store)};
    case StepResult::Kind::show_errors:
      return {200, step_body(flow, h, flow_id, result.errors, store)};
    case StepResult::Kind::abort: {
      json::object body = abort_body(flow_id, h.domain, result.value);
      flows.erase(it);
      return {200, std::move(body)};
    }
    case StepResult::Kind::create_entry:
      break;
  }
  Answer done = finish(store, h, flow_id, flow);
  flows.erase(flow_id);
  return done;
}

Answer abort_flow(StateStore& store, const std::string& flow_id, bool options_flow) {
  auto& flows = store.home().flows;
  auto it = flows.find(flow_id);
  if (it == flows.end() || !is_flow_of(it->second, options_flow)) return message(404, "Invalid flow specified");
  flows.erase(it);
  return message(200, "Flow aborted");
}

json::array list_entries(StateStore& store, std::string_view domain) {
  json::array out;
  for (const auto& e : store.home().config_entries)
    if (domain.empty() || e.at("entry").at("domain").as_string() == domain) out.push_back(e.at("entry"));
  return out;
}

const Handler* handler_of(std::string_view domain) {
  const auto& table = flow_handlers();
  auto it = table.find(domain);
  return it == table.end() ? nullptr : &it->second;
}

json::object* stored_entry(StateStore& store, std::string_view entry_id) {
  for (auto& e : store.home().config_entries)
    if (e.at("entry").at("entry_id").as_string() == entry_id) return &e;
  return nullptr;
}

// What HA's dispatcher tells config_entries/subscribe (SIGNAL_CONFIG_ENTRY_CHANGED).
void signal_entry_change(StateStore& store, const char* change, const json::object& entry) {
  store.fire(std::string(kConfigEntryChanged), json::object{{"type", change}, {"entry", entry}}, Context{});
}

bool passes_type_filter(std::string_view domain, const std::vector<std::string>& type_filter) {
  if (type_filter.empty()) return true;
  const Handler* h = handler_of(domain);
  const std::string type = h ? h->integration_type : std::string("hub");
  return std::find(type_filter.begin(), type_filter.end(), type) != type_filter.end();
}

const json::object* find_entry(StateStore& store, std::string_view entry_id) {
  const json::object* e = internal_entry(store, entry_id);
  return e ? &e->at("entry").as_object() : nullptr;
}

bool delete_entry(StateStore& store, const std::string& entry_id, const Context& context) {
  auto& entries = store.home().config_entries;
  auto it = std::find_if(entries.begin(), entries.end(),
                         [&](const json::object& e) { return e.at("entry").at("entry_id").as_string() == entry_id; });
  if (it == entries.end()) return false;
  const json::object removed_entry = it->at("entry").as_object();
  entries.erase(it);
  signal_entry_change(store, "removed", removed_entry);
  auto& registry = store.home().entities;
  std::vector<std::string> removed;
  for (const auto& e : registry)
    if (e.config_entry_id == entry_id) removed.push_back(e.entity_id);
  registry.erase(std::remove_if(registry.begin(), registry.end(),
                                [&](const EntityRegistryEntry& e) { return e.config_entry_id == entry_id; }),
                 registry.end());
  for (const auto& eid : removed) {
    store.remove_state(eid, context);
    store.fire("entity_registry_updated", {{"action", "remove"}, {"entity_id", eid}}, context);
  }
  return true;
}

std::string add_entry_entity(FlowState& flow, const std::string& domain, const std::string& name,
                             const std::string& platform, std::string state, json::object attributes) {
  StateStore& store = flow.store;
  std::string object = slugify(name), base = object;
  for (int n = 2; store.get(domain + "." + object) || store.entity_entry(domain + "." + object); ++n)
    object = base + "_" + std::to_string(n);
  const std::string eid = domain + "." + object;
  Context context = store.new_context();
  EntityRegistryEntry e;
  e.entity_id = eid;
  e.id = context.id;
  e.unique_id = flow.entry_id;
  e.platform = platform;
  e.config_entry_id = flow.entry_id;
  e.has_entity_name = false;
  e.original_name = name;
  e.created_at = e.modified_at = now_timestamp();
  store.home().entities.push_back(e);
  store.fire("entity_registry_updated", {{"action", "create"}, {"entity_id", eid}}, context);
  attributes["friendly_name"] = name;
  store.set_state(eid, std::move(state), std::move(attributes), context);
  return eid;
}

}  // namespace hamcp::sim::flows
