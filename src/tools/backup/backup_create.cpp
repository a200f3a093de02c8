// action=create of ha_manage_backup scope=snapshot: backup/generate on the
// local agent (or the agents given), then a bounded wait on the backup
// manager's events (backup/subscribe_events), each stage a progress
// notification. The answer names the new backup, or says it is still running
// and how to check. Sent once, never retried.
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/value_from.hpp>
#include <cmath>
#include <exception>
#include <set>
#include <vector>

#include "common/iso_time.hpp"
#include "tools/backup/backup_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::backup {

namespace {

namespace asio = boost::asio;

constexpr double kDefaultWaitSeconds = 600;  // a big database takes minutes
constexpr double kSteps = 5;

// What the manager's events said since the subscription (shared with its handler).
struct CreateWatch {
  std::string stage;                // the newest create stage
  std::vector<std::string> stages;  // every stage seen, in order (progress reports each)
  std::string state;                // in_progress | completed | failed
  std::string reason;               // of a failure
  bool back_idle = false;           // the manager went idle after the create began
  bool began = false;
};

void on_backup_event(CreateWatch& watch, const json::value& event, bool first) {
  const json::object* e = event.if_object();
  if (!e || first) return;  // the first event is the manager's state before the call
  const json::value* manager = e->if_contains("manager_state");
  if (!manager || !manager->is_string()) return;
  if (*manager == "idle") {
    watch.back_idle = watch.began;
    return;
  }
  if (*manager != "create_backup") return;
  watch.began = true;
  if (const json::value* v = e->if_contains("stage"); v && v->is_string()) {
    watch.stage = v->get_string();
    watch.stages.push_back(watch.stage);
  }
  if (const json::value* v = e->if_contains("state"); v && v->is_string()) watch.state = v->get_string();
  if (const json::value* v = e->if_contains("reason"); v && v->is_string()) watch.reason = v->get_string();
}

asio::awaitable<std::vector<std::string>> agents_to_use(Args& args, ToolEnv& env) {
  std::vector<std::string> given = args.list("agent_ids");
  if (!given.empty()) co_return given;
  auto reading = backup_command(env, json::object{{"type", "backup/agents/info"}});
  json::value info = co_await std::move(reading);
  json::object agents;
  if (const json::value* a = info.is_object() ? info.get_object().if_contains("agents") : nullptr)
    if (a->is_array())
      for (const auto& agent : a->get_array())
        if (const json::value* id = agent.is_object() ? agent.get_object().if_contains("agent_id") : nullptr)
          if (id->is_string()) agents[id->get_string()] = nullptr;
  const std::string agent = preferred_agent(agents);
  if (agent.empty())
    throw ToolException(ToolError{"backup_unavailable",
                                  "Home Assistant has no backup agent to store a backup on.",
                                  "Set up a backup location in Settings > System > Backups.",
                                  {}});
  co_return std::vector<std::string>{agent};
}

json::object generate_message(Args& args, const std::vector<std::string>& agents) {
  json::array ids;
  for (const auto& a : agents) ids.emplace_back(a);
  json::object message{{"type", "backup/generate"},
                       {"agent_ids", std::move(ids)},
                       {"include_database", args.flag("include_database", true)}};
  std::optional<std::string> name = args.opt_str("name");
  if (!name) name = args.opt_str("backup_name");
  if (name) message["name"] = *name;
  if (const auto password = args.opt_str("password")) message["password"] = *password;
  return message;
}

// One progress notification per stage not yet reported.
void report_stages(const CreateWatch& watch, std::size_t& reported, mcp::RequestContext& ctx) {
  for (; reported < watch.stages.size(); ++reported)
    ctx.progress(std::min(static_cast<double>(reported) + 1, kSteps - 1), kSteps, "backup: " + watch.stages[reported]);
}

// Waits until the create completed or failed, the manager went idle, or the
// time is up, reporting each stage as it comes.
asio::awaitable<void> wait_for_create(const std::shared_ptr<CreateWatch>& watch, double seconds,
                                      mcp::RequestContext& ctx) {
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  std::size_t reported = 0;
  while (watch->state != "completed" && watch->state != "failed" && !watch->back_idle && !ctx.cancelled() &&
         std::chrono::steady_clock::now() < deadline) {
    report_stages(*watch, reported, ctx);
    timer.expires_after(std::chrono::milliseconds(100));
    co_await timer.async_wait(asio::use_awaitable);
  }
  report_stages(*watch, reported, ctx);
}

asio::awaitable<json::object> new_backup(ToolEnv& env, const std::set<std::string>& before) {
  auto listing = list_backups(env);
  json::array backups = co_await std::move(listing);
  for (const auto& b : backups) {
    const json::value* id = b.as_object().if_contains("backup_id");
    if (id && id->is_string() && !before.count(std::string(id->get_string()))) co_return backup_summary(b.as_object());
  }
  co_return json::object{};
}

}  // namespace

asio::awaitable<mcp::ToolResult> create_backup(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  auto choosing = agents_to_use(args, env);
  const std::vector<std::string> agents = co_await std::move(choosing);
  auto listing = list_backups(env);
  const json::array existing = co_await std::move(listing);
  std::set<std::string> before;
  for (const auto& b : existing) before.emplace(b.at("backup_id").as_string());
  auto watch = std::make_shared<CreateWatch>();
  auto subscribing =
      env.ha.subscribe(json::object{{"type", "backup/subscribe_events"}},
                       [watch](json::value& event, bool first) { on_backup_event(*watch, event, first); });
  const std::uint64_t subscription = co_await std::move(subscribing);
  const double started = common::now_epoch_seconds();
  ctx.progress(0, kSteps, "starting the backup");
  json::value job;
  std::exception_ptr failure;
  try {
    auto generating = backup_command(env, generate_message(args, agents));
    job = co_await std::move(generating);
  } catch (...) {
    failure = std::current_exception();  // rethrown after the unsubscribe (no co_await in a handler)
  }
  if (failure) {
    auto ending = env.ha.unsubscribe(subscription);
    co_await std::move(ending);
    std::rethrow_exception(failure);
  }
  const double seconds = std::max(0.0, args.number("wait_timeout", kDefaultWaitSeconds));
  auto waiting = wait_for_create(watch, seconds, ctx);
  co_await std::move(waiting);
  auto ending = env.ha.unsubscribe(subscription);
  co_await std::move(ending);
  json::object body{{"agents", json::value_from(agents)}, {"started_at", common::format_iso_time(started)}};
  if (const json::value* id = job.is_object() ? job.get_object().if_contains("backup_job_id") : nullptr)
    body["backup_job_id"] = *id;
  if (watch->state == "failed")
    throw ToolException(ToolError{"backup_failed",
                                  "Home Assistant could not create the backup" +
                                      (watch->reason.empty() ? std::string(".") : ": " + watch->reason + "."),
                                  "ha_get_logs source=system shows why; then try again.",
                                  {{"created", false}}});
  if (watch->state != "completed" && !watch->back_idle) {
    body["created"] = "in_progress";
    body["stage"] = watch->stage.empty() ? json::value(nullptr) : json::value(watch->stage);
    body["note"] = "The backup is still being made; ha_manage_backup action=list shows it once it is done.";
    co_return ok(std::move(body));
  }
  ctx.progress(kSteps, kSteps, "backup complete");
  auto finding = new_backup(env, before);
  json::object made = co_await std::move(finding);
  body["created"] = !made.empty();
  body["took_s"] = std::round((common::now_epoch_seconds() - started) * 10) / 10;
  if (!made.empty()) body["backup"] = std::move(made);
  co_return ok(std::move(body));
}

}  // namespace hamcp::tools::backup
