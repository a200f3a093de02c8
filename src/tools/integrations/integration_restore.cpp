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

boost::asio::awaitable<json::object> restore_integration_edit(ToolEnv& env, const home::EditRecord& rec) {
  const std::string_view key = rec.key;
  const bool options = key.rfind("options/", 0) == 0, reconfigure = key.rfind("reconfigure/", 0) == 0;
  if ((!options && !reconfigure) || !rec.before.is_object())
    throw ToolException(ToolError{"not_restorable",
                                  "Edit " + rec.id +
                                      " removed a config entry or subentry; hamcp cannot create it again "
                                      "from the journal. Nothing was written.",
                                  "Add the integration again with ha_set_integration domain=<domain>; the journal's "
                                  "`before` shows its title and options.",
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
