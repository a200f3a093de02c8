#include "tools/dashboards/dashboard_ws.hpp"

#include "tools/edit_record.hpp"
#include "tools/write_outcome.hpp"

namespace hamcp::tools::dashboards {

boost::asio::awaitable<json::value> ws_call(ToolEnv& env, json::object message, bool write, std::string what) {
  ha::HaError failure;
  try {
    auto sending = env.ha.command(std::move(message));  // named: GCC 12 coroutine temporaries
    json::value result = co_await std::move(sending);
    co_return result;
  } catch (const ha::HaException& e) {
    failure = e.error();
  }
  ToolError err = from_ha_error(failure);
  if (write && outcome_unknown(failure))
    throw ToolException(unknown_outcome(failure, what, "Read it back (ha_get_dashboard) before calling again."));
  if (write) {
    err.message = "Home Assistant refused to " + what + ": " + err.message + " Nothing was written.";
    err.extra["written"] = false;
  }
  throw ToolException(std::move(err));
}

void journal(ToolEnv& env, json::object& body, std::string kind, std::string key, std::string action,
             json::value before, json::value after) {
  home::EditRecord rec;
  rec.kind = std::move(kind);
  rec.key = std::move(key);
  rec.action = std::move(action);
  rec.before = std::move(before);
  rec.after = std::move(after);
  record_edit(env, body, std::move(rec));
}

}  // namespace hamcp::tools::dashboards
