// ha_get_integration: config entries listed (domain / query filters, pages) or
// one entry with its entities and devices, options and their form (an options
// flow started and aborted again: HA has no other way to show them),
// subentries and diagnostics.
#include <algorithm>

#include "common/ascii.hpp"
#include "home/entity_docs.hpp"
#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/integrations/integration_tools.hpp"

namespace hamcp::tools {

namespace {

using home::str_of;
using namespace integrations;

constexpr const char* kOptionsBase = "/api/config/config_entries/options/flow";

bool matches(const json::object& e, const std::string& query, bool exact) {
  if (query.empty()) return true;
  const std::string q = ascii_lower(query);
  for (const char* k : {"domain", "title", "entry_id"}) {
    const std::string v = ascii_lower(str_of(&e, k));
    if (exact ? v == q : v.find(q) != std::string::npos) return true;
  }
  return false;
}

mcp::ToolResult list_view(Args& args, std::vector<json::object> entries) {
  const std::string domain = args.str("domain"), query = args.str("query");
  const bool exact = args.flag("exact_match", false);
  std::vector<json::object> kept;
  for (auto& e : entries)
    if ((domain.empty() || str_of(&e, "domain") == domain) && matches(e, query, exact)) kept.push_back(std::move(e));
  std::sort(kept.begin(), kept.end(), [](const json::object& a, const json::object& b) {
    return std::pair(str_of(&a, "domain"), str_of(&a, "title")) < std::pair(str_of(&b, "domain"), str_of(&b, "title"));
  });
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 50), 1, 500));
  json::array page;
  for (std::size_t i = offset; i < kept.size() && page.size() < limit; ++i) page.push_back(entry_view(kept[i]));
  const std::size_t shown = page.size();
  json::object body{{"entries", std::move(page)}, {"total", kept.size()}, {"offset", offset}};
  body["has_more"] = offset + shown < kept.size();
  return ok(std::move(body));
}

// The options flow's first step (then aborted): suggested values = the current options.
boost::asio::awaitable<json::object> options_form(ToolEnv& env, const std::string& entry_id, bool advanced) {
  json::object start{{"handler", entry_id}, {"show_advanced_options", advanced}};
  auto starting = helpers::rest_call(env, "POST", kOptionsBase, json::value(std::move(start)), false);
  const helpers::RestAnswer step = co_await std::move(starting);
  const json::object* body = step.body.if_object();
  if (step.status >= 400 || !body) {
    json::object failed{{"error", body && body->contains("message") ? body->at("message") : json::value(step.status)}};
    co_return failed;
  }
  const std::string flow_id = str_of(body, "flow_id");
  if (!flow_id.empty() && str_of(body, "type") != "abort" && str_of(body, "type") != "create_entry") {
    auto aborting = helpers::rest_call(env, "DELETE", std::string(kOptionsBase) + "/" + flow_id, nullptr, false);
    co_await std::move(aborting);
  }
  co_return *body;
}

// {options, schema} from the options form's fields.
void add_options(json::object& out, const json::object& form, bool with_schema) {
  if (form.contains("error")) {
    out["options_error"] = form.at("error");
    return;
  }
  json::object options;
  const json::value* schema = form.if_contains("data_schema");
  if (schema && schema->is_array())
    for (const auto& f : schema->as_array()) {
      const json::object* field = f.if_object();
      const json::value* desc = field ? field->if_contains("description") : nullptr;
      const json::value* v = desc && desc->is_object() ? desc->as_object().if_contains("suggested_value") : nullptr;
      if (v) options[str_of(field, "name")] = *v;
    }
  out["options"] = std::move(options);
  if (with_schema) {
    out["options_schema"] = schema ? *schema : json::value(json::array{});
    out["options_step"] = form.contains("step_id") ? form.at("step_id") : json::value(nullptr);
    if (const json::value* menu = form.if_contains("menu_options")) out["options_menu"] = *menu;
  }
}

// ha-mcp's device_id without entry_id: the device's primary config entry ("" = no such device).
std::string primary_entry_of(const ha::Snapshot& snap, const std::string& device_id) {
  std::string entry;
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& item) {
    const json::object* o = item.if_object();
    if (!entry.empty() || str_of(o, "id") != device_id) return;
    entry = str_of(o, "primary_config_entry");
    const json::value* all = o->if_contains("config_entries");
    if (entry.empty() && all && all->is_array() && !all->as_array().empty() && all->as_array()[0].is_string())
      entry = std::string(all->as_array()[0].get_string());
  });
  if (entry.empty())
    throw ToolException(bad_argument("device_id", "no device '" + device_id + "'",
                                     "Take a device id from ha_get_registry kind=device."));
  return entry;
}

DiagnosticsView diagnostics_view(Args& args) {
  DiagnosticsView v;
  v.path = args.str("diagnostics_data_path");
  if (v.path.rfind("data.", 0) == 0) v.path.erase(0, 5);  // ha-mcp's paths start at the payload
  v.offset = args.integer("diagnostics_data_offset", 0);
  v.limit = std::clamp<std::int64_t>(args.integer("diagnostics_data_limit", 50), 1, 1000);
  v.budget = std::clamp<std::int64_t>(args.integer("diagnostics_truncate_at_bytes", 20000), 200, 500000);
  v.fields = args.list("diagnostics_fields");
  v.device_id = args.str("device_id");
  return v;
}

// ha-mcp's include_subentry_schema: each subentry type's form ({type: form}),
// or with subentry_id that subentry's reconfigure form. Reading a form starts
// (and aborts) a flow, which a read-only session does not send.
boost::asio::awaitable<json::value> subentry_forms(Args& args, ToolEnv& env, const json::object& entry) {
  if (env.read_only())
    co_return json::value("reading a subentry form starts a flow, which a read-only session does not send");
  const std::string only = args.str("subentry_type"), subentry_id = args.str("subentry_id");
  std::vector<std::string> types;
  if (const json::value* t = entry.if_contains("supported_subentry_types"); t && t->is_object())
    for (const auto& kv : t->as_object())
      if (only.empty() || kv.key() == only) types.emplace_back(kv.key());
  json::object forms;
  for (const auto& type : types) {
    auto peeking = helpers::peek_subentry_flow(env, str_of(&entry, "entry_id"), type, subentry_id);
    forms[type] = co_await std::move(peeking);
  }
  co_return json::value(std::move(forms));
}

boost::asio::awaitable<mcp::ToolResult> one_entry(Args& args, ToolEnv& env, const json::object& entry) {
  const std::string entry_id = str_of(&entry, "entry_id");
  json::object body = entry_view(entry);
  for (const char* k : {"supports_unload", "supports_remove_device", "supported_subentry_types",
                        "pref_disable_new_entities", "pref_disable_polling", "created_at", "modified_at"})
    if (const json::value* v = entry.if_contains(k)) body[k] = *v;
  auto finding = entry_members(env, entry_id);
  json::object members = co_await std::move(finding);
  for (auto& kv : members) body[kv.key()] = kv.value();
  const bool supports_options = entry.contains("supports_options") && entry.at("supports_options") == true;
  if (args.flag("include_options", true) || args.flag("include_schema", false)) {
    if (!supports_options) {
      body["options_note"] = "this integration has no options";
    } else if (env.read_only()) {
      body["options_note"] = "reading options starts an options flow, which a read-only session does not send";
    } else {
      auto reading = options_form(env, entry_id, args.flag("show_advanced_options", false));
      const json::object form = co_await std::move(reading);
      add_options(body, form, args.flag("include_schema", false));
    }
  }
  const json::value* subs = entry.if_contains("num_subentries");
  if (args.flag("include_subentries", subs && subs->is_int64() && subs->as_int64() > 0)) {
    auto listing =
        helpers::ws_read(env, json::object{{"type", "config_entries/subentries/list"}, {"entry_id", entry_id}});
    json::value listed = co_await std::move(listing);
    const std::string type = args.str("subentry_type");
    json::array kept;
    if (json::array* a = listed.if_array())
      for (auto& s : *a)
        if (type.empty() || str_of(s.if_object(), "subentry_type") == type) kept.push_back(std::move(s));
    body["subentries"] = std::move(kept);
  }
  if (args.flag("include_subentry_schema", false)) {
    auto reading = subentry_forms(args, env, entry);
    body["subentry_forms"] = co_await std::move(reading);
  }
  if (args.flag("include_diagnostics", false)) {
    auto reading = read_diagnostics(env, entry_id, diagnostics_view(args));
    body["diagnostics"] = co_await std::move(reading);
  }
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_get_integration(Args& args, ToolEnv& env, mcp::RequestContext&) {
  auto listing = list_entries(env);
  std::vector<json::object> entries = co_await std::move(listing);
  std::string entry_id = args.str("entry_id");
  if (entry_id.empty() && args.has("device_id")) entry_id = primary_entry_of(*env.ha.snapshot(), args.str("device_id"));
  if (entry_id.empty()) {
    if (args.flag("include_diagnostics", false))
      throw ToolException(bad_argument("entry_id", "required for include_diagnostics",
                                       "List entries first, then pass one entry_id with include_diagnostics=true."));
    co_return list_view(args, std::move(entries));
  }
  const json::object entry = find_entry(entries, entry_id);
  auto reading = one_entry(args, env, entry);
  mcp::ToolResult result = co_await std::move(reading);
  co_return result;
}

}  // namespace

ToolSpec make_get_integration_spec() {
  ToolSpec s;
  s.name = "ha_get_integration";
  s.title = "Get integrations (config entries)";
  s.description =
      "List config entries (domain, query, pages) or, with entry_id, one entry: entities, devices, options "
      "(include_schema: their form), subentries, diagnostics (path/offset/limit, byte budget).";
  s.input_schema = R"J({"type":"object","properties":{"entry_id":{"type":"string"},"query":{"type":"string"},
"domain":{"type":"string"},"exact_match":{"type":"boolean"},"limit":{"type":"integer"},"offset":{"type":"integer"},
"include_options":{"type":"boolean"},"include_schema":{"type":"boolean"},"include_subentries":{"type":"boolean"},
"include_diagnostics":{"type":"boolean"},"diagnostics_data_path":{"type":"string"},
"diagnostics_data_offset":{"type":"integer"},"diagnostics_data_limit":{"type":"integer"},
"diagnostics_truncate_at_bytes":{"type":"integer"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"entries":{"type":"array"},"entry_id":{"type":"string"}}})J";
  s.annotations = read_only();
  s.hidden_args = {"diagnostics_fields",    "include_subentry_schema", "subentry_type", "subentry_id",
                   "show_advanced_options", "include_knx_project",     "device_id"};
  s.run = run_get_integration;
  return s;
}

}  // namespace hamcp::tools
