// ha_config_set restore=<edit id> of an integration edit: options and
// reconfigure edits are undone by running the same flow again with the values
// before (journaled as "restore"); a removed entry or subentry cannot be made
// again from its journal entry (its credentials and devices are not there), so
// that answer says how to add it back.
#include "home/entity_docs.hpp"
#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/integrations/integration_tools.hpp"

namespace hamcp::tools::integrations {

namespace {

// A subentry reconfigure ("subentry_reconfigure/<entry>/<subentry>") undone by
// the same subentry flow with the values before.
boost::asio::awaitable<json::object> restore_subentry_edit(ToolEnv& env, const home::EditRecord& rec) {
  const std::string rest = rec.key.substr(rec.key.find('/') + 1);
  const std::string entry_id = rest.substr(0, rest.find('/')), subentry_id = rest.substr(rest.find('/') + 1);
  auto listing =
      helpers::ws_read(env, json::object{{"type", "config_entries/subentries/list"}, {"entry_id", entry_id}});
  const json::value listed = co_await std::move(listing);
  helpers::FlowRun run;
  run.handler = entry_id;
  run.subentry_id = subentry_id;
  if (const json::array* a = listed.if_array())
    for (const auto& s : *a)
      if (home::str_of(s.if_object(), "subentry_id") == subentry_id)
        run.subentry_type = home::str_of(s.if_object(), "subentry_type");
  if (run.subentry_type.empty())
    throw ToolException(
        ToolError{"not_restorable",
                  "Subentry " + subentry_id + " of entry " + entry_id + " no longer exists. Nothing was written.",
                  "Create it again with ha_config_set_helper helper_type=config_subentry.",
                  {{"written", false}}});
  run.config = rec.before.as_object();
  auto driving = helpers::drive_flow(env, std::move(run));
  const helpers::FlowOutcome outcome = co_await std::move(driving);
  json::object body{{"entry_id", entry_id},
                    {"subentry_id", subentry_id},
                    {"result", "restored"},
                    {"restored_edit", rec.id},
                    {"steps", outcome.steps}};
  helpers::journal(env, body, "integration", rec.key, "", "restore", json::value(outcome.previous), rec.before);
  co_return body;
}

}  // namespace

boost::asio::awaitable<json::object> restore_integration_edit(ToolEnv& env, const home::EditRecord& rec) {
  const std::string_view key = rec.key;
  if (key.rfind("subentry_reconfigure/", 0) == 0 && rec.before.is_object()) {
    auto restoring = restore_subentry_edit(env, rec);
    json::object body = co_await std::move(restoring);
    co_return body;
  }
  const bool options = key.rfind("options/", 0) == 0, reconfigure = key.rfind("reconfigure/", 0) == 0;
  if ((!options && !reconfigure) || !rec.before.is_object())
    throw ToolException(ToolError{"not_restorable",
                                  "Edit " + rec.id +
                                      " created or removed a config entry or subentry; hamcp cannot undo that "
                                      "from the journal. Nothing was written.",
                                  "Remove what was created (ha_remove_helpers_integrations), or add what was removed "
                                  "again (ha_set_integration domain=<domain>; the journal's `before` shows it).",
                                  {{"written", false}}});
  const std::string entry_id(key.substr(key.find('/') + 1));
  helpers::FlowRun run;
  run.config = rec.before.as_object();
  if (options) {
    run.handler = entry_id;
    run.options_flow = true;
  } else {
    auto listing = list_entries(env);
    const std::vector<json::object> entries = co_await std::move(listing);
    const json::object entry = find_entry(entries, entry_id);
    run.handler = home::str_of(&entry, "domain");
    run.reconfigure_entry_id = entry_id;
  }
  auto driving = helpers::drive_flow(env, std::move(run));
  const helpers::FlowOutcome outcome = co_await std::move(driving);
  json::object body{
      {"entry_id", entry_id}, {"result", "restored"}, {"restored_edit", rec.id}, {"steps", outcome.steps}};
  json::value after = rec.before;
  if (options) {
    auto reading = helpers::current_options(env, entry_id);
    after = co_await std::move(reading);
    body["options"] = after;
  }
  helpers::journal(env, body, "integration", rec.key, "", "restore", json::value(outcome.previous), after);
  co_return body;
}

}  // namespace hamcp::tools::integrations
