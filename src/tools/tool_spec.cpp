#include "tools/tool_spec.hpp"

#include <boost/system/system_error.hpp>

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
  return v->is_int64() ? v->get_int64() : v->is_uint64() ? static_cast<std::int64_t>(v->get_uint64())
                                                         : static_cast<std::int64_t>(v->get_double());
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
    return bad_argument(key, "unknown argument for " + tool, "Use only: " + allowed + ".");
  }
  return std::nullopt;
}

}  // namespace

mcp::Tool build_tool(ToolSpec spec, std::shared_ptr<ToolEnv> env) {
  mcp::Tool t;
  t.name = spec.name;
  t.title = spec.title;
  t.description = spec.description;
  t.input_schema = json::parse(spec.input_schema).as_object();
  if (!spec.output_schema.empty()) t.output_schema = json::parse(spec.output_schema).as_object();
  t.annotations = spec.annotations;
  t.aliases = spec.aliases;

  auto prepared = std::make_shared<Prepared>();
  if (const json::value* props = t.input_schema.if_contains("properties"))
    for (const auto& kv : props->as_object()) prepared->known.emplace_back(kv.key());
  prepared->legacy = spec.legacy_args;
  prepared->hidden = spec.hidden_args;

  t.handler = [env, prepared, name = spec.name, run = std::move(spec.run)](
                  json::object arguments, mcp::RequestContext& ctx) -> boost::asio::awaitable<mcp::ToolResult> {
    if (auto bad = normalise(arguments, *prepared, name)) co_return bad->result();
    Args args(arguments);
    std::optional<ToolError> failure;
    try {
      co_return co_await run(args, *env, ctx);
    } catch (const ToolException& e) {
      failure = e.error();
    } catch (const ha::HaException& e) {
      failure = from_ha_error(e.error());
    }
    co_return failure->result();
  };
  return t;
}

}  // namespace hamcp::tools
