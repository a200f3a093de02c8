// ha_manage_updates action=install. Without confirm=true: a preview of each
// install (from, to, backup). With it: update.install per entity, one after
// the other, never retried. HA's action returns only when the install is
// done (it can take minutes); hamcp sends it in the background and follows
// the entity in the mirror meanwhile: in_progress / update_percentage become
// progress notifications. The wait is bounded (`wait` seconds, default 300):
// an install still running then is reported as such, not as a failure.
#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "common/json_fields.hpp"
#include "tools/confirmation.hpp"
#include "tools/tool_error.hpp"
#include "tools/updates/updates_tools.hpp"

namespace hamcp::tools::updates {

namespace {

namespace asio = boost::asio;

constexpr auto kCallTimeout = std::chrono::minutes(60);  // an OS update; HA answers when it is done
constexpr auto kPoll = std::chrono::milliseconds(250);

struct CallOutcome {
  bool done = false;
  std::optional<ha::HaError> error;
};

// Owns its arguments: it may outlive the tool call (an install past the wait).
asio::awaitable<void> send_install(HaGate gate, ha::ServiceCall call, std::shared_ptr<CallOutcome> outcome) {
  try {
    auto calling = gate.call_service(std::move(call));
    co_await std::move(calling);
  } catch (const ha::HaException& e) {
    outcome->error = e.error();
  } catch (const std::exception& e) {
    outcome->error = ha::make_error(ha::ErrorCause::internal, "update.install", e.what());
  }
  outcome->done = true;
}

// Why this entity cannot be installed as asked ("" = it can).
std::string refusal(const UpdateView& v, bool version) {
  if (!(v.features & kInstall)) return v.entity_id + " cannot be installed from Home Assistant";
  if (version && !(v.features & kSpecificVersion)) return v.entity_id + " cannot install a chosen version";
  if (v.in_progress) return v.entity_id + " is installing already";
  if (!version && !v.available && !v.skipped) return v.entity_id + " is up to date";
  return {};
}

// backup=true backs up first where the entity can (the Supervisor's: core,
// add-ons); elsewhere HA has no backup step, and the plan says so.
json::object plan_of(const UpdateView& v, bool backup, const std::string& version) {
  const bool can_backup = (v.features & kBackup) != 0;
  json::object plan{{"entity_id", v.entity_id},
                    {"category", v.category},
                    {"from", string_or_empty(v.item, "installed_version")},
                    {"to", version.empty() ? string_or_empty(v.item, "latest_version") : version},
                    {"backup", backup && can_backup}};
  if (backup && !can_backup)
    plan["backup_note"] = "this update has no backup step: none is made (ha_manage_backup first)";
  if (const std::string why = refusal(v, !version.empty()); !why.empty()) plan["refused"] = why;
  return plan;
}

// Batch install: every pending update of these categories; core, OS and
// Supervisor only by entity_ids (HA's "Update all" leaves them out too).
std::vector<UpdateView> category_targets(const ha::Snapshot& snap, const std::vector<std::string>& categories) {
  for (const auto& c : categories)
    if (c == "core" || c == "os" || c == "supervisor")
      throw ToolException(bad_argument("categories", "'" + c + "' is installed only by entity_ids",
                                       "Batch install takes addons, devices, hacs, other; name core/os/supervisor "
                                       "updates in entity_ids."));
  std::vector<UpdateView> out;
  for (UpdateView& v : update_entities(snap))
    if (v.available && !v.in_progress && (v.features & kInstall) &&
        std::find(categories.begin(), categories.end(), v.category) != categories.end())
      out.push_back(std::move(v));
  return out;
}

std::vector<UpdateView> targets_arg(Args& args, const ha::Snapshot& snap, const search::EntityIndex& index) {
  const std::vector<std::string> categories = categories_arg(args);
  const bool by_id = args.has("entity_ids") || args.has("entity_id");
  if (by_id == !categories.empty())
    throw ToolException(bad_argument("entity_ids", "install takes exactly one of entity_ids or categories",
                                     "entity_ids: those updates; categories: every pending one of them."));
  return by_id ? entities_arg(args, snap, index) : category_targets(snap, categories);
}

struct Progress {
  bool in_progress = false;
  json::value percentage;
  std::string installed;
};

Progress read_progress(ToolEnv& env, const std::string& entity_id) {
  Progress p;
  const ha::SnapshotPtr snap = env.ha.snapshot();
  const ha::EntityStatePtr s = snap ? snap->states.find(entity_id) : nullptr;
  if (!s) return p;
  const json::object a = s->attributes.parse();
  const json::value* in = a.if_contains("in_progress");
  p.in_progress = in && in->is_bool() && in->get_bool();
  const json::value* pct = a.if_contains("update_percentage");
  p.percentage = pct ? *pct : json::value(nullptr);
  p.installed = string_or_empty(a, "installed_version");
  return p;
}

// The call's progress over all its installs: entity i of n at p % is
// i * 100 + p of n * 100; only ever increasing, as MCP asks.
struct ProgressScale {
  std::size_t index = 0;
  std::size_t count = 1;
  double reported = -1;
  void report(mcp::RequestContext& ctx, const std::string& entity_id, const json::value& percentage) {
    const double pct = percentage.is_number() ? std::clamp(percentage.to_number<double>(), 0.0, 100.0) : 0;
    const double value = static_cast<double>(index) * 100 + pct;
    if (value <= reported) return;
    reported = value;
    ctx.progress(value, static_cast<double>(count) * 100,
                 entity_id + ": installing" + (percentage.is_number() ? "" : " (no percentage)"));
  }
};

// Follows one install until HA answered and the entity is no longer in progress.
asio::awaitable<json::object> follow(ToolEnv& env, mcp::RequestContext& ctx, const json::object& plan,
                                     std::shared_ptr<CallOutcome> outcome, std::chrono::steady_clock::time_point end,
                                     ProgressScale& scale) {
  const std::string entity_id(plan.at("entity_id").as_string());
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  Progress p;
  while (std::chrono::steady_clock::now() < end && !ctx.cancelled()) {
    timer.expires_after(kPoll);
    co_await timer.async_wait(asio::use_awaitable);
    p = read_progress(env, entity_id);
    if (p.in_progress) scale.report(ctx, entity_id, p.percentage);
    if (outcome->error) break;
    if (outcome->done && !p.in_progress) break;
  }
  json::object result = plan;
  if (outcome->error) {
    ToolError e = from_ha_error(*outcome->error);
    result["error"] = e.message;
  } else if (outcome->done && !p.in_progress) {
    result["installed"] = true;
    result["installed_version"] = p.installed;
  } else {
    result["installed"] = false;
    result["still_installing"] = true;
    result["update_percentage"] = p.percentage;
    result["note"] = "still installing when the wait ended; action=get shows its progress";
  }
  co_return result;
}

asio::awaitable<json::object> install_one(ToolEnv& env, mcp::RequestContext& ctx, json::object plan,
                                          std::string version, std::chrono::steady_clock::time_point end,
                                          ProgressScale& scale) {
  json::object data;
  if (plan.at("backup").as_bool()) data["backup"] = true;
  if (!version.empty()) data["version"] = version;
  ha::ServiceCall call{"update",        "install",
                       std::move(data), {{"entity_id", plan.at("entity_id")}},
                       false,           std::chrono::duration_cast<std::chrono::milliseconds>(kCallTimeout)};
  auto outcome = std::make_shared<CallOutcome>();
  env.ha.check(RequestKind::service, "update.install");  // a read-only session: refused here, before the spawn
  auto executor = co_await asio::this_coro::executor;
  asio::co_spawn(executor, send_install(env.ha, std::move(call), outcome), asio::detached);
  auto following = follow(env, ctx, plan, outcome, end, scale);
  json::object result = co_await std::move(following);
  co_return result;
}

}  // namespace

asio::awaitable<mcp::ToolResult> run_install(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  auto waiting = env.snapshot();
  const ha::SnapshotPtr snap = co_await std::move(waiting);
  const std::vector<UpdateView> views = targets_arg(args, *snap, env.index);
  if (views.empty())
    co_return ok(json::object{{"installed", false}, {"note", "no pending updates in these categories"}});
  const bool backup = args.flag("backup", false);
  const std::string version = args.str("version");
  json::array plans;
  bool refused = false;
  for (const UpdateView& v : views) {
    json::object plan = plan_of(v, backup, version);
    refused = refused || plan.contains("refused");
    plans.push_back(std::move(plan));
  }
  json::array targets;
  for (const json::value& plan : plans) targets.push_back(plan.as_object().at("entity_id"));
  std::string note =
      refused ? "fix the refused entries first; nothing was installed" : "installs these, one after the other";
  Preview asked{"install", std::move(targets), plans, std::move(note), {{"installed", false}}};
  // Refused entries: nothing to ask the user, confirm=true would meet the install_refused error.
  if (refused && !args.flag("confirm", false)) co_return preview_result(std::move(asked));
  auto asking = confirm_or_preview(args, env, ctx, std::move(asked));
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  if (refused) {
    ToolError error{"install_refused",
                    "Some updates cannot be installed as asked; nothing was installed.",
                    "Fix what `refused` says (or drop those entity_ids), then call again.",
                    {}};
    error.extra["plans"] = std::move(plans);
    throw ToolException(std::move(error));
  }
  const auto wait = std::chrono::seconds(std::clamp<std::int64_t>(args.integer("wait", 300), 1, 3600));
  const auto end = std::chrono::steady_clock::now() + wait;
  json::array results;
  ProgressScale scale;
  scale.count = plans.size();
  for (auto& plan : plans) {
    scale.index = results.size();
    auto installing = install_one(env, ctx, std::move(plan.as_object()), version, end, scale);
    json::object result = co_await std::move(installing);
    const bool stop = result.contains("error") || result.contains("still_installing");
    results.push_back(std::move(result));
    if (stop) break;  // one after the other: a failed or unfinished install stops the rest
  }
  const json::object& last = results.back().as_object();
  if (last.contains("error")) {
    ToolError error{"install_failed",
                    "Home Assistant refused or failed to install " + std::string(last.at("entity_id").as_string()) +
                        ": " + std::string(last.at("error").as_string()),
                    "Read the message; action=get shows the entity's state. hamcp never retries an install.",
                    {}};
    error.extra["results"] = std::move(results);
    throw ToolException(std::move(error));
  }
  co_return ok(json::object{{"results", std::move(results)}, {"requested", plans.size()}});
}

}  // namespace hamcp::tools::updates
