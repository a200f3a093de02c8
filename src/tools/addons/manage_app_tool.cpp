// ha_manage_app (ha-mcp 8.7.0's name; ha_manage_addon before): an add-on's
// lifecycle, its configuration (options, network, boot, auto_update,
// watchdog: journaled, config_hash-guarded) and the store's repositories.
// uninstall, update and remove_repository preview until confirm=true.
#include <algorithm>

#include "home/entity_docs.hpp"
#include "tools/addons/addon_config.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/addons/manage_app_parts.hpp"
#include "tools/addons/supervisor_job.hpp"
#include "tools/confirmation.hpp"
#include "tools/response.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {
namespace {

using addons::supervisor;

constexpr std::string_view kActions =
    "install, uninstall, start, stop, restart, update, rebuild, configure, add_repository, remove_repository, "
    "check_updates, proxy";

bool any_config_arg(const Args& args) {
  for (const char* k : {"options", "network", "boot", "auto_update", "watchdog"})
    if (args.has(k)) return true;
  return false;
}

// ha-mcp's spellings: no action with config arguments = configure.
std::string action_of(const Args& args) {
  std::string action = args.str("action");
  if (action.empty() && any_config_arg(args)) return "configure";
  if (action.empty() && args.has("path")) return "proxy";
  if (action == "api" || action == "http") return "proxy";
  if (action == "config" || action == "options" || action == "set_options" || action == "set") return "configure";
  if (action.empty())
    throw ToolException(bad_argument("action", "is required: one of " + std::string(kActions),
                                     "E.g. action=\"restart\", slug=\"core_mosquitto\"."));
  return action;
}

boost::asio::awaitable<json::object> addon_brief(ToolEnv& env, const std::string& slug) {
  auto reading = supervisor(env, "get", "/addons/" + slug + "/info");
  const json::value info = co_await std::move(reading);
  json::object out;
  if (const json::object* o = info.if_object())
    for (const char* k : {"slug", "name", "state", "version", "version_latest", "update_available", "boot"})
      if (const json::value* v = o->if_contains(k)) out[k] = *v;
  co_return out;
}

// nullopt: go ahead (confirm=true or the user accepted); else the preview to answer.
boost::asio::awaitable<std::optional<mcp::ToolResult>> ask_first(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                                 const std::string& action, const std::string& slug,
                                                                 std::string what) {
  if (args.flag("confirm", false)) co_return std::nullopt;
  auto reading = addon_brief(env, slug);
  json::object addon = co_await std::move(reading);
  json::object fields{{"addon", addon}, {"written", false}};
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{action,
                                           json::string(slug),
                                           json::object{{"would", std::move(what)}, {"addon", addon}},
                                           {},
                                           std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  co_return preview;
}

// An update with backup=true: the Supervisor makes a partial backup of the
// add-on first, its child job backup_manager_partial_backup (reference: the
// backup's slug); no such job is said too. A backup that fails while it is
// written does not stop the update (AddonManager.update goes on when
// do_backup_partial returns no backup): an error of the backup job itself
// means no backup was kept (_do_backup removed the file); one of its child
// jobs only (backup_addon_save) means the backup was kept without the add-on.
json::object backup_made(const addons::JobOutcome& outcome, const std::string& slug) {
  const json::object* job = addons::child_job(outcome.job, "backup_manager_partial_backup");
  if (!job) return json::object{{"made", false}, {"why", "the Supervisor's update job shows no backup"}};
  const std::string backup = home::str_of(job, "reference");
  json::array errors;
  addons::collect_job_errors(*job, errors);
  json::object out{{"slug", backup}, {"made", errors.empty()}};
  if (errors.empty()) return out;
  const std::string why = home::str_of(errors.front().if_object(), "message");
  const bool kept = home::str_of(errors.front().if_object(), "job") != "backup_manager_partial_backup";
  out["kept"] = kept;
  out["warning"] = kept ? "Backup " + backup + " was kept, but " + slug + "'s data could not be written into it (" +
                              why + "), so it cannot bring back the version before. The Supervisor updated " + slug +
                              " all the same."
                        : "The Supervisor could not write backup " + backup + " (" + why + ") and updated " + slug +
                              " without a backup, as it does when that backup fails.";
  out["errors"] = std::move(errors);
  return out;
}

// A job that failed: the Supervisor's own error; a backup the update needed
// first that failed (BackupJobError: the backup manager was busy) says that
// the add-on was not updated.
[[noreturn]] void throw_job_failure(const addons::JobOutcome& outcome, const std::string& job_id,
                                    const std::string& action, const std::string& slug) {
  json::object extra{{"job", addons::job_summary(outcome, job_id)}, {"written", false}};
  const json::value* errors = outcome.job.if_contains("errors");
  const json::object* first =
      errors && errors->is_array() && !errors->get_array().empty() ? errors->get_array().front().if_object() : nullptr;
  if (action == "update" && home::str_of(first, "type") == "BackupJobError")
    throw ToolException(ToolError{"addon_backup_failed",
                                  "The Supervisor could not make the backup it takes before updating " + slug + " (" +
                                      outcome.error + "), so " + slug + " was not updated.",
                                  "Another backup or restore is running: wait for it to finish "
                                  "(ha_manage_backup action=list), then update again, or update with backup=false.",
                                  std::move(extra)});
  throw ToolException(ToolError{"addon_job_failed",
                                "The Supervisor could not " + action + " " + slug + ": " + outcome.error,
                                "ha_get_logs source=supervisor shows why.", std::move(extra)});
}

// install/update through the store with background=true (store.py): the job
// is followed with progress notifications for at most wait_timeout seconds
// (default 600); the answer tells the job's and the add-on's final state.
boost::asio::awaitable<mcp::ToolResult> install_or_update(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                          const std::string& action, const std::string& slug,
                                                          json::object request) {
  const json::value* asked = request.if_contains("backup");
  const bool backup = asked && asked->is_bool() && asked->get_bool();
  request["background"] = true;
  ctx.progress(0, 100.0, action + " " + slug + ": starting");
  auto doing = supervisor(env, "post", "/store/addons/" + slug + "/" + action, std::move(request));
  const json::value started = co_await std::move(doing);
  const std::string job_id = addons::job_id_of(started);
  json::object body{{"action", action}, {"slug", slug}, {"done", true}};
  if (!job_id.empty()) {
    const double seconds = std::max(0.0, args.number("wait_timeout", 600));
    auto waiting = addons::wait_for_job(env, ctx, job_id, seconds, action + " " + slug);
    const addons::JobOutcome outcome = co_await std::move(waiting);
    if (outcome.failed) throw_job_failure(outcome, job_id, action, slug);
    body["done"] = outcome.done;
    body["job"] = addons::job_summary(outcome, job_id);
    if (backup) {
      json::object made = backup_made(outcome, slug);
      if (const json::value* warning = made.if_contains("warning")) body["warning"] = *warning;
      body["backup"] = std::move(made);
    }
    if (!outcome.done)
      body["next"] = "Still running: ha_get_app slug=\"" + slug + "\" shows the add-on's state when it is done.";
  }
  auto reading = addon_brief(env, slug);
  json::object addon = co_await std::move(reading);
  body.emplace("addon", std::move(addon));
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> lifecycle(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                  const std::string& action) {
  const std::string slug = addons::checked_slug(args);
  json::object request;
  std::string would;
  if (action == "update")
    would = args.flag("backup", false) ? "back the add-on up (a partial backup), then update it to version_latest"
                                       : "update the add-on to version_latest";
  if (action == "uninstall") would = "uninstall the add-on (its options and data are removed)";
  if (!would.empty()) {
    auto asking = ask_first(args, env, ctx, action, slug, std::move(would));
    std::optional<mcp::ToolResult> preview = co_await std::move(asking);
    if (preview) co_return std::move(*preview);
  }
  if (action == "update" && args.has("backup")) request.emplace("backup", args.flag("backup", false));
  if (action == "install" || action == "update") {
    auto following = install_or_update(args, env, ctx, action, slug, std::move(request));
    co_return co_await std::move(following);
  }
  auto doing = supervisor(env, "post", "/addons/" + slug + "/" + action, std::move(request));
  co_await std::move(doing);
  json::object body{{"action", action}, {"slug", slug}, {"done", true}};
  if (action != "uninstall") {
    auto reading = addon_brief(env, slug);
    json::object addon = co_await std::move(reading);
    body.emplace("addon", std::move(addon));
  }
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_manage_app(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  for (const char* unsupported : {"websocket", "python_transform", "array_patch"})
    if (args.has(unsupported) && !(args.get(unsupported)->is_bool() && !args.get(unsupported)->get_bool()))
      throw ToolException(bad_argument(unsupported, "is not supported by hamcp",
                                       "Send plain arguments: options, network, boot, auto_update, watchdog."));
  const std::string action = action_of(args);
  if (action == "configure") {
    auto configuring = addons::configure(args, env);
    co_return co_await std::move(configuring);
  }
  if (action == "proxy") {
    auto proxying = addons::proxy(args, env);
    co_return co_await std::move(proxying);
  }
  if (action == "add_repository" || action == "remove_repository") {
    auto step2 = addons::repository_action(args, env, ctx, action);
    co_return co_await std::move(step2);
  }
  if (action == "check_updates") {
    auto reloading = supervisor(env, "post", "/store/reload");
    co_await std::move(reloading);
    json::object body{{"action", action}, {"done", true}, {"next", "ha_get_app shows update_available per add-on."}};
    co_return ok(std::move(body));
  }
  static const std::vector<std::string> lifecycle_actions = {"install", "uninstall", "start",  "stop",
                                                             "restart", "update",    "rebuild"};
  if (std::find(lifecycle_actions.begin(), lifecycle_actions.end(), action) == lifecycle_actions.end())
    throw ToolException(bad_argument("action", "must be one of " + std::string(kActions), "E.g. action=\"restart\"."));
  auto step3 = lifecycle(args, env, ctx, action);
  co_return co_await std::move(step3);
}

}  // namespace

ToolSpec make_manage_app_spec() {
  ToolSpec s;
  s.name = "ha_manage_app";
  s.title = "Manage add-ons";
  s.description =
      "Add-on action: install, uninstall*, start, stop, restart, update* (backup), rebuild, configure (options "
      "merged, \"**REDACTED**\" keeps a secret; network, boot, auto_update, watchdog; config_hash), add_repository, "
      "remove_repository*, check_updates, proxy (path, method, body, port). *confirm=true, else a preview.";
  s.input_schema = R"J({"type":"object","properties":{
"action":{"type":"string"},"slug":{"type":"string"},"options":{"type":"object"},"network":{"type":"object"},
"boot":{"enum":["auto","manual"]},"auto_update":{"type":"boolean"},"watchdog":{"type":"boolean"},
"backup":{"type":"boolean"},"repository":{"type":"string"},"config_hash":{"type":"string"},
"confirm":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"done":{"type":"boolean"},"result":{"type":"string"}}})J";
  s.annotations = writes(true, false);
  s.annotations.open_world_hint = true;
  s.mixed = true;                 // previews and proxy GETs read; the gate refuses the rest in read-only mode
  s.keeps_masked_secrets = true;  // options merged: the mask keeps the current secret
  s.aliases = {"ha_manage_addon"};
  s.task_actions = {"install", "update", "rebuild"};  // Supervisor jobs, followed to the end
  s.hidden_args = {"path",        "ingress",          "method",        "body",
                   "port",        "offset",           "limit",         "debug",
                   "websocket",   "wait_for_close",   "message_limit", "message_offset",
                   "summarize",   "python_transform", "array_patch",   "request_headers",
                   "wait_timeout"};
  s.run = run_manage_app;
  return s;
}

}  // namespace hamcp::tools
