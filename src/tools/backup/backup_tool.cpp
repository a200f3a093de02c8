// ha_manage_backup: one listed tool, ha-mcp's name and arguments, dispatching
// on scope (snapshot: Home Assistant's backups; edits: hamcp's edit journal)
// and action. A mixed tool: list, view and diff are reads and stay usable in
// read-only sessions, where the gate refuses the rest.
#include "tools/backup/backup_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

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
  auto running = backup::run_snapshot(args, env, ctx, action);
  mcp::ToolResult result = co_await std::move(running);
  co_return result;
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
"limit":{"type":"integer"}},"required":["action"]})J";
  s.output_schema = R"J({"type":"object"})J";
  s.annotations = writes(true, false);
  s.mixed = true;
  // Hidden: the backup's password, agents, database, and how long create waits.
  s.hidden_args = {"password", "agent_ids", "include_database", "wait_timeout"};
  s.legacy_args = {{"edit_id", "backup_id"}, {"kind", "domain"}};
  s.run = run_manage_backup;
  return s;
}

void register_backup_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_manage_backup_spec(), std::move(env)));
}

}  // namespace hamcp::tools
