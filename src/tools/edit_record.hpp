#pragma once
// Every config write records what it replaced in the edit journal, and its
// answer names that record: `edit_id` (what ha_config_set restore takes), and
// `journal_warning` when the record could not reach the disk.

#include <utility>

#include "tools/tool_env.hpp"

namespace hamcp::tools {

inline void record_edit(ToolEnv& env, json::object& body, home::EditRecord rec) {
  const home::EditJournal::Recorded recorded = env.journal.record(std::move(rec));
  body["edit_id"] = recorded.id;
  if (recorded.persist_error) body["journal_warning"] = "kept in memory only: " + *recorded.persist_error;
}

}  // namespace hamcp::tools
