// ha_config_set restore=<edit id> for helper and group edits: the version
// before the journaled write is written again, once, through the same path as
// a call would (storage collection, options or config flow, group.set), and
// journaled as a "restore" of its own. A removed helper or group is created
// again; an edit that created one has no earlier version to go back to.
#include "common/json_fields.hpp"
#include "home/config_json.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_write.hpp"

namespace hamcp::tools::helpers {

namespace {

HelperCall call_to_restore(const home::EditRecord& rec) {
  const auto slash = rec.key.find('/');
  HelperCall call;
  call.type = rec.key.substr(0, slash);
  call.id = slash == std::string::npos ? std::string() : rec.key.substr(slash + 1);
  call.journal_action = "restore";
  call.config = rec.before.get_object();
  call.config.erase("id");
  const bool removed = rec.action == "remove";  // (an options update may journal no `after`: HA need not echo it)
  call.action = removed ? "create" : "update";
  if (removed) call.id.clear();
  call.replace = is_storage_type(call.type);  // the stored item as it was, not merged with today's
  if (removed && !is_storage_type(call.type) && call.config.contains("name"))
    call.name = string_or_empty(call.config, "name");  // the config flow asks for the name in its first form
  return call;
}

// The group as it was: group.set with its members, name and icon.
boost::asio::awaitable<json::object> restore_group(ToolEnv& env, const home::EditRecord& rec) {
  const json::object& before = rec.before.get_object();
  const std::string object_id = rec.key;
  json::object data{{"object_id", object_id}};
  for (const char* k : {"name", "icon", "all", "entities"})
    if (const json::value* v = before.if_contains(k); v && !v->is_null()) data[k] = *v;
  ha::SnapshotPtr snap = env.ha.snapshot();
  const json::value now = group_view(*snap, object_id);
  json::object msg{{"type", "call_service"}, {"domain", "group"}, {"service", "set"}, {"service_data", data}};
  auto writing = ws_write(env, std::move(msg), "group.set");
  co_await std::move(writing);
  json::object body{{"entity_id", "group." + object_id}, {"result", now.is_null() ? "recreated" : "restored"}};
  json::object after{{"object_id", object_id}};
  if (before.contains("entities")) after["entities"] = before.at("entities");
  journal(env, body, "group", object_id, "group." + object_id, "restore", now, after);
  if (before.contains("entities")) {
    auto waiting = wait_group(env, object_id, before.at("entities"));
    body["wait"] = co_await std::move(waiting);
  }
  co_return body;
}

}  // namespace

boost::asio::awaitable<json::object> restore_helper_edit(ToolEnv& env, const home::EditRecord& rec) {
  if (!rec.before.is_object())
    throw ToolException(bad_argument("restore",
                                     "edit " + rec.id + " created the " + rec.kind + "; there is no earlier version",
                                     rec.kind == "group" ? "Remove it with ha_config_remove_group instead."
                                                         : "Remove it with ha_config_set_helper action=remove."));
  json::object body;
  if (rec.kind == "group") {
    auto restoring = restore_group(env, rec);
    body = co_await std::move(restoring);
  } else {
    const HelperCall call = call_to_restore(rec);
    if (is_storage_type(call.type)) {
      auto writing = write_storage_helper(env, call);
      body = co_await std::move(writing);
    } else {
      auto writing = write_flow_helper(env, call);
      body = co_await std::move(writing);
    }
    body["result"] = rec.action == "remove" ? "recreated" : "restored";
  }
  body["kind"] = rec.kind;
  body["restored_edit"] = rec.id;
  // Exactly what this restore changed: its own journal record, before -> after.
  if (const json::value* id = body.if_contains("edit_id"); id && id->is_string())
    if (auto written = env.journal.get(id->get_string()))
      body["diff"] = home::short_diff(written->before, written->after);
  co_return body;
}

}  // namespace hamcp::tools::helpers
