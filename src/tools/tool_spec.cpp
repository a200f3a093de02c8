#include "tools/tool_spec.hpp"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/system/system_error.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <stdexcept>

#include "ha/scrub.hpp"
#include "mcp/echo.hpp"
#include "mcp/echo_filter.hpp"
#include "mcp/schema_validator.hpp"
#include "tools/gate/audit_line.hpp"
#include "tools/gate/entity_filter.hpp"
#include "tools/gate/redactor.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

std::string Args::str(std::string_view key, std::string_view fallback) const {
  const json::value* v = get(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string(fallback);
}

std::optional<std::string> Args::opt_str(std::string_view key) const {
  const json::value* v = get(key);
  if (v && v->is_string()) return std::string(v->get_string());
  return std::nullopt;
}

std::int64_t Args::integer(std::string_view key, std::int64_t fallback) const {
  const json::value* v = get(key);
  if (!v || !v->is_number()) return fallback;
  if (v->is_int64()) return v->get_int64();
  // 18446744073709551615 or 1e300 used to be cast to int64 (undefined for the
  // double, a wrap for the uint64) and silently served the first page.
  constexpr double kTwoTo63 = 9223372036854775808.0;  // exactly representable; int64 max + 1
  const bool fits = v->is_uint64() ? v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)
                                   : std::isfinite(v->get_double()) && std::trunc(v->get_double()) == v->get_double() &&
                                         v->get_double() >= -kTwoTo63 && v->get_double() < kTwoTo63;
  if (!fits)
    throw ToolException(bad_argument(
        key, "must be a whole number no larger than 9223372036854775807, got " + mcp::echo_excerpt(json::serialize(*v)),
        "Pass a small whole number, e.g. 0 or 50."));
  return v->is_uint64() ? static_cast<std::int64_t>(v->get_uint64()) : static_cast<std::int64_t>(v->get_double());
}

double Args::number(std::string_view key, double fallback) const {
  const json::value* v = get(key);
  return v && v->is_number() ? v->to_number<double>() : fallback;
}

bool Args::flag(std::string_view key, bool fallback) const {
  const json::value* v = get(key);
  return v && v->is_bool() ? v->get_bool() : fallback;
}

std::vector<std::string> Args::list(std::string_view key) const { return string_list(get(key)); }

const json::object* Args::object(std::string_view key) const {
  const json::value* v = get(key);
  return v ? v->if_object() : nullptr;
}

mcp::ToolAnnotations read_only() {
  mcp::ToolAnnotations a;
  a.read_only_hint = true;
  a.destructive_hint = false;
  a.idempotent_hint = true;
  a.open_world_hint = false;  // reads come from hamcp's own mirror of the home
  return a;
}

mcp::ToolAnnotations writes(bool destructive, bool idempotent) {
  mcp::ToolAnnotations a;
  a.read_only_hint = false;
  a.destructive_hint = destructive;
  a.idempotent_hint = idempotent;
  a.open_world_hint = true;  // acts on the physical home through Home Assistant
  return a;
}

namespace {

struct Prepared {
  std::vector<std::string> known;  // advertised property names
  std::vector<std::pair<std::string, std::string>> legacy;
  std::vector<std::string> hidden;
};

// nullopt = fine; else the error for the first unknown argument.
std::optional<ToolError> normalise(json::object& args, const Prepared& p, const std::string& tool) {
  for (const auto& [old_name, new_name] : p.legacy) {
    auto it = args.find(old_name);
    if (it == args.end()) continue;
    // Copy before inserting: operator[] may rehash the object and free what `it` points at.
    json::value moved = std::move(it->value());
    args.erase(old_name);
    if (!args.contains(new_name)) args[new_name] = std::move(moved);
  }
  for (const auto& kv : args) {
    const std::string key(kv.key());
    if (std::find(p.known.begin(), p.known.end(), key) != p.known.end()) continue;
    if (std::find(p.hidden.begin(), p.hidden.end(), key) != p.hidden.end()) continue;
    std::string allowed;
    for (const auto& k : p.known) allowed += (allowed.empty() ? "" : ", ") + k;
    return bad_argument(mcp::echo_excerpt(key), "unknown argument for " + tool, "Use only: " + allowed + ".");
  }
  return std::nullopt;
}

// Applies `scrub` (true when it replaced something) to a result's content and
// structuredContent. The text stands in for structuredContent on the wire
// (text_is_structured): after a replacement it is written afresh from the
// scrubbed object (rare) and scrubbed too; if that still changes it, the
// object is serialised on its own.
template <class Scrub>
mcp::ToolResult scrubbed(mcp::ToolResult result, Scrub scrub) {
  json::value content(std::move(result.content));
  bool replaced = scrub(content);
  result.content = std::move(content.get_array());
  if (result.structured_content) {
    json::value structured(std::move(*result.structured_content));
    replaced = scrub(structured) || replaced;
    result.structured_content = std::move(structured.get_object());
  }
  if (replaced && result.text_is_structured && result.structured_content) {
    json::value text(mcp::content::text(json_text(*result.structured_content)));
    const bool again = scrub(text);
    result.content = json::array{std::move(text)};
    result.text_is_structured = !again;
  }
  return result;
}

// Egress: HA text reaches results by many paths (REST bodies, WebSocket
// events, HA's own logs); none may carry the access token (ha/scrub.hpp), and
// with redaction on, no password, API key or other secret (gate/redactor.hpp).
// With entity visibility rules, no hidden entity (gate/entity_filter.hpp).
// A config_hash in an answer that had hidden entities taken out: the config
// shown is not the stored one, so a write guarded by this hash would drop the
// hidden parts. Tagged, the hash is refused at ingress (filtered_hash_in).
constexpr std::string_view kFilteredHash = "filtered:";

void tag_config_hashes(json::value& v) {
  if (json::object* o = v.if_object()) {
    for (auto& [key, member] : *o) {
      if (key == "config_hash" && member.is_string() && !member.get_string().starts_with(kFilteredHash))
        member = json::string(std::string(kFilteredHash) + std::string(member.get_string()));
      else
        tag_config_hashes(member);
    }
  } else if (json::array* a = v.if_array()) {
    for (auto& item : *a) tag_config_hashes(item);
  }
}

// A patch applies to the stored config (hidden parts kept): its filtered hash
// is taken as the plain one. Anything else guarded by it is refused.
std::optional<ToolError> filtered_hash_in(json::object& arguments) {
  json::value* hash = arguments.if_contains("config_hash");
  if (!hash || !hash->is_string() || !hash->get_string().starts_with(kFilteredHash)) return std::nullopt;
  if (arguments.contains("patch") && !arguments.contains("config")) {
    *hash = json::string(std::string_view(hash->get_string()).substr(kFilteredHash.size()));
    return std::nullopt;
  }
  return bad_argument("config_hash",
                      "comes from an answer with entities hidden from this session taken out: writing that version "
                      "back would remove them from Home Assistant",
                      "Change only what you mean to change (a patch, or the tool's own fields), or edit it in Home "
                      "Assistant.");
}

// A structured result whose only block is the object's text: one search of
// that text answers for the object too (a walk of both cost ~2.7k instructions
// per call, bench/http/THROUGHPUT.md session 12).
bool token_absent(const mcp::ToolResult& result, const ha::Secret& token) {
  if (!result.text_is_structured || !result.structured_content || result.content.size() != 1) return false;
  const json::object* block = result.content.front().if_object();
  const json::value* text = block ? block->if_contains("text") : nullptr;
  return text && text->is_string() && ha::absent_from_json_text(text->get_string(), token);
}

mcp::ToolResult egress(mcp::ToolResult result, ToolEnv& env) {
  if (const HiddenSetPtr hidden = env.ha.hidden_now(); !hidden->empty())
    result = scrubbed(std::move(result), [&](json::value& v) {
      const bool changed = hide_entities(v, *hidden);
      if (changed) tag_config_hashes(v);
      return changed;
    });
  if (const ha::ConnectionSettings* settings = env.ha.settings(); settings && !token_absent(result, settings->token))
    result = scrubbed(std::move(result), [&](json::value& v) { return ha::scrub_json(v, settings->token); });
  if (env.options.redact_secrets)
    result = scrubbed(std::move(result), [&](json::value& v) { return env.redactor.redact(v); });
  return result;
}

// One audit line for a call of a tool that can write, redacted like a result.
void audit(ToolEnv& env, std::string_view tool, json::object target, const mcp::ToolResult& result,
           const mcp::RequestContext& ctx, std::chrono::steady_clock::time_point started) {
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
  json::value line(audit_line(tool, std::move(target), result, ctx, took.count()));
  if (env.options.read_only) line.as_object()["read_only"] = true;  // the whole server (--read-only)
  if (env.options.redact_secrets) env.redactor.redact(line);
  env.audit.record(std::move(line.as_object()));
}

// A debug-level notifications/message per call (sent only to a client that
// chose logging/setLevel debug): which tool answered, how fast, and whether
// with an error. No arguments or results: those may hold secrets.
void log_call(mcp::RequestContext& ctx, std::string_view tool, const mcp::ToolResult& result,
              std::chrono::steady_clock::time_point started) {
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
  json::object data;
  data.reserve(3);  // one block, not one per member: this runs for every call
  data.emplace("tool", tool);
  data.emplace("ms", std::round(took.count() * 10) / 10);
  data.emplace("isError", result.is_error);
  ctx.log(mcp::LogLevel::debug, json::value(std::move(data)), "hamcp.tools");
}

// Ingress: a write carrying the placeholder of a masked secret would store
// "**REDACTED**" in place of the real value.
std::optional<ToolError> masked_secret_in(const json::object& arguments) {
  const std::optional<std::string> path = find_placeholder(json::value(arguments));
  if (!path) return std::nullopt;
  return bad_argument(*path,
                      "holds " + std::string(kRedacted) +
                          ", the mask of a secret from an earlier answer: writing it would replace the real value",
                      "Give the real value, or leave the field out where the tool keeps fields it is not given.");
}

// The output schema with the error member declared, checked against the
// shape ToolError::to_json() produces.
json::object output_schema_with_error(const std::string& tool, std::string_view text) {
  json::object schema = json::parse(text).as_object();
  json::value& props = schema["properties"];
  if (!props.is_object()) props = json::object();
  json::object error_member;
  error_member.emplace("type", "object");
  props.as_object()["error"] = std::move(error_member);
  const json::value sample = ToolError{"code", "message", "suggestion", {}}.to_json();
  if (!mcp::SchemaValidator(schema).is_valid(sample))
    throw std::logic_error("tool " + tool +
                           ": its outputSchema refuses {\"error\":{...}}; error results would "
                           "fail clients that validate structuredContent (drop `required`)");
  return schema;
}

// Invalid-argument answers (made by the MCP layer, echoing values) get the
// hidden entities of every live environment masked (mcp/echo_filter.hpp).
void mask_hidden_in_echoes(const std::shared_ptr<ToolEnv>& env) {
  static std::mutex mutex;
  static std::vector<std::weak_ptr<ToolEnv>> envs;  // guarded by mutex
  const std::lock_guard lock(mutex);
  std::erase_if(envs, [](const std::weak_ptr<ToolEnv>& e) { return e.expired(); });
  for (const auto& e : envs)
    if (!e.owner_before(env) && !env.owner_before(e)) return;
  envs.emplace_back(env);
  mcp::set_echo_filter([](std::string& text) {
    std::vector<std::shared_ptr<ToolEnv>> live;
    {
      const std::lock_guard inner(mutex);
      for (const auto& e : envs)
        if (auto alive = e.lock()) live.push_back(std::move(alive));
    }
    for (const auto& one : live) one->ha.hidden_now()->mask_in(text);
  });
}

}  // namespace

json::object widen_schema(const json::object& input_schema,
                          const std::vector<std::pair<std::string, std::string>>& also_accepts) {
  json::object widened = input_schema;
  for (const auto& [path, overlay] : also_accepts) {
    json::object* node = &widened;
    std::string_view rest = path;
    while (!rest.empty()) {
      const auto dot = rest.find('.');
      std::string_view step = rest.substr(0, dot);
      rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
      const bool into_items = step.size() > 2 && step.substr(step.size() - 2) == "[]";
      if (into_items) step.remove_suffix(2);
      json::value* props = node->if_contains("properties");
      json::value* child = props && props->is_object() ? props->as_object().if_contains(step) : nullptr;
      if (into_items && child && child->is_object()) child = child->as_object().if_contains("items");
      if (!child || !child->is_object()) throw std::logic_error("also_accepts: no property " + path + " in the schema");
      node = &child->as_object();
    }
    const json::value parsed = json::parse(overlay);  // named: a range-for over a temporary's member dangles
    for (const auto& kv : parsed.as_object()) (*node)[kv.key()] = kv.value();
  }
  return widened;
}

mcp::Tool build_tool(ToolSpec spec, std::shared_ptr<ToolEnv> env) {
  mcp::Tool t;
  t.name = spec.name;
  t.title = spec.title;
  t.description = spec.description;
  t.input_schema = json::parse(spec.input_schema).as_object();
  if (!spec.also_accepts.empty()) t.accepted_input_schema = widen_schema(t.input_schema, spec.also_accepts);
  if (!spec.output_schema.empty()) t.output_schema = output_schema_with_error(spec.name, spec.output_schema);
  t.annotations = spec.annotations;
  t.aliases = spec.aliases;
  t.kept_in_read_only = spec.mixed;
  if (!spec.task_actions.empty()) {
    t.task_support = mcp::TaskSupport::optional;
    t.task_for = [actions = spec.task_actions](const json::object& arguments) {
      if (actions.front() == "*") return true;
      const json::value* action = arguments.if_contains("action");
      return action && action->is_string() &&
             std::find(actions.begin(), actions.end(), std::string_view(action->get_string())) != actions.end();
    };
  }
  for (const auto& [alias, fixed] : spec.alias_args) {
    t.aliases.push_back(alias);
    t.alias_args.emplace_back(alias, json::parse(fixed).as_object());
  }

  auto prepared = std::make_shared<Prepared>();
  if (const json::value* props = t.input_schema.if_contains("properties"))
    for (const auto& kv : props->as_object()) prepared->known.emplace_back(kv.key());
  prepared->legacy = spec.legacy_args;
  prepared->hidden = spec.hidden_args;

  mask_hidden_in_echoes(env);
  const bool read_only_tool = t.annotations.read_only_hint.value_or(false);
  const bool refuse_mask = !read_only_tool && !spec.keeps_masked_secrets;
  t.handler = [env, prepared, read_only_tool, refuse_mask, name = spec.name, run = std::move(spec.run)](
                  json::object arguments, mcp::RequestContext& ctx) -> boost::asio::awaitable<mcp::ToolResult> {
    if (auto bad = normalise(arguments, *prepared, name)) co_return bad->result();
    if (refuse_mask && env->options.redact_secrets)
      if (auto masked = masked_secret_in(arguments)) co_return masked->result();
    if (auto filtered = filtered_hash_in(arguments)) co_return filtered->result();
    auto hiding = env->ha.hidden_entities();  // named: GCC 12 coroutine temporaries
    const HiddenSetPtr hidden = co_await std::move(hiding);
    if (!hidden->empty()) {
      const json::value asked(arguments);
      if (auto mention = hidden_named_in(asked, *hidden)) {
        const ToolError refusal = entity_hidden_error(mention->path, "a hidden entity");
        co_return refusal.result();
      }
    }
    const auto started = std::chrono::steady_clock::now();
    json::object target;
    if (!read_only_tool) target = audit_target(arguments);
    Args args(arguments);
    std::optional<ToolError> failure;
    std::optional<mcp::ToolResult> done;
    try {
      // A read-only session's call gets the environment whose gate refuses writes.
      const std::shared_ptr<ToolEnv> call_env = env->for_session(ctx.session());  // held while the call runs
      auto running = run(args, *call_env, ctx);                                   // named: GCC 12 coroutine temporaries
      done = co_await std::move(running);
    } catch (const ToolException& e) {
      failure = e.error();
    } catch (const ha::HaException& e) {
      failure = from_ha_error(e.error());
    }
    if (!done) done = failure->result();
    mcp::ToolResult result = egress(std::move(*done), *env);
    log_call(ctx, name, result, started);
    if (!read_only_tool) {
      audit(*env, name, std::move(target), result, ctx, started);
      env->ha.exposure_may_have_changed();
    }
    co_return result;
  };
  return t;
}

}  // namespace hamcp::tools
