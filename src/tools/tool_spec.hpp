#pragma once
// Declarative tool definitions for the entity family. Each tool file builds a
// ToolSpec (name, description, schemas as JSON text, annotations, aliases,
// legacy argument names) and a run function; build_tool() turns it into an
// mcp::Tool whose handler maps legacy arguments, rejects unknown ones, and
// turns ToolException / HaException into the family's error shape.

#include <boost/asio/awaitable.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mcp/tool.hpp"
#include "tools/tool_env.hpp"

namespace hamcp::tools {

// Typed access to validated arguments (the schema already checked types).
class Args {
 public:
  explicit Args(json::object& o) : o_(o) {}
  const json::value* get(std::string_view key) const { return o_.if_contains(key); }
  bool has(std::string_view key) const { return get(key) && !get(key)->is_null(); }
  std::string str(std::string_view key, std::string_view fallback = {}) const;
  std::optional<std::string> opt_str(std::string_view key) const;
  std::int64_t integer(std::string_view key, std::int64_t fallback) const;
  double number(std::string_view key, double fallback) const;
  bool flag(std::string_view key, bool fallback) const;
  std::vector<std::string> list(std::string_view key) const;  // string or array of strings
  const json::object* object(std::string_view key) const;
  json::object& raw() { return o_; }

 private:
  json::object& o_;
};

using RunFn =
    std::function<boost::asio::awaitable<mcp::ToolResult>(Args& args, ToolEnv& env, mcp::RequestContext& ctx)>;

struct ToolSpec {
  std::string name;
  std::string title;
  std::string description;
  std::string input_schema;   // JSON text
  std::string output_schema;  // JSON text; "" = none
  mcp::ToolAnnotations annotations;
  std::vector<std::string> aliases;  // old (6.x) names: callable, hidden from tools/list
  // Old argument names accepted silently and renamed before the run: {old, new}.
  std::vector<std::pair<std::string, std::string>> legacy_args;
  // Old arguments accepted as they are but not advertised in the schema.
  std::vector<std::string> hidden_args;
  // Shapes accepted beyond the advertised schema, which stays free of type
  // unions (single-type dialects such as Gemini's reject those): {path, JSON
  // object text merged into that property of the validation copy}. Path:
  // "entity_id", or "operations[].entity_id" for a property of array items.
  // E.g. {"entity_id", R"({"type":["string","array"],"items":{"type":"string"}})"}.
  std::vector<std::pair<std::string, std::string>> also_accepts;
  // A write tool with read actions too: listed in read-only sessions, where
  // the gate (ToolEnv::ha) refuses its writes.
  bool mixed = false;
  // A write tool that reads "**REDACTED**" in its arguments as "keep the
  // current secret" (gate/redactor.hpp); other write tools refuse the mask.
  bool keeps_masked_secrets = false;
  // Hidden names that fix some arguments: {alias, JSON object text}, e.g.
  // {"ha_get_zone", R"({"kind":"zone"})"}. Added to the aliases.
  std::vector<std::pair<std::string, std::string>> alias_args;
  // The `action` values that run long (a backup, an install, a restart): a
  // client that supports tasks may run the tool as a task
  // (execution.taskSupport "optional"), and one that lets the server choose
  // (2026-07-28) gets a task for these actions only. {"*"}: every call.
  std::vector<std::string> task_actions;
  RunFn run;
};

// Also declares {"error":{"type":"object"}} in the output schema (every
// failure is {"error":{code,message,...}}) and throws std::logic_error when
// the output schema would refuse that shape (e.g. a `required` member), so no
// error result can break a client that validates structuredContent.
mcp::Tool build_tool(ToolSpec spec, std::shared_ptr<ToolEnv> env);

// The validation copy of `input_schema` with spec-style `also_accepts`
// overlays applied; throws std::logic_error for a path the schema lacks.
json::object widen_schema(const json::object& input_schema,
                          const std::vector<std::pair<std::string, std::string>>& also_accepts);

// Annotation presets.
mcp::ToolAnnotations read_only();
mcp::ToolAnnotations writes(bool destructive, bool idempotent);

}  // namespace hamcp::tools
