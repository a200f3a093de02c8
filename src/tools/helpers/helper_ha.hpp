#pragma once
// What the helper tools share: which helper types are storage collections,
// Home Assistant calls with the family's failure rules (a refused write names
// HA's field and says nothing was written; no answer says "unknown", hamcp
// never retries), the entities of a config entry, a bounded wait on the
// mirror and the journal entry of a write.

#include <boost/asio/awaitable.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::helpers {

// input_boolean, ..., counter, timer, schedule, zone, person, tag.
const std::vector<std::string>& storage_types();
bool is_storage_type(std::string_view type);
// template, group, utility_meter, derivative, min_max, threshold, ...: the
// integrations whose config entries are helpers.
bool is_flow_helper_domain(std::string_view domain);

// A read (WebSocket); HA's refusal becomes from_ha_error.
boost::asio::awaitable<json::value> ws_read(ToolEnv& env, json::object message);
// A write (WebSocket), sent once. HA's refusal: invalid_format -> "invalid_config"
// naming the field; not_found -> "helper_not_found"; both written:false.
boost::asio::awaitable<json::value> ws_write(ToolEnv& env, json::object message, std::string what);

struct RestAnswer {
  int status = 0;
  json::value body;  // parsed JSON (null when the body is not JSON)
};
// One REST call ("GET", "POST", "DELETE"), sent once; a transport failure of a
// write throws "write_outcome_unknown".
boost::asio::awaitable<RestAnswer> rest_call(ToolEnv& env, std::string method, std::string path, json::value body,
                                             bool write);

// Entity ids whose registry entry belongs to config entry `entry_id`.
std::vector<std::string> entities_of_entry(const ha::Snapshot& snap, std::string_view entry_id);

// Polls the mirror until done(snapshot) or `timeout`: {"done": bool, "waited_ms": n}.
boost::asio::awaitable<json::object> wait_for(ToolEnv& env, std::function<bool(const ha::Snapshot&)> done,
                                              std::chrono::milliseconds timeout);

// Records the write in the edit journal; adds edit_id (and a journal warning) to `body`.
void journal(ToolEnv& env, json::object& body, std::string kind, std::string key, std::string entity_id,
             std::string action, json::value before, json::value after);

// "invalid_config" naming HA's field errors ({field | "base": message}) and the step.
ToolError field_errors(std::string_view what, std::string_view step, const json::object& errors, std::string_view fix);

}  // namespace hamcp::tools::helpers
