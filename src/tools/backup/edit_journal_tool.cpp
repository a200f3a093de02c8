// scope=edits of ha_manage_backup: hamcp's edit journal (every config write,
// with the version before and after it). list (filters: domain = kind,
// entity_id = entity or key, limit; with the journal's retention), view one
// edit, diff (RFC 6902 before -> after), restore the edit's previous version
// through the restore its family has (ha_config_set restore=<edit id>: itself
// journaled), delete one edit or every edit older than older_than_days
// (confirm=true; without it a preview); create keeps a restore point of an
// automation, script or scene.
#include <set>

#include "common/iso_time.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/backup/backup_tools.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/confirmation.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::backup {

namespace {

namespace asio = boost::asio;

// Kinds whose previous version ha_config_set restore=<edit id> puts back.
bool restorable(std::string_view kind) {
  static const std::set<std::string_view> kKinds = {"automation", "script",    "scene",          "helper",   "group",
                                                    "blueprint",  "dashboard", "dashboard_meta", "resource", "theme"};
  return kKinds.count(kind) > 0;
}

json::object with_time(const home::EditRecord& rec, json::object o) {
  o["time"] = common::format_iso_time(rec.time);
  return o;
}

std::string edit_id_of(const Args& args) {
  std::optional<std::string> id = args.opt_str("backup_id");
  if (!id) id = args.opt_str("backup_name");
  if (!id)
    throw ToolException(
        bad_argument("backup_id", "missing: the edit id", "scope=edits action=list shows edit ids (e.g. e00000042)."));
  return *id;
}

home::EditRecord find_edit(ToolEnv& env, const std::string& id) {
  std::optional<home::EditRecord> rec = env.journal.get(id);
  if (!rec)
    throw ToolException(ToolError{"edit_not_found",
                                  "No journaled edit " + id + ".",
                                  "scope=edits action=list shows the edits kept (the oldest go first).",
                                  {}});
  return *rec;
}

json::object retention(ToolEnv& env) {
  const EditJournalOptions& o = env.journal.options();
  return json::object{{"edits_kept", env.journal.size()},
                      {"bytes", env.journal.bytes()},
                      {"max_edits", o.max_entries},
                      {"max_bytes", o.max_bytes},
                      {"stored", o.dir.empty() ? "in memory only (lost on restart)" : o.dir.string()}};
}

mcp::ToolResult list_edits(Args& args, ToolEnv& env) {
  const std::string kind = args.str("domain");
  const std::string entity = args.str("entity_id");
  const auto limit = static_cast<std::size_t>(std::max<std::int64_t>(1, args.integer("limit", 20)));
  json::array edits;
  std::size_t matched = 0;
  for (const home::EditRecord& rec : env.journal.list(kind, {}, env.journal.size())) {
    if (!entity.empty() && rec.entity_id != entity && rec.key != entity) continue;
    if (++matched <= limit) edits.push_back(with_time(rec, rec.summary()));
  }
  json::object body{{"edits", std::move(edits)}, {"total", matched}, {"retention", retention(env)}};
  if (matched > limit) body["has_more"] = true;
  return ok(std::move(body));
}

asio::awaitable<mcp::ToolResult> restore_edit(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const home::EditRecord rec = find_edit(env, edit_id_of(args));
  if (is_registry_restorable(rec.kind)) {
    auto restoring = restore_registry_edit(env, rec, ctx);
    mcp::ToolResult result = co_await std::move(restoring);
    co_return result;
  }
  if (rec.kind == "addon_config") {
    auto restoring = addons::restore_addon_edit(env, rec);
    mcp::ToolResult result = co_await std::move(restoring);
    co_return result;
  }
  if (everyday::is_everyday_restorable(rec.kind)) {
    auto restoring = everyday::restore_everyday_edit(env, rec);
    mcp::ToolResult result = co_await std::move(restoring);
    co_return result;
  }
  if (!restorable(rec.kind))
    throw ToolException(
        ToolError{"not_restorable",
                  "Edit " + rec.id + " is of a " + rec.kind + ", which hamcp cannot restore yet. Nothing was changed.",
                  "action=view shows its `before`; write that back with the " + rec.kind + "'s tool.",
                  {{"written", false}}});
  // ha_config_set restore=<edit id> dispatches on the record's kind to its family's restore.
  json::object restore_args{{"restore", rec.id}};
  Args forwarded(restore_args);
  ToolSpec config_set = make_config_set_spec();
  auto restoring = config_set.run(forwarded, env, ctx);
  mcp::ToolResult result = co_await std::move(restoring);
  co_return result;
}

// action=create: a restore point, the current config of an automation, script
// or scene journaled as a "snapshot" edit (before = after), so restoring that
// edit later writes this version back.
asio::awaitable<mcp::ToolResult> snapshot_config(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  if (!args.has("entity_id"))
    throw ToolException(bad_argument("entity_id", "missing",
                                     "Pass the automation, script or scene to keep a restore point of (hamcp "
                                     "journals every write it makes by itself)."));
  json::object get_args{{"id", args.str("entity_id")}};
  if (const std::string kind = args.str("domain"); kind == "automation" || kind == "script" || kind == "scene")
    get_args["kind"] = kind;
  Args forwarded(get_args);
  ToolSpec config_get = make_config_get_spec();
  auto reading = config_get.run(forwarded, env, ctx);
  mcp::ToolResult got = co_await std::move(reading);
  if (got.is_error || !got.structured_content) co_return got;  // its error names the item and the fix
  const json::object& item = *got.structured_content;
  home::EditRecord rec;
  rec.kind = std::string(item.at("kind").as_string());
  rec.key = std::string(item.at("id").as_string());
  if (const json::value* e = item.if_contains("entity_id"); e && e->is_string()) rec.entity_id = e->get_string();
  rec.action = "snapshot";
  rec.before = item.at("config");
  rec.after = item.at("config");
  const home::EditJournal::Recorded recorded = env.journal.record(std::move(rec));
  json::object body{{"edit_id", recorded.id},
                    {"kind", item.at("kind")},
                    {"id", item.at("id")},
                    {"config_hash", item.at("config_hash")},
                    {"note", "restore point kept: scope=edits action=restore backup_id=" + recorded.id +
                                 " writes this version back"}};
  if (recorded.persist_error) body["journal_warning"] = "kept in memory only: " + *recorded.persist_error;
  co_return ok(std::move(body));
}

asio::awaitable<mcp::ToolResult> delete_edits(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  if (env.read_only())
    throw ToolException(ToolError{"read_only",
                                  "hamcp is in read-only mode: edits are not deleted.",
                                  "Reads (list, view, diff) still work.",
                                  {{"written", false}}});
  std::vector<home::EditRecord> chosen;
  double cutoff = 0;
  if (args.has("backup_id") || args.has("backup_name")) {
    chosen.push_back(find_edit(env, edit_id_of(args)));
  } else if (args.has("older_than_days")) {
    cutoff = common::now_epoch_seconds() - args.number("older_than_days", 0) * 86400;
    for (const home::EditRecord& rec : env.journal.list({}, {}, env.journal.size()))
      if (rec.time < cutoff) chosen.push_back(rec);
  } else {
    throw ToolException(
        bad_argument("backup_id", "missing", "Pass an edit id (backup_id) or older_than_days to delete older edits."));
  }
  json::array ids;
  for (const auto& rec : chosen) ids.emplace_back(rec.id);
  // hamcp's own journal, but the versions it holds are the only way back: asked like any deletion.
  Preview preview{"delete",
                  "journal edits",
                  json::object{{"deletes_edits", ids}},
                  {},
                  json::object{{"deleted", false}, {"would_delete", ids}}};
  auto asking = confirm_or_preview(args, env, ctx, std::move(preview));
  std::optional<mcp::ToolResult> previewed = co_await std::move(asking);
  if (previewed) co_return std::move(*previewed);
  if (cutoff > 0) {
    json::array removed;
    for (const auto& id : env.journal.remove_older_than(cutoff)) removed.emplace_back(id);
    co_return ok(json::object{{"deleted", std::move(removed)}, {"retention", retention(env)}});
  }
  env.journal.remove(chosen.front().id);
  co_return ok(json::object{{"deleted", std::move(ids)}, {"retention", retention(env)}});
}

}  // namespace

asio::awaitable<mcp::ToolResult> run_edits(Args& args, ToolEnv& env, mcp::RequestContext& ctx, std::string action) {
  if (action == "list") co_return list_edits(args, env);
  if (action == "view") {
    const home::EditRecord rec = find_edit(env, edit_id_of(args));
    co_return ok(with_time(rec, rec.full()));
  }
  if (action == "diff") {
    const home::EditRecord rec = find_edit(env, edit_id_of(args));
    std::optional<json::array> ops = env.journal.diff(rec.id);
    co_return ok(json::object{{"edit", with_time(rec, rec.summary())}, {"diff", ops ? *ops : json::array{}}});
  }
  if (action == "restore") {
    auto restoring = restore_edit(args, env, ctx);
    mcp::ToolResult result = co_await std::move(restoring);
    co_return result;
  }
  if (action == "delete") {
    auto deleting = delete_edits(args, env, ctx);
    mcp::ToolResult result = co_await std::move(deleting);
    co_return result;
  }
  if (action == "create") {
    auto snapshotting = snapshot_config(args, env, ctx);
    mcp::ToolResult result = co_await std::move(snapshotting);
    co_return result;
  }
  throw ToolException(bad_argument("action", "scope=edits takes list, view, diff, restore, delete or create",
                                   "create keeps a restore point of an automation, script or scene (entity_id)."));
}

}  // namespace hamcp::tools::backup
