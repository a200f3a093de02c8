// scope=snapshot of ha_manage_backup: Home Assistant's backups through its
// backup integration's WebSocket API (backup/info, backup/details,
// backup/restore, backup/delete). Restore and delete preview what they would
// do until confirm=true; delete refuses backups younger than older_than_days
// (default 1), or with only older_than_days deletes every backup older than
// that. Nothing is retried.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/iso_time.hpp"
#include "home/entity_docs.hpp"
#include "tools/backup/backup_tools.hpp"
#include "tools/confirmation.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::backup {

namespace {

namespace asio = boost::asio;

constexpr double kDefaultMinAgeDays = 1;

using home::str_of;

double date_of(const json::object& backup) { return common::parse_iso_time(str_of(&backup, "date")).value_or(0); }

double age_days(const json::object& backup) {
  const double date = date_of(backup);
  return date > 0 ? (common::now_epoch_seconds() - date) / 86400 : 0;
}

std::string human_size(std::int64_t bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024 && unit < 4) {
    v /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit ? "%.1f %s" : "%.0f %s", v, units[unit]);
  return text;
}

ToolError unavailable() {
  return ToolError{"backup_unavailable",
                   "Home Assistant's backup integration is not loaded, and there is no Supervisor (HA OS) whose "
                   "backups hamcp could use instead.",
                   "Add `backup:` (or `default_config:`) to configuration.yaml and restart Home Assistant.",
                   {}};
}

// backup/details' backup, or a clear error naming the known ids.
asio::awaitable<json::object> find_backup(ToolEnv& env, std::string backup_id) {
  auto listing = list_backups(env);
  json::array backups = co_await std::move(listing);
  std::string known;
  for (const auto& b : backups) {
    const json::object& o = b.as_object();
    if (str_of(&o, "backup_id") == backup_id) co_return o;
    if (known.size() < 400) known += (known.empty() ? "" : ", ") + str_of(&o, "backup_id");
  }
  throw ToolException(bad_argument("backup_id", "no backup " + backup_id,
                                   known.empty() ? "There are no backups." : "Known backup ids: " + known + "."));
}

json::object read_list(const json::array& backups, std::int64_t limit) {
  json::array items;
  for (const auto& b : backups) {
    if (static_cast<std::int64_t>(items.size()) >= limit) break;
    items.push_back(backup_summary(b.as_object()));
  }
  json::object body{{"backups", std::move(items)}, {"total", backups.size()}};
  if (static_cast<std::int64_t>(backups.size()) > limit) body["has_more"] = true;
  return body;
}

asio::awaitable<mcp::ToolResult> restore(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  if (!args.has("backup_id"))
    throw ToolException(bad_argument("backup_id", "missing", "ha_manage_backup action=list shows the backup ids."));
  auto finding = find_backup(env, args.str("backup_id"));
  const json::object backup = co_await std::move(finding);
  const bool database = args.flag("restore_database", true);
  json::object body{{"backup", backup_summary(backup)}};
  json::object fields = body;
  fields["restored"] = false;
  fields["would_replace"] = database ? "Home Assistant's configuration and its history database"
                                     : "Home Assistant's configuration (the history database is kept)";
  json::object change{{"replaces", fields.at("would_replace")}, {"restarts", "Home Assistant"}};
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{"restore", json::string(args.str("backup_id")), std::move(change),
                                           "everything changed since the backup's date is lost", std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  const std::string agent = preferred_agent(backup.at("agents").as_object());
  json::object message{{"type", "backup/restore"},
                       {"backup_id", args.str("backup_id")},
                       {"agent_id", agent},
                       {"restore_database", database},
                       {"restore_homeassistant", true}};
  if (const auto password = args.opt_str("password")) message["password"] = *password;
  try {
    auto restoring = backup_command(env, std::move(message));
    co_await std::move(restoring);
  } catch (const ha::HaException& e) {
    // HA may restart before it answers: that is the restore under way, not a failure.
    if (e.error().cause != ha::ErrorCause::connection_lost) throw;
  }
  body["restored"] = "started";
  body["agent_id"] = agent;
  body["note"] =
      "Home Assistant restores the backup and restarts; hamcp reconnects on its own (ha_get_overview shows when "
      "it is back).";
  co_return ok(std::move(body));
}

asio::awaitable<json::object> delete_one(ToolEnv& env, const json::object& backup) {
  json::object message{{"type", "backup/delete"}, {"backup_id", str_of(&backup, "backup_id")}};
  auto deleting = backup_command(env, std::move(message));
  json::value answer = co_await std::move(deleting);
  json::object out = backup_summary(backup);
  const json::value* errors = answer.is_object() ? answer.get_object().if_contains("agent_errors") : nullptr;
  const bool failed = errors && errors->is_object() && !errors->get_object().empty();
  out["deleted"] = !failed;
  if (failed) out["agent_errors"] = *errors;
  co_return out;
}

// Every backup older than older_than_days but the keep_newest newest (no backup_id).
asio::awaitable<mcp::ToolResult> delete_old(Args& args, ToolEnv& env, mcp::RequestContext& ctx, double min_age) {
  auto listing = list_backups(env);
  const json::array backups = co_await std::move(listing);
  const json::array chosen = select_old(backups, min_age, keep_newest_of(args));
  json::array would;
  for (const auto& b : chosen) would.push_back(backup_summary(b.as_object()));
  json::object body{{"older_than_days", min_age}, {"keep_newest", keep_newest_of(args)}};
  auto asking = preview_old_deletes(args, env, ctx, body, would);
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::array done;
  for (const auto& b : chosen) {
    json::object one;
    try {
      auto deleting = delete_one(env, b.as_object());
      one = co_await std::move(deleting);
    } catch (const ToolException& e) {  // one refusal does not stop the rest
      one = backup_summary(b.as_object());
      one["deleted"] = false;
      one["error"] = e.error().message;
    } catch (const ha::HaException& e) {
      one = backup_summary(b.as_object());
      one["deleted"] = false;
      one["error"] = e.error().explanation();
    }
    done.push_back(std::move(one));
  }
  body["deleted"] = std::move(done);
  co_return ok(std::move(body));
}

asio::awaitable<mcp::ToolResult> remove(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const double min_age = args.number("older_than_days", kDefaultMinAgeDays);
  if (min_age < 0)
    throw ToolException(bad_argument("older_than_days", "must be 0 or more", "0 allows a backup of any age."));
  if (!args.has("backup_id")) {
    if (!args.has("older_than_days") && !args.has("keep_newest"))
      throw ToolException(bad_argument("backup_id", "missing",
                                       "Pass backup_id (action=list shows them), or older_than_days (and "
                                       "keep_newest) to delete every backup older than that."));
    auto deleting = delete_old(args, env, ctx, min_age);
    mcp::ToolResult result = co_await std::move(deleting);
    co_return result;
  }
  auto finding = find_backup(env, args.str("backup_id"));
  const json::object backup = co_await std::move(finding);
  DeleteCheck check{args.str("backup_id"), backup_summary(backup), {}, age_days(backup), min_age};
  check.fields = json::object{{"deleted", false}, {"backup", check.summary}};
  auto checking = check_delete(args, env, ctx, std::move(check));
  std::optional<mcp::ToolResult> previewed = co_await std::move(checking);
  if (previewed) co_return std::move(*previewed);
  auto deleting = delete_one(env, backup);
  json::object body = co_await std::move(deleting);
  co_return ok(json::object{{"deleted", body.at("deleted")}, {"backup", std::move(body)}});
}

}  // namespace

std::string one_decimal(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

asio::awaitable<std::optional<mcp::ToolResult>> check_delete(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                             DeleteCheck check) {
  const bool too_new = check.age < check.min_age;
  if (!args.flag("confirm", false)) {
    Preview preview{"delete", json::string(check.id), json::object{{"deletes_backup", check.summary}}, "for good",
                    std::move(check.fields)};
    if (too_new) {  // nothing to ask the user: confirm=true would meet the backup_too_new refusal (below)
      preview.note = "younger than older_than_days=" + one_decimal(check.min_age) +
                     ": confirm=true would refuse it; pass older_than_days=0 to allow it";
      co_return preview_result(std::move(preview));
    }
    auto asking = confirm_or_preview(args, env, ctx, std::move(preview));
    std::optional<mcp::ToolResult> previewed = co_await std::move(asking);
    if (previewed) co_return previewed;
  }
  if (too_new)
    throw ToolException(ToolError{"backup_too_new",
                                  "Backup " + check.id + " is " + one_decimal(check.age) +
                                      " days old; deleting needs at least " + one_decimal(check.min_age) +
                                      " (older_than_days). Nothing was deleted.",
                                  "To delete it anyway pass older_than_days=0 with confirm=true.",
                                  {{"deleted", false}, {"backup", std::move(check.summary)}}});
  co_return std::nullopt;
}

asio::awaitable<json::value> backup_command(ToolEnv& env, json::object message) {
  try {
    auto sending = env.ha.command(std::move(message), std::chrono::milliseconds(60000));
    json::value answer = co_await std::move(sending);
    co_return answer;
  } catch (const ha::HaException& e) {
    if (e.error().ha_code == "unknown_command") throw ToolException(unavailable());
    if (e.error().ha_code == "backup_not_found")
      throw ToolException(bad_argument("backup_id", "Home Assistant has no such backup", "action=list shows them."));
    if (e.error().ha_code == "password_incorrect")
      throw ToolException(bad_argument("password", "incorrect for this protected backup",
                                       "Pass the backup's password (the one set when it was created)."));
    throw;
  }
}

asio::awaitable<json::array> list_backups(ToolEnv& env) {
  auto reading = backup_command(env, json::object{{"type", "backup/info"}});
  json::value info = co_await std::move(reading);
  json::array backups;
  if (const json::value* b = info.is_object() ? info.get_object().if_contains("backups") : nullptr)
    if (b->is_array()) backups = b->get_array();
  std::stable_sort(backups.begin(), backups.end(), [](const json::value& a, const json::value& b) {
    return date_of(a.as_object()) > date_of(b.as_object());
  });
  co_return backups;
}

json::object backup_summary(const json::object& backup) {
  json::array agents;
  std::int64_t size = 0;
  bool is_protected = false;
  if (const json::value* a = backup.if_contains("agents"); a && a->is_object())
    for (const auto& [id, status] : a->get_object()) {
      agents.emplace_back(id);
      const json::object* s = status.if_object();
      if (const json::value* bytes = s ? s->if_contains("size") : nullptr; bytes && bytes->is_int64())
        size = std::max(size, bytes->get_int64());
      if (const json::value* p = s ? s->if_contains("protected") : nullptr; p && p->is_bool())
        is_protected = is_protected || p->get_bool();
    }
  json::object out{{"backup_id", str_of(&backup, "backup_id")},
                   {"name", str_of(&backup, "name")},
                   {"date", str_of(&backup, "date")},
                   {"age_days", std::round(age_days(backup) * 10) / 10},
                   {"size", human_size(size)},
                   {"size_bytes", size},
                   {"agents", std::move(agents)},
                   {"protected", is_protected}};
  if (const json::value* db = backup.if_contains("database_included")) out["database_included"] = *db;
  if (const json::value* automatic = backup.if_contains("with_automatic_settings"); automatic && automatic->is_bool())
    out["automatic"] = *automatic;
  if (const json::value* v = backup.if_contains("homeassistant_version")) out["homeassistant_version"] = *v;
  return out;
}

std::string preferred_agent(const json::object& agents) {
  std::string first;
  for (const auto& [id, status] : agents) {
    const std::string_view name = id;
    if (name.size() > 6 && name.substr(name.size() - 6) == ".local") return std::string(name);
    if (first.empty()) first = std::string(name);
  }
  return first;
}

asio::awaitable<mcp::ToolResult> run_snapshot(Args& args, ToolEnv& env, mcp::RequestContext& ctx, std::string action) {
  if (action == "list") {
    auto listing = list_backups(env);
    json::array backups = co_await std::move(listing);
    co_return ok(read_list(backups, args.integer("limit", 20)));
  }
  if (action == "create") {
    auto creating = create_backup(args, env, ctx);
    mcp::ToolResult result = co_await std::move(creating);
    co_return result;
  }
  if (action == "restore") {
    auto restoring = restore(args, env, ctx);
    mcp::ToolResult result = co_await std::move(restoring);
    co_return result;
  }
  if (action == "delete") {
    auto removing = remove(args, env, ctx);
    mcp::ToolResult result = co_await std::move(removing);
    co_return result;
  }
  if (action == "view" && args.has("backup_id")) {
    auto finding = find_backup(env, args.str("backup_id"));
    const json::object backup = co_await std::move(finding);
    json::object body = backup_summary(backup);
    body["details"] = backup;
    co_return ok(std::move(body));
  }
  throw ToolException(bad_argument("action", "scope=snapshot takes list, create, restore, delete or view (backup_id)",
                                   "view, diff and the edit journal: scope=edits."));
}

std::int64_t keep_newest_of(const Args& args) {
  const std::int64_t keep = args.integer("keep_newest", 0);
  if (keep < 0)
    throw ToolException(bad_argument("keep_newest", "must be 0 or more", "E.g. keep_newest=3 spares the 3 newest."));
  return keep;
}

json::array select_old(const json::array& newest_first, double min_age, std::int64_t keep_newest) {
  json::array out;
  std::int64_t seen = 0;
  for (const json::value& b : newest_first) {
    if (seen++ < keep_newest) continue;
    const json::object& o = b.as_object();
    const json::value* age = o.if_contains("age_days");
    const double days = age && age->is_number() ? age->to_number<double>() : age_days(o);
    if (days >= min_age) out.push_back(b);
  }
  return out;
}

asio::awaitable<std::optional<mcp::ToolResult>> preview_old_deletes(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                                    const json::object& body,
                                                                    const json::array& would) {
  if (args.flag("confirm", false)) co_return std::nullopt;
  json::object fields = body;
  fields["deleted"] = false;
  fields["would_delete"] = would;
  json::object change{{"deletes_backups", would}};
  const double min_age = body.at("older_than_days").to_number<double>();
  auto asking =
      confirm_or_preview(args, env, ctx,
                         Preview{"delete", json::string("backups older than " + one_decimal(min_age) + " days"),
                                 std::move(change), "for good", std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  co_return preview;
}

}  // namespace hamcp::tools::backup
