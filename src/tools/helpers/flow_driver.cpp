#include "tools/helpers/flow_driver.hpp"

#include <map>
#include <set>

#include "tools/helpers/helper_ha.hpp"

namespace hamcp::tools::helpers {

namespace {

constexpr int kMaxSteps = 12;  // HA's helper flows have 1-3; a loop never runs away

std::string base_of(bool options_flow) {
  return options_flow ? "/api/config/config_entries/options/flow" : "/api/config/config_entries/flow";
}

std::string base_of(const FlowRun& run) {
  return run.subentry_type.empty() ? base_of(run.options_flow) : "/api/config/config_entries/subentries/flow";
}

// Flows that change what exists (options, reconfigure): HA suggests the current values.
bool edits_existing(const FlowRun& run) {
  return run.options_flow || !run.reconfigure_entry_id.empty() || !run.subentry_id.empty();
}

std::string name_of(const FlowRun& run) {
  if (!run.subentry_type.empty()) return "the " + run.subentry_type + " subentry flow of " + run.handler;
  return (run.options_flow ? "the options flow of " : "the config flow of ") + run.handler;
}

std::string str_of(const json::value& v, std::string_view key) {
  const json::object* o = v.if_object();
  const json::value* x = o ? o->if_contains(key) : nullptr;
  return x && x->is_string() ? std::string(x->get_string()) : std::string();
}

boost::asio::awaitable<void> abort_quietly(ToolEnv& env, const std::string& base, const std::string& flow_id) {
  try {
    auto aborting = rest_call(env, "DELETE", base + "/" + flow_id, nullptr, false);
    co_await std::move(aborting);
  } catch (const ToolException&) {
    // HA drops an abandoned flow on its own; the error that ended the flow matters more
  }
}

ToolError unknown_handler(const std::string& handler) {
  return bad_argument("helper_type", "Home Assistant has no config flow '" + handler + "'",
                      "Use a storage type (input_boolean, counter, ...) or a helper integration "
                      "(template, group, utility_meter, derivative, min_max, threshold, ...).");
}

// The option to take at a menu: menu_choice, else a config value naming one option.
std::optional<std::string> choose(const FlowRun& run, const json::array& options) {
  std::set<std::string> names;
  for (const auto& o : options)
    if (o.is_string()) names.emplace(o.get_string());
  if (run.menu_choice && names.count(*run.menu_choice)) return run.menu_choice;
  for (const auto& kv : run.config)
    if (kv.value().is_string() && names.count(std::string(kv.value().get_string())))
      return std::string(kv.value().get_string());
  return std::nullopt;
}

ToolError menu_needs_choice(const std::string& step, const json::array& options) {
  json::object extra{{"step_id", step}, {"menu_options", options}, {"written", false}};
  return ToolError{"menu_choice_required",
                   "The flow's step '" + step + "' is a menu: " + json::serialize(options) + ". Nothing was written.",
                   "Pass menu_choice (or config.<type key>) with one of these options.", std::move(extra)};
}

// A form's answer from the config (options flows: HA's suggested values for the rest).
json::object answer_form(const json::value& step, const json::object& config, std::set<std::string>& used,
                         json::object* previous) {
  json::object answer;
  const json::value* schema = step.as_object().if_contains("data_schema");
  if (!schema || !schema->is_array()) return answer;
  for (const auto& f : schema->get_array()) {
    const std::string name = str_of(f, "name");
    const json::value* desc = f.as_object().if_contains("description");
    const json::value* suggested =
        desc && desc->is_object() ? desc->as_object().if_contains("suggested_value") : nullptr;
    if (suggested && previous) (*previous)[name] = *suggested;
    if (const json::value* v = config.if_contains(name)) {
      answer[name] = *v;
      used.insert(name);
    } else if (suggested && previous) {
      answer[name] = *suggested;
    }
  }
  return answer;
}

// The answer to one menu or form step; `stop` set: the flow cannot go on (the caller aborts it).
struct StepAnswer {
  json::object answer;
  std::optional<ToolError> stop;
};

constexpr const char* kFixFields = "Fix those fields of `config` (describe=true shows the form) and call again.";

StepAnswer answer_step(const FlowRun& run, const json::value& step, const std::string& what,
                       std::set<std::string>& used, json::object* previous) {
  const std::string type = str_of(step, "type"), step_id = str_of(step, "step_id");
  StepAnswer out;
  if (type == "menu") {
    const json::value* listed = step.as_object().if_contains("menu_options");
    const json::array options = listed && listed->is_array() ? listed->as_array() : json::array{};
    auto choice = choose(run, options);
    if (!choice) {
      out.stop = menu_needs_choice(step_id, options);
      return out;
    }
    out.answer["next_step_id"] = *choice;
    used.insert("menu_choice");
    return out;
  }
  if (type == "form") {
    const json::value* errors = step.as_object().if_contains("errors");
    if (errors && errors->is_object() && !errors->as_object().empty())
      out.stop = field_errors(what, step_id, errors->as_object(), kFixFields);
    else
      out.answer = answer_form(step, run.config, used, previous);
    return out;
  }
  out.stop = ToolError{"unsupported_flow_step",
                       "The flow's step '" + step_id + "' is of type '" + type +
                           "', which needs a person (a link or a device). Nothing was written.",
                       "Finish this one in Home Assistant's UI.",
                       {{"written", false}}};
  return out;
}

// What HA's common abort reasons (homeassistant/strings.json, config_flow.abort.*) mean for the caller.
std::string explain_abort(const std::string& reason) {
  static const std::map<std::string, std::string, std::less<>> kMeaning = {
      {"single_instance_allowed", "this integration allows one entry and it already has one"},
      {"already_configured", "an entry for this device or service already exists"},
      {"already_in_progress", "another flow for the same device is already open (in the UI or a discovery)"},
      {"no_devices_found", "the integration found no device on the network"},
      {"cannot_connect", "the integration could not reach the device or service"},
      {"invalid_auth", "the credentials were refused"},
      {"unique_id_mismatch", "the device answering is not the one this entry was made for"},
      {"not_implemented", "the integration has no such flow (e.g. no reconfigure)"},
      {"unknown", "the integration failed unexpectedly; its log says why"}};
  const auto it = kMeaning.find(reason);
  return it == kMeaning.end() ? std::string() : it->second;
}

ToolError aborted(const std::string& what, const json::value& step) {
  const std::string reason = str_of(step, "reason");
  const std::string meaning = explain_abort(reason);
  json::object extra{{"reason", reason}, {"written", false}};
  if (!meaning.empty()) extra["meaning"] = meaning;
  return ToolError{"flow_aborted",
                   "Home Assistant ended " + what + ": " + reason + (meaning.empty() ? "" : " (" + meaning + ")") +
                       ". Nothing was written.",
                   "Read the reason: e.g. single_instance_allowed means one already exists.", std::move(extra)};
}

// The first answer of a flow; a 404 names what was missing.
boost::asio::awaitable<RestAnswer> start_flow(ToolEnv& env, const FlowRun& run, const std::string& base) {
  json::object start{{"handler", run.handler}, {"show_advanced_options", run.show_advanced_options}};
  if (!run.reconfigure_entry_id.empty()) start["entry_id"] = run.reconfigure_entry_id;
  if (!run.subentry_type.empty())
    start["handler"] = json::array{json::value(run.handler), json::value(run.subentry_type)};
  if (!run.subentry_id.empty()) start["subentry_id"] = run.subentry_id;
  auto starting = rest_call(env, "POST", base, json::value(std::move(start)), false);
  RestAnswer step = co_await std::move(starting);
  if (step.status == 404 && run.options_flow)
    throw ToolException(ToolError{"helper_not_found",
                                  "Home Assistant has no config entry '" + run.handler + "'. Nothing was written.",
                                  "Pass the entry_id that ha_config_list_helpers lists as helper_id.",
                                  {{"written", false}}});
  if (step.status == 404 && !run.subentry_type.empty())
    throw ToolException(ToolError{
        "subentry_not_found",
        "Config entry '" + run.handler + "' has no subentry type '" + run.subentry_type + "'" +
            (run.subentry_id.empty() ? "" : " or no subentry '" + run.subentry_id + "'") + ". Nothing was written.",
        "ha_get_integration entry_id=" + run.handler +
            " include_subentries=true lists its subentries and supported_subentry_types.",
        {{"written", false}}});
  if (step.status == 404) throw ToolException(unknown_handler(run.handler));
  if (step.status >= 400) throw_http_failure(step.status, json::serialize(step.body));
  co_return step;
}

void note_unused(const FlowRun& run, const std::set<std::string>& used, FlowOutcome& out) {
  for (const auto& kv : run.config)
    if (!used.count(std::string(kv.key())) && kv.value() != json::value(run.menu_choice.value_or("")))
      out.unused_keys.emplace_back(kv.key());
}

}  // namespace

boost::asio::awaitable<FlowOutcome> drive_flow(ToolEnv& env, FlowRun run) {
  const std::string base = base_of(run);
  const std::string what = name_of(run);
  auto starting = start_flow(env, run, base);
  RestAnswer step = co_await std::move(starting);
  const std::string flow_id = str_of(step.body, "flow_id");
  FlowOutcome out;
  std::set<std::string> used;
  for (int i = 0; i < kMaxSteps; ++i) {
    const std::string type = str_of(step.body, "type"), step_id = str_of(step.body, "step_id");
    if (type == "create_entry") {
      out.result = step.body.as_object();
      note_unused(run, used, out);
      co_return out;
    }
    if (type == "abort" && (!run.reconfigure_entry_id.empty() || !run.subentry_id.empty()) &&
        str_of(step.body, "reason") == "reconfigure_successful") {
      out.result = step.body.as_object();
      note_unused(run, used, out);
      co_return out;
    }
    if (type == "abort") throw ToolException(aborted(what, step.body));
    out.steps.emplace_back(step_id);
    StepAnswer next_answer =
        answer_step(run, step.body, what, used, edits_existing(run) && i == 0 ? &out.previous : nullptr);
    std::optional<ToolError> stop = std::move(next_answer.stop);
    if (!stop) {
      auto answering = rest_call(env, "POST", base + "/" + flow_id, json::value(std::move(next_answer.answer)), true);
      RestAnswer next = co_await std::move(answering);
      const json::object* body = next.body.if_object();
      if (next.status == 400 && body && body->contains("errors")) {
        const json::value& errors = body->at("errors");
        stop = field_errors(what, step_id, errors.is_object() ? errors.as_object() : json::object{}, kFixFields);
      } else if (next.status >= 400) {
        throw_http_failure(next.status, json::serialize(next.body));
      } else {
        step = std::move(next);
        continue;
      }
    }
    for (const char* k : {"data_schema", "menu_options"})  // what the next call must answer
      if (const json::value* v = step.body.as_object().if_contains(k); v && !stop->extra.contains(k))
        stop->extra[k] = *v;
    auto aborting = abort_quietly(env, base, flow_id);  // named: GCC 12 coroutine temporaries
    co_await std::move(aborting);
    throw ToolException(std::move(*stop));
  }
  auto aborting = abort_quietly(env, base, flow_id);
  co_await std::move(aborting);
  throw ToolException("flow_too_long", what + " did not end within " + std::to_string(kMaxSteps) + " steps.",
                      "Finish it in Home Assistant's UI.");
}

boost::asio::awaitable<json::object> peek_flow(ToolEnv& env, std::string handler,
                                               std::optional<std::string> menu_choice) {
  const std::string base = base_of(false);
  auto starting = rest_call(env, "POST", base, json::value(json::object{{"handler", handler}}), false);
  RestAnswer step = co_await std::move(starting);
  if (step.status == 404) throw ToolException(unknown_handler(handler));
  if (step.status >= 400) throw_http_failure(step.status, json::serialize(step.body));
  const std::string flow_id = str_of(step.body, "flow_id");
  if (menu_choice && str_of(step.body, "type") == "menu") {
    json::object answer{{"next_step_id", *menu_choice}};
    auto choosing = rest_call(env, "POST", base + "/" + flow_id, json::value(std::move(answer)), false);
    RestAnswer chosen = co_await std::move(choosing);
    if (chosen.status >= 400) {
      {
        auto aborting = abort_quietly(env, base, flow_id);  // named: GCC 12 coroutine temporaries
        co_await std::move(aborting);
      }
      throw ToolException(bad_argument("menu_choice", "not an option of the flow's menu",
                                       "Call describe without menu_choice to see the options."));
    }
    step = std::move(chosen);
  }
  if (!flow_id.empty() && str_of(step.body, "type") != "abort") {
    auto aborting = abort_quietly(env, base, flow_id);  // named: GCC 12 coroutine temporaries
    co_await std::move(aborting);
  }
  json::object out;
  for (const char* k : {"type", "step_id", "data_schema", "menu_options", "reason"})
    if (const json::value* v = step.body.as_object().if_contains(k)) out[k] = *v;
  co_return out;
}

boost::asio::awaitable<json::object> peek_subentry_flow(ToolEnv& env, std::string entry_id, std::string type,
                                                        std::string subentry_id) {
  FlowRun run;
  run.handler = std::move(entry_id);
  run.subentry_type = std::move(type);
  run.subentry_id = std::move(subentry_id);
  const std::string base = base_of(run);
  auto starting = start_flow(env, run, base);
  const RestAnswer step = co_await std::move(starting);
  const std::string flow_id = str_of(step.body, "flow_id");
  if (!flow_id.empty() && str_of(step.body, "type") != "abort") {
    auto aborting = abort_quietly(env, base, flow_id);  // named: GCC 12 coroutine temporaries
    co_await std::move(aborting);
  }
  json::object out;
  for (const char* k : {"type", "step_id", "data_schema", "menu_options", "reason"})
    if (const json::value* v = step.body.as_object().if_contains(k)) out[k] = *v;
  co_return out;
}

json::object suggested_values(const json::object& form) {
  json::object values;
  std::set<std::string> used;
  if (form.contains("data_schema")) answer_form(json::value(form), json::object{}, used, &values);
  return values;
}

boost::asio::awaitable<json::object> current_options(ToolEnv& env, std::string entry_id) {
  const std::string base = base_of(true);
  auto starting = rest_call(env, "POST", base, json::value(json::object{{"handler", entry_id}}), false);
  RestAnswer step = co_await std::move(starting);
  json::object options;
  if (step.status >= 400 || !step.body.is_object()) co_return options;
  std::set<std::string> used;
  if (str_of(step.body, "type") == "form") answer_form(step.body, json::object{}, used, &options);
  const std::string flow_id = str_of(step.body, "flow_id");
  if (!flow_id.empty()) {
    auto aborting = abort_quietly(env, base, flow_id);  // named: GCC 12 coroutine temporaries
    co_await std::move(aborting);
  }
  co_return options;
}

}  // namespace hamcp::tools::helpers
