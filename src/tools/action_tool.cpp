#include "tools/action_tool.hpp"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <memory>
#include <stdexcept>

#include "common/join.hpp"
#include "mcp/echo.hpp"
#include "mcp/schema_validator.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

struct CompiledAction {
  std::string action;
  std::vector<std::string> known;  // its properties, hidden_args and legacy names
  std::vector<std::pair<std::string, std::string>> legacy;
  mcp::SchemaValidator validator;
  RunFn run;
};

std::string property_type(const json::value& property) {
  const json::value* type = property.is_object() ? property.get_object().if_contains("type") : nullptr;
  return type ? json::serialize(*type) : std::string();
}

// The union of the actions' properties, after `action`.
json::object listed_schema(const std::vector<ToolAction>& actions) {
  json::array names;
  json::object properties;
  for (const ToolAction& a : actions) names.emplace_back(a.action);
  properties["action"] = json::object{{"type", "string"}, {"enum", std::move(names)}};
  for (const ToolAction& a : actions) {
    const json::object schema = json::parse(a.spec.input_schema).as_object();
    const json::value* props = schema.if_contains("properties");
    if (!props || !props->is_object()) continue;
    for (const auto& kv : props->get_object()) {
      if (const json::value* seen = properties.if_contains(kv.key())) {
        if (property_type(*seen) != property_type(kv.value()))
          throw std::logic_error("merge_actions: property " + std::string(kv.key()) + " has two types");
        continue;
      }
      properties[kv.key()] = kv.value();
    }
  }
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", json::array{"action"}}};
}

CompiledAction compile(ToolAction& a) {
  json::object schema = json::parse(a.spec.input_schema).as_object();
  json::object checked = a.spec.also_accepts.empty() ? schema : widen_schema(schema, a.spec.also_accepts);
  std::vector<std::string> known{"action"};
  if (const json::value* props = schema.if_contains("properties"))
    for (const auto& kv : props->as_object()) known.emplace_back(kv.key());
  for (const auto& hidden : a.spec.hidden_args) known.push_back(hidden);
  for (const auto& [old_name, new_name] : a.spec.legacy_args) known.push_back(old_name);
  return CompiledAction{a.action, std::move(known), a.spec.legacy_args, mcp::SchemaValidator(checked),
                        std::move(a.spec.run)};
}

// nullopt = the arguments suit the action; else why not (legacy names renamed first).
std::optional<ToolError> check(const CompiledAction& a, json::object& args) {
  for (const auto& [old_name, new_name] : a.legacy) {
    auto it = args.find(old_name);
    if (it == args.end()) continue;
    json::value moved = std::move(it->value());  // before inserting: operator[] may rehash
    args.erase(old_name);
    if (!args.contains(new_name)) args[new_name] = std::move(moved);
  }
  const std::string takes = "action=" + a.action + " takes: " + join(a.known, ", ") + ".";
  for (const auto& kv : args)
    if (std::find(a.known.begin(), a.known.end(), std::string_view(kv.key())) == a.known.end())
      return bad_argument(mcp::echo_excerpt(kv.key()), "not an argument of action=" + a.action, takes);
  json::object rest = args;
  rest.erase("action");
  const std::vector<std::string> problems = a.validator.validate(json::value(std::move(rest)), "arguments");
  if (problems.empty()) return std::nullopt;
  std::string message = problems.front();
  for (std::size_t i = 1; i < problems.size(); ++i) message += "; " + problems[i];
  return ToolError{"invalid_argument", message + " (action=" + a.action + ")", takes, {}};
}

}  // namespace

RunFn old_tool_runner(ToolAction old) {
  auto compiled = std::make_shared<const CompiledAction>(compile(old));
  return [compiled](Args& args, ToolEnv& env, mcp::RequestContext& ctx) -> boost::asio::awaitable<mcp::ToolResult> {
    if (auto refused = check(*compiled, args.raw())) co_return refused->result();
    auto running = compiled->run(args, env, ctx);  // named: GCC 12 coroutine temporaries
    co_return co_await std::move(running);
  };
}

ToolSpec merge_actions(ToolSpec merged, std::vector<ToolAction> actions) {
  merged.input_schema = json::serialize(listed_schema(actions));
  auto compiled = std::make_shared<std::vector<CompiledAction>>();
  for (ToolAction& a : actions) {
    merged.alias_args.emplace_back(a.spec.name, json::serialize(json::object{{"action", a.action}}));
    for (const auto& alias : a.spec.aliases) merged.alias_args.emplace_back(alias, R"({"action":")" + a.action + "\"}");
    for (const auto& legacy : a.spec.legacy_args)
      if (std::find(merged.hidden_args.begin(), merged.hidden_args.end(), legacy.first) == merged.hidden_args.end())
        merged.hidden_args.push_back(legacy.first);
    for (const auto& widened : a.spec.also_accepts)  // the MCP layer validates the listed union with these
      if (std::none_of(merged.also_accepts.begin(), merged.also_accepts.end(),
                       [&](const auto& w) { return w.first == widened.first; }))
        merged.also_accepts.push_back(widened);
    for (const auto& hidden : a.spec.hidden_args)
      if (std::find(merged.hidden_args.begin(), merged.hidden_args.end(), hidden) == merged.hidden_args.end())
        merged.hidden_args.push_back(hidden);
    try {
      compiled->push_back(compile(a));
    } catch (const std::invalid_argument& e) {
      throw std::logic_error("merge_actions: " + a.spec.name + ": " + e.what());
    }
  }
  merged.run = [compiled](Args& args, ToolEnv& env,
                          mcp::RequestContext& ctx) -> boost::asio::awaitable<mcp::ToolResult> {
    const std::string action = args.str("action");
    auto it =
        std::find_if(compiled->begin(), compiled->end(), [&](const CompiledAction& a) { return a.action == action; });
    // The listed enum refused any other action before the run.
    if (it == compiled->end()) throw ToolException(bad_argument("action", "unknown action", "See the tool's enum."));
    if (auto refused = check(*it, args.raw())) co_return refused->result();
    auto running = it->run(args, env, ctx);  // named: GCC 12 coroutine temporaries
    co_return co_await std::move(running);
  };
  return merged;
}

}  // namespace hamcp::tools
