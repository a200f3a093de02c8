// scope=snapshot of ha_manage_backup through the Supervisor's own backup API
// (HA OS / Supervised: supervisor/api/backups.py): list (/backups), view
// (/backups/{slug}/info), create full or partial (addons, folders,
// homeassistant) with background=true and its job followed to the end
// (/jobs/{uuid}: progress notifications), restore full or partial and delete
// behind confirm=true (delete: older_than_days, default 1). Used when the
// call asks for it (via="supervisor", or addons/folders/homeassistant, which
// only the Supervisor backs up) and when HA's backup integration is absent.
// Every answer says via="supervisor". Nothing is retried.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/iso_time.hpp"
#include "home/entity_docs.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/addons/supervisor_job.hpp"
#include "tools/backup/backup_tools.hpp"
#include "tools/confirmation.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::backup {
namespace {

namespace asio = boost::asio;
using addons::supervisor;

constexpr double kDefaultMinAgeDays = 1;
constexpr double kDefaultWaitSeconds = 600;

using home::str_of;

double age_days(const json::object& b) {
  const double date = common::parse_iso_time(str_of(&b, "date")).value_or(0);
  return date > 0 ? (common::now_epoch_seconds() - date) / 86400 : 0;
}

json::object summary(const json::object& b) {
  json::object out{{"backup_id", str_of(&b, "slug")},
                   {"name", str_of(&b, "name")},
                   {"date", str_of(&b, "date")},
                   {"age_days", std::round(age_days(b) * 10) / 10},
                   {"type", str_of(&b, "type")}};
  if (const json::value* size = b.if_contains("size"); size && size->is_number())
    out["size"] = one_decimal(size->to_number<double>()) + " MB";
  for (const char* k : {"protected", "content", "addons", "folders"})
    if (const json::value* v = b.if_contains(k)) out[k] = *v;
  // /backups/{slug}/info: homeassistant is the version backed up, null when not included.
  if (const json::value* v = b.if_contains("homeassistant"); v && !v->is_bool()) {
    out["homeassistant"] = v->is_string();
    if (v->is_string()) out["homeassistant_version"] = *v;
  }
  return out;
}

bool partial_args(const Args& args) { return args.has("addons") || args.has("folders") || args.has("homeassistant"); }

json::array list_arg(const Args& args, const char* key) {
  json::array out;
  for (const auto& s : args.list(key)) out.emplace_back(s);
  return out;
}

json::object content_request(const Args& args) {
  json::object body;
  if (args.has("addons")) body["addons"] = list_arg(args, "addons");
  if (args.has("folders")) body["folders"] = list_arg(args, "folders");
  if (args.has("homeassistant")) body["homeassistant"] = args.flag("homeassistant", false);
  if (const auto password = args.opt_str("password")) body["password"] = *password;
  body["background"] = true;
  return body;
}

std::string backup_slug(const Args& args) {
  if (!args.has("backup_id"))
    throw ToolException(
        bad_argument("backup_id", "missing", "ha_manage_backup action=list via=\"supervisor\" shows the backup ids."));
  return addons::checked_slug(args, "backup_id");
}

asio::awaitable<json::object> backup_info(ToolEnv& env, const std::string& slug) {
  auto reading = supervisor(env, "get", "/backups/" + slug + "/info");
  json::value info = co_await std::move(reading);
  co_return info.is_object() ? info.get_object() : json::object{};
}

asio::awaitable<json::array> backups_newest_first(ToolEnv& env) {
  auto reading = supervisor(env, "get", "/backups");
  json::value data = co_await std::move(reading);
  json::array backups;
  if (const json::value* b = data.is_object() ? data.get_object().if_contains("backups") : nullptr)
    if (b->is_array()) backups = b->get_array();
  std::stable_sort(backups.begin(), backups.end(), [](const json::value& a, const json::value& b) {
    return age_days(a.as_object()) < age_days(b.as_object());
  });
  co_return backups;
}

asio::awaitable<mcp::ToolResult> list(Args& args, ToolEnv& env) {
  auto listing = backups_newest_first(env);
  json::array backups = co_await std::move(listing);
  const auto limit = static_cast<std::size_t>(std::max<std::int64_t>(1, args.integer("limit", 20)));
  json::array items;
  for (const auto& b : backups)
    if (items.size() < limit) items.push_back(summary(b.as_object()));
  json::object body{{"via", "supervisor"}, {"backups", std::move(items)}, {"total", backups.size()}};
  if (backups.size() > limit) body["has_more"] = true;
  co_return ok(std::move(body));
}

asio::awaitable<mcp::ToolResult> create(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  json::object request = content_request(args);
  std::optional<std::string> name = args.opt_str("name");
  if (!name) name = args.opt_str("backup_name");
  if (name) request["name"] = *name;
  const bool partial = partial_args(args);
  ctx.progress(0, 100.0, "backup: starting");
  auto starting = supervisor(env, "post", partial ? "/backups/new/partial" : "/backups/new/full", std::move(request));
  const json::value started = co_await std::move(starting);
  const std::string job_id = addons::job_id_of(started);
  const double seconds = std::max(0.0, args.number("wait_timeout", kDefaultWaitSeconds));
  auto waiting = addons::wait_for_job(env, ctx, job_id, seconds, "backup");
  const addons::JobOutcome outcome = co_await std::move(waiting);
  json::object body{
      {"via", "supervisor"}, {"type", partial ? "partial" : "full"}, {"job", addons::job_summary(outcome, job_id)}};
  if (outcome.failed)
    throw ToolException(ToolError{"backup_failed",
                                  "The Supervisor could not create the backup: " + outcome.error,
                                  "ha_get_logs source=supervisor shows why; then try again.",
                                  {{"created", false}, {"job", body["job"]}}});
  if (!outcome.done) {
    body["created"] = "in_progress";
    body["note"] = "The backup is still being made; action=list via=\"supervisor\" shows it once it is done.";
    co_return ok(std::move(body));
  }
  std::string slug = str_of(&outcome.job, "reference");
  if (slug.empty() && started.is_object()) slug = str_of(started.if_object(), "slug");
  body["created"] = true;
  json::array errors;  // an add-on or folder that could not be written: the backup is kept without it
  addons::collect_job_errors(outcome.job, errors);
  if (!errors.empty()) {
    body["warning"] = "The backup was made, but " + std::to_string(errors.size()) +
                      " of its jobs failed (see errors: an add-on that failed is not in the backup).";
    body["errors"] = std::move(errors);
  }
  if (!slug.empty()) {
    auto reading = backup_info(env, slug);
    json::object info = co_await std::move(reading);
    body["backup"] = summary(info);
  }
  co_return ok(std::move(body));
}

asio::awaitable<mcp::ToolResult> restore(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string slug = backup_slug(args);
  auto reading = backup_info(env, slug);
  const json::object info = co_await std::move(reading);
  const bool partial = partial_args(args);
  json::object body{{"via", "supervisor"}, {"backup", summary(info)}};
  json::object fields = body;
  fields["restored"] = false;
  fields["would_replace"] = partial ? "only the add-ons, folders and/or Home Assistant named"
                                    : "Home Assistant, every add-on and folder in the backup";
  json::object change{{"replaces", fields.at("would_replace")}};
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{"restore", json::string(slug), std::move(change),
                                           "what it replaces loses every change since its date", std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::object request = content_request(args);
  auto starting = supervisor(env, "post", "/backups/" + slug + (partial ? "/restore/partial" : "/restore/full"),
                             std::move(request));
  const json::value started = co_await std::move(starting);
  const std::string job_id = addons::job_id_of(started);
  const double seconds = std::max(0.0, args.number("wait_timeout", kDefaultWaitSeconds));
  auto waiting = addons::wait_for_job(env, ctx, job_id, seconds, "restore");
  const addons::JobOutcome outcome = co_await std::move(waiting);
  if (outcome.failed)
    throw ToolException(ToolError{"restore_failed",
                                  "The Supervisor could not restore the backup: " + outcome.error,
                                  "ha_get_logs source=supervisor shows why.",
                                  {{"restored", false}, {"job", addons::job_summary(outcome, job_id)}}});
  body["restored"] = outcome.done ? json::value(true) : json::value("started");
  body["job"] = addons::job_summary(outcome, job_id);
  if (!outcome.done) body["note"] = "Home Assistant may restart during the restore; hamcp reconnects on its own.";
  co_return ok(std::move(body));
}

// Every backup older than older_than_days but the keep_newest newest: a
// preview of exactly those without confirm, else deleted one by one, each
// outcome reported (one refusal does not stop the rest).
asio::awaitable<mcp::ToolResult> delete_old(Args& args, ToolEnv& env, mcp::RequestContext& ctx, double min_age) {
  auto listing = backups_newest_first(env);
  const json::array backups = co_await std::move(listing);
  json::array chosen;
  for (const json::value& b : select_old(backups, min_age, keep_newest_of(args)))
    chosen.push_back(summary(b.as_object()));
  json::object body{{"via", "supervisor"}, {"older_than_days", min_age}, {"keep_newest", keep_newest_of(args)}};
  auto asking = preview_old_deletes(args, env, ctx, body, chosen);
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::array done;
  for (const json::value& b : chosen) {
    json::object one = b.as_object();
    try {
      auto deleting = supervisor(env, "delete", "/backups/" + str_of(&one, "backup_id"));
      co_await std::move(deleting);
      one["deleted"] = true;
    } catch (const ToolException& e) {
      one["deleted"] = false;
      one["error"] = e.error().message;
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
  if (!args.has("backup_id") && (args.has("older_than_days") || args.has("keep_newest"))) {
    auto deleting = delete_old(args, env, ctx, min_age);
    mcp::ToolResult result = co_await std::move(deleting);
    co_return result;
  }
  const std::string slug = backup_slug(args);
  auto reading = backup_info(env, slug);
  const json::object info = co_await std::move(reading);
  DeleteCheck check{slug, summary(info), {}, age_days(info), min_age};
  check.fields = json::object{{"via", "supervisor"}, {"deleted", false}, {"backup", check.summary}};
  auto checking = check_delete(args, env, ctx, std::move(check));
  std::optional<mcp::ToolResult> previewed = co_await std::move(checking);
  if (previewed) co_return std::move(*previewed);
  auto deleting = supervisor(env, "delete", "/backups/" + slug);
  co_await std::move(deleting);
  co_return ok(json::object{{"via", "supervisor"}, {"deleted", true}, {"backup", summary(info)}});
}

}  // namespace

bool wants_supervisor(const Args& args) { return args.str("via") == "supervisor" || partial_args(args); }

asio::awaitable<mcp::ToolResult> run_supervisor_snapshot(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                         std::string action) {
  mcp::ToolResult result;
  if (action == "list") {
    auto listing = list(args, env);
    result = co_await std::move(listing);
  } else if (action == "create") {
    auto creating = create(args, env, ctx);
    result = co_await std::move(creating);
  } else if (action == "restore") {
    auto restoring = restore(args, env, ctx);
    result = co_await std::move(restoring);
  } else if (action == "delete") {
    auto removing = remove(args, env, ctx);
    result = co_await std::move(removing);
  } else if (action == "view" && args.has("backup_id")) {
    const std::string slug = backup_slug(args);
    auto reading = backup_info(env, slug);
    json::object info = co_await std::move(reading);
    json::object body = summary(info);
    body["via"] = "supervisor";
    body["details"] = std::move(info);
    result = ok(std::move(body));
  } else {
    throw ToolException(bad_argument("action",
                                     "Supervisor backups take list, create, restore, delete or view (backup_id)",
                                     "E.g. action=\"list\" via=\"supervisor\"."));
  }
  co_return result;
}

}  // namespace hamcp::tools::backup
