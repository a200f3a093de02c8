// ha_get_automation_traces: an automation's or script's recent runs (trace/list)
// or one run's steps in time order (trace/get), with sections, deduplication
// of repeated steps, and newest/oldest order.
#include <algorithm>

#include "common/json_fields.hpp"
#include "tools/config/config_target.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

using namespace config;

// The automation or script `ref` names (entity id, config id or alias).
Target trace_target(ToolEnv& env, const ha::Snapshot& snap, const std::string& ref) {
  const Kind first = ref.rfind("script.", 0) == 0 ? Kind::script : Kind::automation;
  if (std::optional<Target> t = find_target(snap, first, ref)) return *t;
  if (first == Kind::automation)
    if (std::optional<Target> t = find_target(snap, Kind::script, ref)) return *t;
  throw ToolException(not_found(env, snap, first, ref));
}

json::object run_summary(const json::object& s) {
  json::object out;
  for (const char* key : {"run_id", "state", "script_execution", "last_step", "trigger", "error"})
    if (const json::value* v = s.if_contains(key); v && !v->is_null()) out[key] = *v;
  if (const json::value* ts = s.if_contains("timestamp"); ts && ts->is_object()) {
    if (const json::value* start = ts->get_object().if_contains("start")) out["start"] = *start;
    if (const json::value* finish = ts->get_object().if_contains("finish"); finish && !finish->is_null())
      out["finish"] = *finish;
  }
  return out;
}

std::string start_of(const json::value& run) {
  const json::object* o = run.if_object();
  const json::value* ts = o ? o->if_contains("timestamp") : nullptr;
  return ts && ts->is_object() ? string_or_empty(ts->get_object(), "start") : std::string();
}

// Every step of the trace ({node path: [steps]}) in time order.
std::vector<json::object> ordered_steps(const json::object& trace, bool detailed) {
  std::vector<json::object> steps;
  for (const auto& node : trace) {
    if (!node.value().is_array()) continue;
    for (const json::value& raw : node.value().get_array()) {
      const json::object* st = raw.if_object();
      if (!st) continue;
      json::object step;
      step["path"] = string_or_empty(*st, "path").empty() ? std::string(node.key()) : string_or_empty(*st, "path");
      step["timestamp"] = string_or_empty(*st, "timestamp");
      if (const json::value* e = st->if_contains("error")) step["error"] = *e;
      const json::value* result = st->if_contains("result");
      if (detailed) {
        if (result) step["result"] = *result;
        if (const json::value* vars = st->if_contains("changed_variables")) step["changed_variables"] = *vars;
      } else if (result && result->is_object()) {
        if (const json::value* r = result->get_object().if_contains("result"))
          step["result"] = *r;  // a condition's outcome
      }
      if (const json::value* child = st->if_contains("child_id")) step["child"] = *child;
      steps.push_back(std::move(step));
    }
  }
  std::stable_sort(steps.begin(), steps.end(), [](const json::object& a, const json::object& b) {
    return a.at("timestamp").as_string() < b.at("timestamp").as_string();
  });
  return steps;
}

// Consecutive runs of the same step (a repeat loop) become one with "repeated": n.
std::vector<json::object> deduplicated(std::vector<json::object> steps) {
  std::vector<json::object> out;
  for (auto& s : steps) {
    if (!out.empty()) {
      json::object& last = out.back();
      const bool same = last.at("path") == s.at("path") && last.if_contains("result") == nullptr &&
                        s.if_contains("result") == nullptr && !s.contains("error");
      if (same) {
        const json::value* n = last.if_contains("repeated");
        last["repeated"] = (n ? n->as_int64() : 1) + 1;
        continue;
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool wants(const std::string& sections, std::string_view section) {
  return sections.empty() || sections.find(section) != std::string::npos;
}

boost::asio::awaitable<mcp::ToolResult> one_run(Args& args, ToolEnv& env, const Target& target) {
  json::object msg{
      {"type", "trace/get"}, {"domain", name_of(target.kind)}, {"item_id", target.key}, {"run_id", args.str("run_id")}};
  json::value got;
  try {
    got = co_await env.ha.command(std::move(msg));
  } catch (const ha::HaException& e) {
    if (e.error().ha_code != "not_found") throw;
    throw ToolException(ToolError{
        "trace_not_found",
        "No run " + args.str("run_id") + " of " + target.entity_id + " (Home Assistant keeps the last few runs only).",
        "List the runs without run_id and pick one.",
        {}});
  }
  const json::object& run = got.as_object();
  const std::string sections = args.str("sections");
  json::object body = run_summary(run);
  body["entity_id"] = target.entity_id;
  const json::value* trace = run.if_contains("trace");
  if (wants(sections, "steps") && trace && trace->is_object()) {
    std::vector<json::object> steps = ordered_steps(trace->get_object(), args.flag("detailed", false));
    if (args.flag("deduplicate", true)) steps = deduplicated(std::move(steps));
    PageWriter page(env.options.response_budget);
    for (auto& s : steps)
      if (!page.add(std::move(s))) break;
    body["steps_total"] = steps.size();
    body["steps"] = page.take();
    if (page.budget_cut()) body["truncated"] = true;
  }
  for (const char* section : {"config", "context", "blueprint_inputs"})
    if (sections.find(section) != std::string::npos)
      if (const json::value* v = run.if_contains(section)) body[section] = *v;
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_list(Args& args, ToolEnv& env, const Target& target) {
  json::object msg{{"type", "trace/list"}, {"domain", name_of(target.kind)}, {"item_id", target.key}};
  json::value got = co_await env.ha.command(std::move(msg));
  std::vector<json::value> runs;
  if (got.is_array()) runs.assign(got.get_array().begin(), got.get_array().end());
  const bool oldest = args.str("order") == "oldest";
  std::stable_sort(runs.begin(), runs.end(), [oldest](const json::value& a, const json::value& b) {
    return oldest ? start_of(a) < start_of(b) : start_of(b) < start_of(a);
  });
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", 10), 1, 100));
  PageWriter page(env.options.response_budget);
  for (std::size_t i = offset; i < runs.size() && page.count() < limit; ++i)
    if (!page.add(run_summary(runs[i].as_object()))) break;
  json::object body;
  body["entity_id"] = target.entity_id;
  body["domain"] = name_of(target.kind);
  const std::size_t returned = page.count();
  body["runs"] = page.take();
  put_page_info(body, offset, returned, runs.size(), false);
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_traces(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const Target target = trace_target(env, *snap, args.str("automation_id"));
  if (args.has("run_id")) {
    auto reading = one_run(args, env, target);  // named: GCC 12 coroutine temporaries
    co_return co_await std::move(reading);
  }
  auto listing = run_list(args, env, target);
  co_return co_await std::move(listing);
}

}  // namespace

ToolSpec make_traces_spec() {
  ToolSpec s;
  s.name = "ha_get_automation_traces";
  s.title = "Automation/script traces";
  s.description =
      "Recent runs of an automation or script (automation_id: entity_id, id or alias), newest first; with run_id, "
      "that run's steps in order. sections: steps,config,context.";
  s.input_schema = R"J({"type":"object","properties":{
"automation_id":{"type":"string"},"run_id":{"type":"string"},
"limit":{"type":"integer","minimum":1,"maximum":100},"offset":{"type":"integer","minimum":0},
"order":{"type":"string","enum":["newest","oldest"]},"sections":{"type":"string"},
"detailed":{"type":"boolean"},"deduplicate":{"type":"boolean"}},"required":["automation_id"]})J";
  s.output_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"}}})J";
  s.annotations = read_only();
  s.run = run_traces;
  return s;
}

}  // namespace hamcp::tools
