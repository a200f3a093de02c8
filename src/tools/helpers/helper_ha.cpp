#include "tools/helpers/helper_ha.hpp"

#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <set>

#include "home/config_sources.hpp"
#include "tools/config/config_write.hpp"
#include "tools/edit_record.hpp"
#include "tools/write_outcome.hpp"

namespace hamcp::tools::helpers {

namespace {

ToolError unknown_outcome(const ha::HaError& e, std::string_view what) {
  return tools::unknown_outcome(e, what, "Check with ha_config_list_helpers before calling again.");
}

}  // namespace

const std::vector<std::string>& storage_types() {
  static const std::vector<std::string> kTypes = {"input_boolean", "input_button", "input_datetime", "input_number",
                                                  "input_select",  "input_text",   "counter",        "timer",
                                                  "schedule",      "zone",         "person",         "tag"};
  return kTypes;
}

bool is_storage_type(std::string_view type) {
  const auto& t = storage_types();
  return std::find(t.begin(), t.end(), type) != t.end();
}

bool is_flow_helper_domain(std::string_view domain) {
  static const std::set<std::string_view> kDomains = {
      "template", "group",  "utility_meter", "derivative", "min_max",     "threshold",     "integration", "statistics",
      "trend",    "filter", "tod",           "random",     "switch_as_x", "history_stats", "counter"};
  return kDomains.count(domain) > 0;
}

boost::asio::awaitable<json::value> ws_read(ToolEnv& env, json::object message) {
  try {
    auto sending = env.ha.command(std::move(message));  // named: GCC 12 coroutine temporaries
    json::value result = co_await std::move(sending);
    co_return result;
  } catch (const ha::HaException& e) {
    throw ToolException(from_ha_error(e.error()));
  }
}

boost::asio::awaitable<json::value> ws_write(ToolEnv& env, json::object message, std::string what) {
  ha::HaError failure;
  try {
    auto sending = env.ha.command(std::move(message));
    json::value result = co_await std::move(sending);
    co_return result;
  } catch (const ha::HaException& e) {
    failure = e.error();
  }
  if (outcome_unknown(failure)) throw ToolException(unknown_outcome(failure, what));
  if (failure.ha_code == "invalid_format" || failure.ha_code == "unknown_error") {
    std::string reason = failure.detail;
    constexpr std::string_view kPrefix = "Message incorrectly formatted: ";
    if (reason.rfind(kPrefix, 0) == 0) reason.erase(0, kPrefix.size());
    const std::string path = config::path_in_message(reason);
    json::object errors{{path.empty() ? std::string("base") : path.substr(1), reason}};
    throw ToolException(field_errors(what, "", errors, "Fix that field of `config` and call again."));
  }
  ToolError err = from_ha_error(failure);
  if (failure.ha_code == "not_found") {
    err.code = "helper_not_found";
    err.suggestion = "List the helpers of this type with ha_config_list_helpers to get the right helper_id.";
  }
  err.message += " Nothing was written.";
  err.extra["written"] = false;
  throw ToolException(std::move(err));
}

boost::asio::awaitable<RestAnswer> rest_call(ToolEnv& env, std::string method, std::string path, json::value body,
                                             bool write) {
  ha::Response r;
  try {
    if (method == "GET") {
      auto getting = env.ha.rest_get(std::move(path));
      r = co_await std::move(getting);
    } else if (method == "POST") {
      auto posting = env.ha.rest_post(std::move(path), std::move(body));
      r = co_await std::move(posting);
    } else {
      auto deleting = env.ha.rest_delete(std::move(path));
      r = co_await std::move(deleting);
    }
  } catch (const ha::HaException& e) {
    if (write && outcome_unknown(e.error())) throw ToolException(unknown_outcome(e.error(), "the request"));
    throw ToolException(from_ha_error(e.error()));
  }
  if (r.status == 401 || r.status >= 500) throw_http_failure(r.status, r.body);
  RestAnswer answer;
  answer.status = r.status;
  boost::system::error_code ec;
  answer.body = json::parse(r.body, ec);
  if (ec) answer.body = json::object{{"message", ha_body_message(r.body)}};
  co_return answer;
}

std::vector<std::string> entities_of_entry(const ha::Snapshot& snap, std::string_view entry_id) {
  return home::entities_of_entry(snap, entry_id);
}

boost::asio::awaitable<json::object> wait_for(ToolEnv& env, std::function<bool(const ha::Snapshot&)> done,
                                              std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor);
  bool finished = false;
  std::uint64_t seen = ~std::uint64_t{0};
  for (int round = 0; round < 10000; ++round) {  // bounded: the deadline ends it long before
    ha::SnapshotPtr snap = env.ha.snapshot();
    if (snap->version != seen) {
      seen = snap->version;
      finished = done(*snap);
      if (finished) break;
    }
    if (Clock::now() - start >= timeout) break;
    timer.expires_after(std::chrono::milliseconds(50));
    co_await timer.async_wait(boost::asio::use_awaitable);
  }
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  co_return json::object{{"done", finished}, {"waited_ms", waited}};
}

void journal(ToolEnv& env, json::object& body, std::string kind, std::string key, std::string entity_id,
             std::string action, json::value before, json::value after) {
  home::EditRecord rec;
  rec.kind = std::move(kind);
  rec.key = std::move(key);
  rec.entity_id = std::move(entity_id);
  rec.action = std::move(action);
  rec.before = std::move(before);
  rec.after = std::move(after);
  record_edit(env, body, std::move(rec));
}

ToolError field_errors(std::string_view what, std::string_view step, const json::object& errors, std::string_view fix) {
  std::string list;
  for (const auto& kv : errors) {
    const std::string message =
        kv.value().is_string() ? std::string(kv.value().get_string()) : json::serialize(kv.value());
    list += (list.empty() ? "" : "; ") + std::string(kv.key()) + ": " + message;
  }
  json::object extra{{"errors", errors}, {"written", false}};
  if (!step.empty()) extra["step_id"] = step;
  std::string where = step.empty() ? std::string() : " at step '" + std::string(step) + "'";
  return ToolError{"invalid_config",
                   "Home Assistant refused " + std::string(what) + where + ": " + list + ". Nothing was written.",
                   std::string(fix), std::move(extra)};
}

}  // namespace hamcp::tools::helpers
