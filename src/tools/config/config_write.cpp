#include "tools/config/config_write.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "tools/tool_error.hpp"
#include "tools/write_outcome.hpp"

namespace hamcp::tools::config {

namespace {

ToolError invalid_config(Kind kind, const std::string& path, const std::string& reason) {
  json::object extra;
  extra["path"] = path.empty() ? "/" : path;
  extra["written"] = false;
  return ToolError{"invalid_config",
                   "Home Assistant rejected the " + std::string(name_of(kind)) + " config at " +
                       (path.empty() ? std::string("/") : path) + ": " + reason + " Nothing was written.",
                   "Fix the config at that path and call again (it is checked before anything is saved).",
                   std::move(extra)};
}

// A transport failure after the request may have reached HA: the write may or may not have happened.
// `unknown`: the request may have reached HA and been applied (no answer, or HA failed midway).
ToolError failed_write(Kind kind, const std::string& key, const ha::HaError& e, std::string_view verb, bool unknown) {
  if (unknown)
    return unknown_outcome(e, "the " + std::string(verb) + " of " + std::string(name_of(kind)) + " " + key,
                           "Read it back with ha_config_get before calling again.");
  ToolError err = from_ha_error(e);
  err.message += " Nothing was " + std::string(verb == "delete" ? "removed." : "written.");
  err.extra["written"] = false;
  return err;
}

ha::HaError status_error(const ha::Response& r) {
  ha::HaError e;
  e.cause = r.status == 401   ? ha::ErrorCause::unauthorized
            : r.status == 403 ? ha::ErrorCause::forbidden
            : r.status >= 500 ? ha::ErrorCause::server_error
                              : ha::ErrorCause::bad_request;
  e.http_status = r.status;
  e.detail = ha_body_message(r.body);
  return e;
}

const json::value* either(const json::object& o, const char* plural, const char* singular, std::string& used) {
  if (const json::value* v = o.if_contains(plural)) {
    used = plural;
    return v;
  }
  used = singular;
  return o.if_contains(singular);
}

}  // namespace

std::string path_in_message(std::string_view message) {
  const auto at = message.rfind("@ data");
  if (at == std::string_view::npos) return {};
  std::string_view rest = message.substr(at + 6);
  std::string path;
  while (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) break;
    std::string_view seg = rest.substr(1, close - 1);
    if (seg.size() >= 2 && (seg.front() == '\'' || seg.front() == '"')) seg = seg.substr(1, seg.size() - 2);
    path += '/';
    path += seg;
    rest.remove_prefix(close + 1);
  }
  return path;
}

std::string path_in_config(Kind kind, std::string_view message) {
  std::string path = path_in_message(message);
  constexpr std::string_view kSceneWrapper = "/states/0";
  if (kind == Kind::scene && path.rfind(kSceneWrapper, 0) == 0) path.erase(0, kSceneWrapper.size());
  return path;
}

boost::asio::awaitable<void> validate_with_ha(ToolEnv& env, Kind kind, const json::object& config) {
  json::object msg;
  msg["type"] = "validate_config";
  json::object sent_as;  // validate_config key -> the config's own key
  std::string used;
  if (kind == Kind::automation) {
    for (auto [plural, singular] :
         {std::pair{"triggers", "trigger"}, std::pair{"conditions", "condition"}, std::pair{"actions", "action"}})
      if (const json::value* v = either(config, plural, singular, used)) {
        msg[plural] = *v;
        sent_as[plural] = used;
      }
  } else if (kind == Kind::script) {
    if (const json::value* v = config.if_contains("sequence")) {
      msg["actions"] = *v;
      sent_as["actions"] = "sequence";
    }
  }
  if (sent_as.empty()) co_return;
  json::value result;
  try {
    result = co_await env.ha.command(std::move(msg));
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::command_failed) throw;
    co_return;  // an HA without validate_config: the config editor's own check below still runs
  }
  const json::object* answers = result.if_object();
  if (!answers) co_return;
  for (const auto& kv : sent_as) {
    const json::value* a = answers->if_contains(kv.key());
    const json::object* ao = a ? a->if_object() : nullptr;
    const json::value* valid = ao ? ao->if_contains("valid") : nullptr;
    if (!valid || !valid->is_bool() || valid->get_bool()) continue;
    const json::value* error = ao->if_contains("error");
    const std::string reason = error && error->is_string() ? std::string(error->get_string()) : "invalid";
    throw ToolException(
        invalid_config(kind, "/" + std::string(kv.value().get_string()) + path_in_message(reason), reason));
  }
}

boost::asio::awaitable<void> write_config(ToolEnv& env, Kind kind, const std::string& key, const json::object& config) {
  ha::Response r;
  try {
    std::string path = config_path(kind, key);
    json::value body(config);
    auto posting = env.ha.rest_post(std::move(path), std::move(body));  // named: GCC 12 coroutine temporaries
    r = co_await std::move(posting);
  } catch (const ha::HaException& e) {
    throw ToolException(failed_write(kind, key, e.error(), "write", outcome_unknown(e.error())));
  }
  if (r.ok()) co_return;
  if (r.status == 400) {
    std::string reason = ha_body_message(r.body);
    for (std::string_view prefix : {"Message malformed: ", "Key malformed: "})
      if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
    throw ToolException(invalid_config(kind, path_in_config(kind, reason), reason));
  }
  // 5xx: HA failed while handling it (e.g. its validator crashed); whether it saved cannot be told from here.
  throw ToolException(failed_write(kind, key, status_error(r), "write", r.status >= 500));
}

boost::asio::awaitable<void> delete_config(ToolEnv& env, Kind kind, const std::string& key) {
  ha::Response r;
  try {
    std::string path = config_path(kind, key);
    auto deleting = env.ha.rest_delete(std::move(path));
    r = co_await std::move(deleting);
  } catch (const ha::HaException& e) {
    throw ToolException(failed_write(kind, key, e.error(), "delete", outcome_unknown(e.error())));
  }
  if (r.ok()) co_return;
  if (r.status == 400 || r.status == 404)
    throw ToolException(ToolError{"config_not_found",
                                  "Home Assistant has no " + std::string(name_of(kind)) + " config " + key + " (" +
                                      ha_body_message(r.body) + "). Nothing was removed.",
                                  "It may be defined in YAML outside the UI editor, or already removed.",
                                  {{"written", false}}});
  throw ToolException(failed_write(kind, key, status_error(r), "delete", r.status >= 500));
}

json::object WaitReport::to_json(bool present) const {
  json::object o;
  o[present ? "appeared" : "removed"] = done;
  if (!entity_id.empty()) o["entity_id"] = entity_id;
  o["waited_ms"] = waited_ms;
  return o;
}

boost::asio::awaitable<WaitReport> wait_for_entity(ToolEnv& env, Kind kind, std::string key, bool present,
                                                   std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto deadline = start + timeout;
  boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor);
  WaitReport report;
  std::uint64_t seen_version = ~std::uint64_t{0};
  for (int round = 0; round < 10000; ++round) {  // bounded: the deadline ends it long before
    ha::SnapshotPtr snap = env.ha.snapshot();
    if (snap->version != seen_version) {
      seen_version = snap->version;
      const std::string eid = entity_of(*snap, kind, key);
      if (!eid.empty()) report.entity_id = eid;
      if (eid.empty() != present) {
        report.done = true;
        break;
      }
    }
    if (Clock::now() >= deadline) break;
    timer.expires_after(std::chrono::milliseconds(50));
    co_await timer.async_wait(boost::asio::use_awaitable);
  }
  report.waited_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  co_return report;
}

}  // namespace hamcp::tools::config
