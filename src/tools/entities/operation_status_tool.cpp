// ha_get_operation_status: what became of earlier service calls and bulk runs
// (also serves the 6.x ha_get_bulk_status).
#include "mcp/echo.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

boost::asio::awaitable<mcp::ToolResult> run_status(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  // Only this session's operations: another session's id, or one from before
  // a restart, is as unknown as a made-up one.
  const std::string_view scope = ctx.session_id();
  std::vector<std::string> ids = args.list("operation_id");
  if (ids.empty())
    throw ToolException(bad_argument("operation_id", "missing", "Pass the operation_id a control tool returned."));
  if (ids.size() == 1 && !args.get("operation_id")->is_array()) {
    auto op = env.ops.get(scope, ids.front());
    if (!op)
      throw ToolException(ToolError{"operation_not_found",
                                    "Unknown operation " + mcp::echo_excerpt(ids.front()) +
                                        ": this session started no such operation (ids from other sessions or from "
                                        "before a hamcp restart are not kept; only the last 1000 are).",
                                    "Use an operation_id that ha_call_service or ha_bulk_control returned in this "
                                    "session; call ha_get_state to see the current state instead.",
                                    {}});
    co_return ok(std::move(*op));
  }
  json::array found, missing;
  for (const auto& id : ids) {
    if (auto op = env.ops.get(scope, id))
      found.emplace_back(std::move(*op));
    else
      missing.emplace_back(id);
  }
  json::object body;
  body.emplace("operations", std::move(found));
  if (!missing.empty()) body.emplace("not_found", std::move(missing));
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_operation_status_spec() {
  ToolSpec s;
  s.name = "ha_get_operation_status";
  s.title = "Operation status";
  s.description = "Outcome of earlier ha_call_service / ha_bulk_control calls by operation_id (one or a list).";
  s.input_schema = R"J({"type":"object","properties":{
"operation_id":{"type":"string"}}})J";
  s.output_schema =
      R"J({"type":"object","properties":{"operation_id":{"type":"string"},"status":{"type":"string"},"operations":{"type":"array"}}})J";
  s.annotations = read_only();
  s.aliases = {"ha_get_bulk_status"};
  s.legacy_args = {{"operation_ids", "operation_id"}};
  s.also_accepts = {{"operation_id", R"J({"type":["string","array"],"items":{"type":"string"}})J"}};
  s.run = run_status;
  return s;
}

}  // namespace hamcp::tools
