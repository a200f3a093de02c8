// ha_get_operation_status: what became of earlier service calls and bulk runs
// (also serves the 6.x ha_get_bulk_status).
#include "tools/entity_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

boost::asio::awaitable<mcp::ToolResult> run_status(Args& args, ToolEnv& env, mcp::RequestContext&) {
  std::vector<std::string> ids = args.list("operation_id");
  if (ids.empty())
    throw ToolException(bad_argument("operation_id", "missing", "Pass the operation_id a control tool returned."));
  if (ids.size() == 1 && !args.get("operation_id")->is_array()) {
    auto op = env.ops.get(ids.front());
    if (!op)
      throw ToolException(ToolError{"operation_not_found",
                                    "No operation " + ids.front() + " (unknown, or older than the last 1000 operations).",
                                    "Use the operation_id returned by ha_call_service or ha_bulk_control.", {}});
    co_return ok(std::move(*op));
  }
  json::array found, missing;
  for (const auto& id : ids) {
    if (auto op = env.ops.get(id)) found.emplace_back(std::move(*op));
    else missing.emplace_back(id);
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
  s.output_schema = R"J({"type":"object","properties":{"operation_id":{"type":"string"},"status":{"type":"string"},"operations":{"type":"array"}}})J";
  s.annotations = read_only();
  s.aliases = {"ha_get_bulk_status"};
  s.legacy_args = {{"operation_ids", "operation_id"}};
  s.also_accepts = {{"operation_id", R"J({"type":["string","array"],"items":{"type":"string"}})J"}};
  s.run = run_status;
  return s;
}

}  // namespace hamcp::tools
