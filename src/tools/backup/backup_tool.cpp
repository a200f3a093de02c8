// ha_manage_backup: one listed tool, ha-mcp's name and arguments, dispatching
// on scope (snapshot: Home Assistant's backups; edits: hamcp's edit journal)
// and action. A mixed tool: list, view and diff are reads and stay usable in
// read-only sessions, where the gate refuses the rest.
#include "tools/backup/backup_tools.hpp"
#include "tools/response.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

// The answer says which backup system it used.
mcp::ToolResult with_via(mcp::ToolResult result, const char* via) {
  if (result.is_error || !result.structured_content) return result;
  json::object body = std::move(*result.structured_content);
  body["via"] = via;
  return ok(std::move(body));
}

// HA's backup integration is absent: the Supervisor's backups, or (no
// Supervisor either) the integration's own "unavailable" error.
boost::asio::awaitable<mcp::ToolResult> supervisor_fallback(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                            std::string action, ToolException unavailable) {
  bool no_supervisor = false;
  mcp::ToolResult result;
  try {
    auto running = backup::run_supervisor_snapshot(args, env, ctx, std::move(action));
    result = co_await std::move(running);
  } catch (const ToolException& e) {
    if (e.error().code != "supervisor_unavailable") throw;
    no_supervisor = true;
  }
  if (no_supervisor) throw unavailable;
  co_return result;
}

boost::asio::awaitable<mcp::ToolResult> run_manage_backup(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string scope = args.str("scope", "snapshot");
  const std::string action = args.str("action", "list");
  if (scope == "edits") {
    auto running = backup::run_edits(args, env, ctx, action);
    mcp::ToolResult result = co_await std::move(running);
    co_return result;
  }
  if (scope != "snapshot")
    throw ToolException(bad_argument("scope", "unknown scope '" + scope + "'",
                                     "snapshot: Home Assistant's backups; edits: hamcp's edit journal."));
  const std::string via = args.str("via");
  if (!via.empty() && via != "supervisor" && via != "integration")
    throw ToolException(bad_argument("via", "must be \"integration\" or \"supervisor\"",
                                     "integration: HA's backup integration (default); supervisor: the Supervisor's "
                                     "own backups on HA OS (partial: addons, folders, homeassistant)."));
  if (backup::wants_supervisor(args)) {
    auto running = backup::run_supervisor_snapshot(args, env, ctx, action);
    mcp::ToolResult result = co_await std::move(running);
    co_return result;
  }
  std::optional<ToolException> unavailable;
  mcp::ToolResult result;
  try {
    auto running = backup::run_snapshot(args, env, ctx, action);
    result = co_await std::move(running);
  } catch (const ToolException& e) {
    if (e.error().code != "backup_unavailable" || via == "integration") throw;
    unavailable = e;  // no backup integration: the Supervisor's backups, when there is one
  }
  if (unavailable) {
    auto falling_back = supervisor_fallback(args, env, ctx, action, *unavailable);
    mcp::ToolResult fallback = co_await std::move(falling_back);
    co_return fallback;
  }
  co_return with_via(std::move(result), "integration");
}

}  // namespace

ToolSpec make_manage_backup_spec() {
  ToolSpec s;
  s.name = "ha_manage_backup";
  s.title = "Backups and edit history";
  s.description =
      "scope=snapshot: Home Assistant backups: list, create (waits, progress), restore/delete (confirm=true; delete "
      "needs older_than_days, default 1). scope=edits: hamcp's journal of config writes: list, view, diff, restore "
      "(backup_id = edit id), delete (confirm), create (restore point of entity_id).";
  s.input_schema = R"J({"type":"object","properties":{
"scope":{"type":"string","enum":["snapshot","edits"]},
"action":{"type":"string","enum":["create","restore","list","view","diff","delete"]},
"name":{"type":"string"},"backup_id":{"type":"string"},"restore_database":{"type":"boolean"},
"confirm":{"type":"boolean"},"domain":{"type":"string","description":"edits: kind, e.g. automation"},
"entity_id":{"type":"string"},"backup_name":{"type":"string"},"older_than_days":{"type":"number"},
"limit":{"type":"integer"},"via":{"enum":["integration","supervisor"],"description":"supervisor: HA OS's own; addons/folders = partial"},
"addons":{"type":"array","items":{"type":"string"}},"folders":{"type":"array","items":{"type":"string"}}},
"required":["action"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.mixed = true;
  s.task_actions = {"create", "restore"};
  // Hidden: the backup's password, agents, database, and how long create waits.
  s.hidden_args = {"password", "agent_ids", "include_database", "wait_timeout", "homeassistant", "keep_newest"};
  s.legacy_args = {{"edit_id", "backup_id"}, {"kind", "domain"}};
  s.run = run_manage_backup;
  return s;
}

void register_backup_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_manage_backup_spec(), std::move(env)));
}

}  // namespace hamcp::tools
