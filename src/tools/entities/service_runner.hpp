#pragma once
// One service call, done right: check the service and the entities exist
// (HA silently ignores unknown entity ids), call HA exactly once (never
// retried), then confirm the expected state change through the mirror or
// report what happened instead. Shared by ha_call_service and ha_bulk_control.

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "tools/tool_env.hpp"

namespace hamcp::tools {

struct ServiceRequest {
  std::string domain;
  std::string service;
  std::vector<std::string> entity_ids;
  json::object target;  // device_id / area_id / floor_id / label_id (entity ids go in entity_ids)
  json::object data;
  bool return_response = false;
  bool wait = true;
  std::chrono::milliseconds timeout{10000};
  std::string parent_operation;  // bulk run this call belongs to
  std::string scope;             // MCP session that owns the operation record (RequestContext::session_id)
};

// Body {operation_id, service, status, entities:[{entity_id, before, state,
// expected, confirmed}], response?, note?}. status: confirmed | unconfirmed
// (timeout; see note) | sent (no entity to watch) | pending (wait=false:
// verification continues; ask ha_get_operation_status).
// Throws ToolException (bad service / unknown entity) or HaException (HA refused or is unreachable).
boost::asio::awaitable<json::object> run_service(ToolEnv& env, ServiceRequest request);

// Checks without calling HA; throws ToolException.
void check_service_exists(const ha::Snapshot& snap, const std::string& domain, const std::string& service);
void check_entities_exist(const ToolEnv& env, const ha::Snapshot& snap, const std::vector<std::string>& ids);

}  // namespace hamcp::tools
