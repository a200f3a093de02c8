#pragma once
// One listed tool for the actions on one resource (ha_manage_calendar: get,
// set, remove), where each action used to be a tool of its own. A listed tool
// costs ~70 o200k tokens before its first argument, so three become one; the
// old tools stay callable by name as hidden aliases that fix `action`.
//
// Each action keeps its own input schema (required fields, enums, bounds) and
// is checked against it when it runs: a call misses nothing the old tool
// would have refused. The listed schema is `action` (required, an enum) plus
// the union of the actions' properties (the first action's definition of a
// shared property is the one listed).

#include <string>
#include <vector>

#include "tools/tool_spec.hpp"

namespace hamcp::tools {

struct ToolAction {
  std::string action;  // the value of `action`
  // The old tool: name (kept as a hidden alias fixing action), input_schema,
  // also_accepts, legacy_args, hidden_args and run. Its title, description,
  // annotations and output schema are not used.
  ToolSpec spec;
};

// `merged` gives name, title, description, output schema, annotations and
// mixed; its input schema and run are made here. Throws std::logic_error for
// an action schema that does not compile or a property the actions define
// with different types.
ToolSpec merge_actions(ToolSpec merged, std::vector<ToolAction> actions);

// An old tool reached through another tool's hidden alias (ha_ignore_repair is
// ha_manage_updates action=ignore_repair with domain + issue_id): `args`
// (without `action`) checked against the old tool's own schema, then its run.
// The schema is compiled once, here; the returned run checks and runs.
RunFn old_tool_runner(ToolAction old);

}  // namespace hamcp::tools
