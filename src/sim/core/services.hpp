#pragma once
// Simulated Home Assistant actions (services): descriptions for get_services,
// voluptuous-like validation with HA's error texts, target expansion
// (entity/device/area/floor/label ids, "all") and state changes with the
// attribute changes real integrations make.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/core/state_store.hpp"

namespace hamcp::sim {

namespace svc {
struct Spec;
struct Run;
}  // namespace svc

// A failed call. `code` is the WebSocket error code (not_found, invalid_format,
// service_validation_error, home_assistant_error); REST maps it to a status.
struct ServiceError {
  std::string code;
  std::string message;
  std::optional<std::string> translation_key;
  json::object translation_placeholders;
};

struct ServiceCall {
  std::string domain;
  std::string service;
  json::object data;    // service_data
  json::object target;  // {entity_id, device_id, area_id, floor_id, label_id}
  Context context;
  bool return_response = false;
};

struct ServiceOutcome {
  std::vector<StatePtr> changed;        // states changed under the call's context
  std::optional<json::value> response;  // only with return_response
};

enum class ResponseSupport { none, optional, only };

class Services {
 public:
  explicit Services(StateStore& store);

  // GET /api/services: [{"domain", "services": {name: description}}]
  json::array describe_rest() const;
  // get_services: {domain: {name: description}}
  json::object describe_ws() const;
  bool has(const std::string& domain, const std::string& service) const;

  // Runs the action. Throws ServiceError. Fires call_service, changes states
  // under call.context, returns the changed states.
  ServiceOutcome call(const ServiceCall& call);

  // Entity ids a target (or the legacy target keys inside data) refers to,
  // as HA's async_extract_referenced_entity_ids does: areas/devices skip
  // hidden and entity_category entities; labels reach entities, devices and areas.
  std::vector<std::string> expand_target(const json::object& target) const;

  // Adds script.<object_id> services for every script (called after script config changes).
  void refresh_script_services();

  struct Impl;

 private:
  // Runs an entity action on each targeted entity of its domain; the responses by entity id.
  json::object run_on_entities(const svc::Spec& spec, const ServiceCall& call, const std::vector<std::string>& ids,
                               const std::set<std::string>& explicit_ids, const json::object& data, svc::Run& run);

  StateStore& store_;
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::sim
