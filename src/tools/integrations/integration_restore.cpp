// ha_config_set restore=<edit id> of an integration edit: options and
// reconfigure edits are undone by running the same flow again with the values
// before (journaled as "restore"); a removed subentry is made again by its
// type's creation flow answered with the values its reconfigure form showed
// before the removal (a new subentry id; HA picks ids). A removed entry cannot
// be made again from its journal entry (its credentials and devices are not
// there), so that answer says how to add it back.
#include "home/entity_docs.hpp"
#include "tools/helpers/flow_driver.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_write.hpp"
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

// A removed subentry ("subentry/<entry>/<subentry>", before: the subentry with
// its "data") created again through its type's flow, its values as the answer.
boost::asio::awaitable<json::object> restore_removed_subentry(ToolEnv& env, const home::EditRecord& rec) {
  const json::object& before = rec.before.as_object();
  const std::string rest = rec.key.substr(rec.key.find('/') + 1);
  const std::string entry_id = rest.substr(0, rest.find('/'));
  const json::value* data = before.if_contains("data");
  if (!data || !data->is_object())
    throw ToolException(
        ToolError{"not_restorable",
                  "Edit " + rec.id +
                      " removed a subentry whose data Home Assistant did not show (no API lists it, its "
                      "reconfigure form suggested none) and hamcp had not written, so hamcp cannot make it again "
                      "with its data. Nothing was written.",
                  "Create it again with ha_config_set_helper helper_type=config_subentry subentry_type=" +
                      home::str_of(&before, "subentry_type") + " (the journal's `before` shows its title).",
                  {{"written", false}}});
  helpers::HelperCall call;
  call.id = entry_id;
  call.subentry_type = home::str_of(&before, "subentry_type");
  call.config = data->as_object();
  if (!call.config.contains("name")) call.name = home::str_of(&before, "title");
  call.action = "create";
  call.journal_action = "restore";
  auto writing = helpers::write_subentry(env, call);
  json::object body = co_await std::move(writing);
  body["result"] = "restored";
  body["restored_edit"] = rec.id;
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
  if (key.rfind("subentry/", 0) == 0 && rec.action == "remove" && rec.before.is_object()) {
    auto restoring = restore_removed_subentry(env, rec);
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
