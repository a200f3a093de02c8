// ha_restart: restart Home Assistant, only with confirm=true and only after a
// passing configuration check (a failing one is the answer, nothing is
// restarted). While HA goes down and comes back the call sends progress
// notifications; hamcp keeps serving and its mirror reconnects on its own.
// The answer says when HA was back and the mirror re-synced.
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "common/iso_time.hpp"
#include "tools/confirmation.hpp"
#include "tools/system/system_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

namespace asio = boost::asio;

constexpr auto kBackTimeout = std::chrono::minutes(5);  // a slow HA with many integrations
constexpr double kSteps = 4;

bool config_valid(const json::object& check) {
  const json::value* result = check.if_contains("result");
  return result && *result == "valid";
}

// Sends homeassistant.restart once. HA may drop the connection before it
// answers: that is the restart starting, not a failure.
asio::awaitable<void> send_restart(ToolEnv& env) {
  ha::ServiceCall call{"homeassistant", "restart", {}, {}, false, std::chrono::milliseconds(30000)};
  try {
    auto calling = env.ha.call_service(std::move(call));
    co_await std::move(calling);
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::connection_lost) throw;
  }
}

struct BackReport {
  bool back = false;
  bool saw_down = false;
  double back_at = 0;
};

// Waits until the WebSocket has reconnected since `connects_before` and the
// mirror is synced again (the mirror marks itself disconnected first, so a
// synced mirror after a new connection is the re-synced one).
asio::awaitable<BackReport> wait_until_back(ToolEnv& env, std::uint64_t connects_before, mcp::RequestContext& ctx) {
  BackReport report;
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  const auto deadline = std::chrono::steady_clock::now() + kBackTimeout;
  while (std::chrono::steady_clock::now() < deadline && !ctx.cancelled()) {
    timer.expires_after(std::chrono::milliseconds(100));
    co_await timer.async_wait(asio::use_awaitable);
    const ha::MirrorStatus status = env.ha.status();
    const bool reconnected = env.ha.ws_connects() > connects_before;
    if (!report.saw_down && (reconnected || status.state != ha::MirrorState::synced)) {
      report.saw_down = true;
      ctx.progress(2, kSteps, "Home Assistant is restarting; waiting for it to come back");
    }
    if (reconnected && status.state == ha::MirrorState::synced) {
      report.back = true;
      report.back_at = common::now_epoch_seconds();
      break;
    }
  }
  co_return report;
}

Preview preview_of(const json::object& check) {
  const bool valid = config_valid(check);
  json::object change{{"restarts", "Home Assistant"}, {"config_check", check}};
  return Preview{"restart", "Home Assistant", std::move(change),
                 valid ? "configuration valid" : "configuration invalid: a restart would be refused",
                 json::object{{"restarted", false}, {"config_check", check}}};
}

asio::awaitable<mcp::ToolResult> run_restart(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  ctx.progress(0, kSteps, "checking the configuration");
  auto checking = system::check_config(env);
  json::object check = co_await std::move(checking);
  // An invalid configuration: nothing to ask the user, confirm=true would meet the config_invalid refusal.
  if (!args.flag("confirm", false) && !config_valid(check)) co_return preview_result(preview_of(check));
  auto asking = confirm_or_preview(args, env, ctx, preview_of(check));
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  if (!config_valid(check)) {
    ToolError error{"config_invalid",
                    "The configuration check failed; Home Assistant was not restarted.",
                    "Fix the errors in config_check, then call ha_restart again.",
                    {}};
    error.extra["config_check"] = std::move(check);
    error.extra["restarted"] = false;
    throw ToolException(std::move(error));
  }
  const std::uint64_t connects_before = env.ha.ws_connects();
  const double asked_at = common::now_epoch_seconds();
  ctx.progress(1, kSteps, "configuration valid; restarting Home Assistant");
  auto restarting = send_restart(env);
  co_await std::move(restarting);
  auto waiting = wait_until_back(env, connects_before, ctx);
  const BackReport back = co_await std::move(waiting);
  json::object body{
      {"restarted", true}, {"config_check", "valid"}, {"requested_at", common::format_iso_time(asked_at)}};
  if (!back.back) {
    body["back"] = false;
    body["note"] =
        "Home Assistant was not back within 5 minutes; hamcp keeps reconnecting (ha_get_overview shows "
        "when it is)";
    co_return ok(std::move(body));
  }
  ctx.progress(3, kSteps, "Home Assistant is back and hamcp's mirror re-synced");
  const ha::MirrorStatus status = env.ha.status();
  body["back"] = true;
  body["back_at"] = common::format_iso_time(back.back_at);
  body["took_s"] = std::round((back.back_at - asked_at) * 10) / 10;
  body["mirror"] =
      json::object{{"state", "synced"}, {"entities", status.entity_count}, {"ha_version", status.ha_version}};
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_restart_spec() {
  ToolSpec s;
  s.name = "ha_restart";
  s.title = "Restart Home Assistant";
  s.description =
      "Restart Home Assistant after a passing config check. Without confirm=true: only the check. Waits until HA "
      "is back (progress notifications).";
  s.input_schema = R"J({"type":"object","properties":{"confirm":{"type":"boolean"}}})J";
  s.output_schema = R"J({"type":"object","properties":{"restarted":{"type":"boolean"},"back":{"type":"boolean"}}})J";
  s.annotations = writes(true, false);
  s.task_actions = {"*"};
  s.run = run_restart;
  return s;
}

}  // namespace hamcp::tools
