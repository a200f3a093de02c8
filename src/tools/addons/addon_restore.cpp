// An add-on configuration edit (kind addon_config, made by ha_manage_app
// action=configure) put back from the journal: ha_manage_backup scope=edits
// action=restore. The add-on's configuration must still be the one the edit
// wrote (after_hash; else nothing is written and the answer says so); then
// the journaled `before` (options whole, network, boot, auto_update,
// watchdog) goes back in one POST /addons/<slug>/options, never retried,
// itself journaled as a "restore" edit. Secrets stay masked in the answer.
#include "home/config_json.hpp"
#include "tools/addons/addon_config.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/edit_record.hpp"
#include "tools/response.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::addons {
namespace {

json::array changed_fields(const json::object& from, const json::object& to) {
  json::array out;
  for (const auto& [k, v] : to) {
    const json::value* old = from.if_contains(k);
    if (!old || *old != v) out.emplace_back(k);
  }
  return out;
}

}  // namespace

boost::asio::awaitable<mcp::ToolResult> restore_addon_edit(ToolEnv& env, const home::EditRecord& rec) {
  if (!rec.before.is_object())
    throw ToolException(ToolError{"not_restorable",
                                  "Edit " + rec.id + " has no previous add-on configuration. Nothing was changed.",
                                  "action=view shows the edit.",
                                  {{"written", false}}});
  const std::string slug = rec.key;
  auto reading = supervisor(env, "get", "/addons/" + slug + "/info");
  const json::value info = co_await std::move(reading);
  const json::object now = current_config(info);
  const std::string now_hash = home::config_hash(now);
  if (now_hash != rec.after_hash)
    throw ToolException(ToolError{"config_hash_mismatch",
                                  "Add-on " + slug + "'s configuration changed after edit " + rec.id +
                                      "; restoring it would undo that later change too. Nothing was written.",
                                  "ha_manage_backup scope=edits action=list entity_id=\"" + slug +
                                      "\" shows the later edits; restore the newest one first.",
                                  {{"written", false}, {"config_hash", now_hash}}});
  const json::object& before = rec.before.get_object();
  auto writing = supervisor(env, "post", "/addons/" + slug + "/options", before);
  co_await std::move(writing);
  json::object body{{"action", "restore"},
                    {"slug", slug},
                    {"restored_edit", rec.id},
                    {"written", true},
                    {"changed", changed_fields(now, before)},
                    {"config", masked(before)},
                    {"config_hash", home::config_hash(before)}};
  if (addon_started(info))
    body.emplace("next", "The add-on reads its options at start: restart it (ha_manage_app action=restart).");
  record_addon_config(env, body, slug, "restore", now, before);
  co_return ok(std::move(body));
}

bool addon_started(const json::value& info) {
  const json::value* state = info.is_object() ? info.get_object().if_contains("state") : nullptr;
  return state && state->is_string() && state->get_string() == "started";
}

void record_addon_config(ToolEnv& env, json::object& body, const std::string& slug, std::string action,
                         const json::value& before, const json::value& after) {
  home::EditRecord rec;
  rec.kind = "addon_config";
  rec.key = slug;
  rec.action = std::move(action);
  rec.before = before;
  rec.after = after;
  rec.before_hash = home::config_hash(before);
  rec.after_hash = home::config_hash(after);
  record_edit(env, body, std::move(rec));
}

}  // namespace hamcp::tools::addons
