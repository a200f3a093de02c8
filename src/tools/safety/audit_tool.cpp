// ha_get_audit_log: newest first, filtered by tool and outcome. Reads hamcp's
// own log, never Home Assistant, so it answers in read-only sessions and with
// Home Assistant down.
#include <algorithm>

#include "tools/safety/safety_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

constexpr std::int64_t kMaxLimit = 200;

boost::asio::awaitable<mcp::ToolResult> run_audit_log(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::int64_t limit = args.integer("limit", 20);
  if (limit < 1 || limit > kMaxLimit)
    throw ToolException(bad_argument("limit", "must be 1.." + std::to_string(kMaxLimit), "e.g. limit: 20"));
  const std::string outcome = args.str("outcome");
  if (!outcome.empty() && outcome != "ok" && outcome != "error" && outcome != "preview" && outcome != "refused")
    throw ToolException(
        bad_argument("outcome", "unknown outcome '" + outcome + "'", "Use ok, error, preview or refused."));
  home::AuditQuery query;
  query.limit = static_cast<std::size_t>(limit);
  query.tool = args.str("tool");
  query.outcome = outcome;
  json::array lines;
  for (json::object& line : env.audit.recent(query)) lines.emplace_back(std::move(line));
  json::object body{{"count", lines.size()}, {"entries", std::move(lines)}, {"kept", env.audit.size()}};
  body["file"] = env.audit.file().empty() ? std::string("(memory only)") : env.audit.file().string();
  if (const auto error = env.audit.last_error()) body["write_error"] = *error;
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_audit_log_spec() {
  ToolSpec s;
  s.name = "ha_get_audit_log";
  s.title = "Audit log";
  s.description =
      "hamcp's record of every call of a tool that can write: time, client, tool, target, outcome "
      "(ok|error|preview|refused), edit_id. Newest first.";
  s.input_schema = R"J({"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":200},
"tool":{"type":"string"},"outcome":{"type":"string"}}})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = read_only();
  s.run = run_audit_log;
  return s;
}

void register_safety_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_audit_log_spec(), env));
}

}  // namespace hamcp::tools
