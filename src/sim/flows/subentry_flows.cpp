// Config subentry flows, shaped like HA's ConfigSubentryFlowManager behind
// /api/config/config_entries/subentries/flow: the handler is
// [entry_id, subentry_type]; the type's form (Handler::subentry_forms) is the
// "user" step, and its answer adds a subentry ({subentry_id, subentry_type,
// title, unique_id} plus its data) to the entry. With subentry_id the flow
// reconfigures that subentry ("reconfigure" step, its values suggested) and
// ends in abort "reconfigure_successful". A unique_id already used by the
// entry ends the flow in abort "already_configured", as HA's does.
#include <string>

#include "common/json_fields.hpp"
#include "sim/core/time_util.hpp"
#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim::flows {

namespace {

Answer message(int status, std::string text) { return {status, json::object{{"message", std::move(text)}}}; }

json::array& subentries_of(json::object& stored) {
  if (!stored.contains("subentries")) stored["subentries"] = json::array{};
  return stored.at("subentries").as_array();
}

json::object* subentry_of(json::object& stored, std::string_view subentry_id) {
  for (auto& s : subentries_of(stored))
    if (string_or_empty(s.as_object(), "subentry_id") == subentry_id) return &s.as_object();
  return nullptr;
}

// The sim's subentries key their unique_id on the type and the slug of the title.
std::string unique_id_of(const std::string& type, const std::string& title) { return type + "-" + slugify(title); }

// The form with the subentry's current values suggested (reconfigure).
json::array suggested_form(const json::array& form, const json::object& subentry) {
  json::array out;
  const json::value* data = subentry.if_contains("data");
  for (const auto& f : form) {
    json::object field = f.as_object();
    const std::string name(field.at("name").as_string());
    const json::value* current = name == "name"              ? subentry.if_contains("title")
                                 : data && data->is_object() ? data->as_object().if_contains(name)
                                                             : nullptr;
    if (current) {
      field.erase("default");
      field["description"] = json::object{{"suggested_value", *current}};
    }
    out.push_back(std::move(field));
  }
  return out;
}

json::object flow_body(const json::object& flow, const std::string& flow_id, const json::array& schema,
                       json::object errors) {
  return json::object{{"type", "form"},
                      {"flow_id", flow_id},
                      {"handler", flow.at("handler")},
                      {"step_id", flow.at("step_id")},
                      {"data_schema", schema},
                      {"errors", std::move(errors)},
                      {"description_placeholders", nullptr},
                      {"last_step", nullptr},
                      {"preview", nullptr}};
}

json::object abort_of(const json::object& flow, const std::string& flow_id, const std::string& reason) {
  return json::object{{"type", "abort"},
                      {"flow_id", flow_id},
                      {"handler", flow.at("handler")},
                      {"reason", reason},
                      {"description_placeholders", nullptr}};
}

// The flow's stored entry and its type's form; nullptrs when the entry is gone.
struct FlowParts {
  json::object* stored = nullptr;
  const json::array* form = nullptr;
};

FlowParts parts_of(StateStore& store, const json::object& flow) {
  const json::array& handler = flow.at("handler").as_array();
  FlowParts parts;
  parts.stored = stored_entry(store, handler.at(0).as_string());
  const Handler* h = parts.stored ? handler_of(parts.stored->at("entry").at("domain").as_string()) : nullptr;
  if (!h) return {};
  auto it = h->subentry_forms.find(handler.at(1).as_string());
  if (it == h->subentry_forms.end()) return {};
  parts.form = &it->second;
  return parts;
}

json::array schema_of(StateStore& store, const json::object& flow, const FlowParts& parts) {
  if (!flow.contains("subentry_id")) return *parts.form;
  const json::object* sub = subentry_of(*parts.stored, flow.at("subentry_id").as_string());
  return sub ? suggested_form(*parts.form, *sub) : *parts.form;
}

void touch(StateStore& store, json::object& stored) {
  json::object& entry = stored.at("entry").as_object();
  entry["num_subentries"] = static_cast<std::int64_t>(subentries_of(stored).size());
  entry["modified_at"] = now_timestamp();
  signal_entry_change(store, "updated", entry);
}

bool unique_id_taken(json::object& stored, const std::string& unique_id, std::string_view except_id) {
  for (const auto& s : subentries_of(stored))
    if (string_or_empty(s.as_object(), "unique_id") == unique_id &&
        string_or_empty(s.as_object(), "subentry_id") != except_id)
      return true;
  return false;
}

// The answer (schema-valid) applied: a new subentry, or the reconfigured one updated.
Answer finish(StateStore& store, const json::object& flow, const std::string& flow_id, json::object& stored,
              json::object data) {
  const std::string type(flow.at("handler").as_array().at(1).as_string());
  std::string title = string_or_empty(data, "name");
  data.erase("name");
  if (flow.contains("subentry_id")) {
    const std::string sub_id(flow.at("subentry_id").as_string());
    json::object* sub = subentry_of(stored, sub_id);
    if (!sub) return {200, abort_of(flow, flow_id, "unknown")};
    if (title.empty()) title = string_or_empty(*sub, "title");
    const std::string unique_id = unique_id_of(type, title);
    if (unique_id_taken(stored, unique_id, sub_id)) return {200, abort_of(flow, flow_id, "already_configured")};
    (*sub)["title"] = title;
    (*sub)["unique_id"] = unique_id;
    json::object& kept = (*sub)["data"].emplace_object();
    kept = std::move(data);
    touch(store, stored);
    return {200, abort_of(flow, flow_id, "reconfigure_successful")};
  }
  const std::string unique_id = unique_id_of(type, title);
  if (unique_id_taken(stored, unique_id, "")) return {200, abort_of(flow, flow_id, "already_configured")};
  subentries_of(stored).push_back(json::object{{"subentry_id", new_flow_id().substr(0, 26)},
                                               {"subentry_type", type},
                                               {"title", title},
                                               {"unique_id", unique_id},
                                               {"data", data}});
  touch(store, stored);
  return {200, json::object{{"version", 1},
                            {"minor_version", 1},
                            {"type", "create_entry"},
                            {"flow_id", flow_id},
                            {"handler", flow.at("handler")},
                            {"title", title},
                            {"description", nullptr},
                            {"description_placeholders", nullptr},
                            {"unique_id", unique_id}}};
}

json::object* subentry_flow(StateStore& store, const std::string& flow_id) {
  auto& flows = store.home().flows;
  auto it = flows.find(flow_id);
  return it == flows.end() || !it->second.contains("subentry") ? nullptr : &it->second;
}

}  // namespace

Answer start_subentry_flow(StateStore& store, const json::object& request) {
  const json::value* handler = request.if_contains("handler");
  const json::array* pair = handler ? handler->if_array() : nullptr;
  if (!pair || pair->size() != 2 || !pair->at(0).is_string() || !pair->at(1).is_string())
    return message(400, "Message format incorrect: expected a list @ data['handler']");
  json::object flow{{"subentry", true}, {"options", false}, {"handler", *pair}, {"step_id", "user"}};
  if (const json::value* sub = request.if_contains("subentry_id"); sub && sub->is_string()) {
    flow["subentry_id"] = *sub;
    flow["step_id"] = "reconfigure";
  }
  const FlowParts parts = parts_of(store, flow);
  if (!parts.form) return message(404, "Invalid handler specified");
  if (flow.contains("subentry_id")) {
    const json::value* types = parts.stored->at("entry").as_object().if_contains("supported_subentry_types");
    const json::value* type =
        types && types->is_object() ? types->as_object().if_contains(pair->at(1).as_string()) : nullptr;
    const json::value* can =
        type && type->is_object() ? type->as_object().if_contains("supports_reconfigure") : nullptr;
    if (!can || !can->is_bool() || !can->get_bool())
      return message(400, "Handler ConfigSubentryFlow doesn't support step reconfigure");
    if (!subentry_of(*parts.stored, flow.at("subentry_id").as_string()))
      return message(404, "Config subentry not found");
  }
  const std::string flow_id = new_flow_id();
  json::object body = flow_body(flow, flow_id, schema_of(store, flow, parts), {});
  store.home().flows[flow_id] = std::move(flow);
  return {200, std::move(body)};
}

Answer show_subentry_flow(StateStore& store, const std::string& flow_id) {
  json::object* flow = subentry_flow(store, flow_id);
  if (!flow) return message(404, "Invalid flow specified");
  const FlowParts parts = parts_of(store, *flow);
  if (!parts.form) return message(404, "Invalid flow specified");
  return {200, flow_body(*flow, flow_id, schema_of(store, *flow, parts), {})};
}

Answer answer_subentry_flow(StateStore& store, const std::string& flow_id, const json::object& answer) {
  json::object* flow = subentry_flow(store, flow_id);
  if (!flow) return message(404, "Invalid flow specified");
  const FlowParts parts = parts_of(store, *flow);
  if (!parts.form) return message(404, "Invalid flow specified");
  json::object given = answer;
  json::array schema = schema_of(store, *flow, parts);
  if (json::object errors = check_answer(schema, given); !errors.empty())
    return {400, json::object{{"errors", std::move(errors)}}};
  const json::object ended = *flow;
  store.home().flows.erase(flow_id);
  return finish(store, ended, flow_id, *parts.stored, std::move(given));
}

Answer abort_subentry_flow(StateStore& store, const std::string& flow_id) {
  if (!subentry_flow(store, flow_id)) return message(404, "Invalid flow specified");
  store.home().flows.erase(flow_id);
  return message(200, "Flow aborted");
}

}  // namespace hamcp::sim::flows
