#pragma once
// A generic config-flow engine shaped like Home Assistant's data_entry_flow:
// a flow handler (one per integration domain) is a table of steps, each a form
// (data_schema fields) or a menu; answers are checked against the step's schema
// (400 {"errors":{field: message}}), then the step decides: another step, a
// form shown again with errors, create_entry or abort. Config flows create
// config entries (Home::config_entries), options flows update an entry's
// options. Handlers register in flow_handlers(); helper_flows.cpp adds the
// helper integrations, other integrations add theirs beside it.
// Every function here is called with the store's mutex held.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/core/state_store.hpp"

namespace hamcp::sim::flows {

namespace json = boost::json;

// What a step does with an answer that passed its schema.
struct StepResult {
  enum class Kind { next_step, show_errors, create_entry, abort };
  Kind kind = Kind::create_entry;
  std::string value;    // next_step: the step id; abort: the reason
  json::object errors;  // show_errors: {field | "base": error key}

  static StepResult go(std::string step) { return {Kind::next_step, std::move(step), {}}; }
  static StepResult fail(json::object errors) { return {Kind::show_errors, {}, std::move(errors)}; }
  static StepResult create() { return {Kind::create_entry, {}, {}}; }
  static StepResult abort(std::string reason) { return {Kind::abort, std::move(reason), {}}; }
};

// The flow so far: `data` collects every answer (menu choices included).
struct FlowState {
  StateStore& store;
  json::object data;
  std::string entry_id;  // options flows: the entry being changed
};

struct Step {
  std::vector<std::string> menu_options;  // non-empty: a menu
  json::array schema;                     // a form's data_schema (HA's serialised fields)
  // Checks the (schema-valid) answer; the default goes to create_entry.
  std::function<StepResult(FlowState&, const json::object& answer)> submit;
};

// The options flow is derived from the config flow: its one step is the form
// that created the entry (the menu choice's step, else "user", shown as
// "init"), without the name, its current options as suggested values.
struct Handler {
  std::string domain;
  std::string integration_type = "helper";  // the manifest's: helper, hub, service, device
  std::map<std::string, Step> steps;        // config flow, starts at "user"
  std::string menu_key;                     // options key that records the first menu's choice ("template_type")
  // A reason to abort at the start ("single_instance_allowed"); "" = go on.
  std::function<std::string(StateStore&)> abort_on_start;
  // The new entry's entities (registry + state), from its title and options.
  std::function<void(FlowState&, const std::string& title, const json::object& options)> setup;
  // After an options-flow update HA reloads the entry: each of its entities gets
  // the state and attributes its new options give (unset: the entities stay as they are).
  std::function<void(FlowState&, const StoredState& entity, const json::object& options)> reload;
  // The config step whose form the options flow shows as "init" ("" = as above).
  std::string options_step;
  // The config step a reconfigure flow (POST .../flow {handler, entry_id}) shows
  // as "reconfigure", current values suggested; its answer updates the entry and
  // ends in abort "reconfigure_successful". "" = no reconfigure flow.
  std::string reconfigure_step;
  // GET /api/diagnostics/config_entry/<id>'s "data" for a stored entry (unset: 404, no diagnostics).
  std::function<json::object(const json::object& stored)> diagnostics;
  // supported_subentry_types of its entries ({type: {supports_reconfigure}}).
  json::object subentry_types;
  // Each subentry type's form (its "user" step; "reconfigure" shows it again
  // with the subentry's values suggested). Its "name" answer is the title.
  std::map<std::string, json::array, std::less<>> subentry_forms;
};

using HandlerTable = std::map<std::string, Handler, std::less<>>;
const HandlerTable& flow_handlers();
void add_helper_flow_handlers(HandlerTable& table);       // helper_flows.cpp
void add_integration_flow_handlers(HandlerTable& table);  // integration_flows.cpp

// A flow operation's HTTP answer.
struct Answer {
  int status = 200;
  json::value body;
};

Answer start_flow(StateStore& store, const json::object& request, bool options_flow);
Answer show_flow(StateStore& store, const std::string& flow_id, bool options_flow);
Answer answer_flow(StateStore& store, const std::string& flow_id, const json::object& answer, bool options_flow);
Answer abort_flow(StateStore& store, const std::string& flow_id, bool options_flow);

// Subentry flows (/api/config/config_entries/subentries/flow, subentry_flows.cpp):
// handler [entry_id, subentry_type]; with subentry_id a reconfigure flow.
Answer start_subentry_flow(StateStore& store, const json::object& request);
Answer show_subentry_flow(StateStore& store, const std::string& flow_id);
Answer answer_subentry_flow(StateStore& store, const std::string& flow_id, const json::object& answer);
Answer abort_subentry_flow(StateStore& store, const std::string& flow_id);

// A new 32-hex flow id (also the source of new entry and subentry ids).
std::string new_flow_id();

json::array list_entries(StateStore& store, std::string_view domain);
// Does an entry of `domain` pass config_entries/get's type_filter ([] = all)?
bool passes_type_filter(std::string_view domain, const std::vector<std::string>& type_filter);
// The store signal fired when an entry is added, updated (options) or removed:
// data {"type": "added" | "updated" | "removed", "entry": {...}} (config_entries/subscribe).
inline constexpr std::string_view kConfigEntryChanged = "@config_entry_changed";
const json::object* find_entry(StateStore& store, std::string_view entry_id);
// The stored entry {"entry", "options", "subentries"?} (nullptr: none); for entry_admin.cpp.
json::object* stored_entry(StateStore& store, std::string_view entry_id);
const Handler* handler_of(std::string_view domain);
void signal_entry_change(StateStore& store, const char* change, const json::object& entry);
// Removes the entry and its entities; false when there is none.
bool delete_entry(StateStore& store, const std::string& entry_id, const Context& context);

// A config entry as HA's REST and WebSocket APIs show it (source "user", loaded).
json::object entry_json(const std::string& domain, const std::string& title, const std::string& entry_id,
                        double created_at);

// The answer checked against a form's schema: defaults filled in, unknown
// keys and missing required fields named ({} when valid).
json::object check_answer(const json::array& schema, json::object& answer);

// Adds an entity belonging to a config entry (registry entry + state).
std::string add_entry_entity(FlowState& flow, const std::string& domain, const std::string& name,
                             const std::string& platform, std::string state, json::object attributes);

}  // namespace hamcp::sim::flows
