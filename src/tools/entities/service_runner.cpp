#include "tools/entities/service_runner.hpp"

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>
#include <map>

#include "home/expectations.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace asio = boost::asio;

void check_service_exists(const ha::Snapshot& snap, const std::string& domain, const std::string& service) {
  if (!snap.services || snap.services->empty()) return;  // catalogue unknown: let HA judge
  const json::value* d = snap.services->if_contains(domain);
  if (d && d->is_object() && d->get_object().contains(service)) return;
  ToolError e;
  e.code = "service_not_found";
  json::array near;
  if (d && d->is_object()) {
    e.message = "Domain " + domain + " has no service " + service + ".";
    for (const auto& kv : d->get_object()) near.emplace_back(domain + "." + std::string(kv.key()));
  } else {
    e.message = "No service domain " + domain + " in Home Assistant.";
    for (const auto& kv : *snap.services)
      if (const json::object* svcs = kv.value().if_object(); svcs && svcs->contains(service))
        near.emplace_back(std::string(kv.key()) + "." + service);
  }
  e.suggestion =
      near.empty() ? "List services with ha_list_services." : "Use one of suggestions, or see ha_list_services.";
  if (near.size() > 20) near.resize(20);
  if (!near.empty()) e.extra.emplace("suggestions", std::move(near));
  throw ToolException(std::move(e));
}

void check_entities_exist(const ToolEnv& env, const ha::Snapshot& snap, const std::vector<std::string>& ids) {
  for (const auto& id : ids)
    if (!snap.states.find(id)) throw ToolException(unknown_entity(env.index, id));
}

namespace {

struct Before {
  std::string state;
  double last_updated = 0;
  Expectation expect;
};

bool entity_done(const ha::Snapshot& snap, const std::string& id, const Before& b) {
  ha::EntityStatePtr st = snap.states.find(id);
  if (!st) return false;
  if (b.expect.kind == Expectation::Kind::any_update) return st->last_updated > b.last_updated || st->state != b.state;
  return satisfies(b.expect, st->state);
}

json::object report(const ha::Snapshot& snap, const std::map<std::string, Before>& before, bool* all_ok) {
  json::array entities;
  *all_ok = true;
  for (const auto& [id, b] : before) {
    json::object e;
    e.emplace("entity_id", id);
    e.emplace("before", b.state);
    ha::EntityStatePtr st = snap.states.find(id);
    e.emplace("state", st ? json::value(st->state) : json::value("<removed>"));
    e.emplace("expected", b.expect.describe());
    const bool done = entity_done(snap, id, b);
    e.emplace("confirmed", done);
    *all_ok = *all_ok && done;
    entities.emplace_back(std::move(e));
  }
  json::object out;
  out.emplace("entities", std::move(entities));
  return out;
}

asio::awaitable<StateWatch::Outcome> wait_all(ToolEnv& env, std::map<std::string, Before> before,
                                              std::chrono::milliseconds timeout) {
  std::vector<std::string> ids;
  bool any_update_only = true;
  for (const auto& [id, b] : before) {
    ids.push_back(id);
    any_update_only = any_update_only && b.expect.kind == Expectation::Kind::any_update;
  }
  // A service with no known outcome may legitimately change nothing (light
  // already at that brightness): do not hold the caller for the full timeout.
  if (any_update_only) timeout = std::min(timeout, std::chrono::milliseconds(3000));
  auto pred = [before = std::move(before)](const ha::Snapshot& snap) {
    for (const auto& [id, b] : before)
      if (!entity_done(snap, id, b)) return false;
    return true;
  };
  co_return co_await env.watch.wait_for(std::move(ids), std::move(pred), timeout);
}

std::string seconds_text(std::chrono::milliseconds ms) {
  std::string s = std::to_string(static_cast<double>(ms.count()) / 1000.0);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s + " s";
}

void describe_outcome(json::object& body, const ha::Snapshot& snap, const std::map<std::string, Before>& before,
                      std::chrono::milliseconds timeout) {
  bool all_ok = false;
  json::object r = report(snap, before, &all_ok);
  body["entities"] = std::move(r["entities"]);
  body["status"] = all_ok ? "confirmed" : "unconfirmed";
  if (!all_ok)
    body["note"] = "Home Assistant accepted the call, but not every entity reached the expected state within " +
                   seconds_text(timeout) +
                   " (see entities[].state). The device may be slow, offline or already busy; check again with "
                   "ha_get_state before retrying.";
}

// Each target's state before the call and what it should become.
std::map<std::string, Before> states_before(const ha::Snapshot& snap, const ServiceRequest& req) {
  std::map<std::string, Before> before;
  for (const auto& id : req.entity_ids) {
    ha::EntityStatePtr st = snap.states.find(id);
    Before b;
    b.state = st->state;
    b.last_updated = st->last_updated;
    const std::string entity_domain = id.substr(0, id.find('.'));
    // homeassistant.turn_on etc. act per entity domain.
    const std::string& d = req.domain == "homeassistant" ? entity_domain : req.domain;
    b.expect = expect_after(d, req.service, req.data, b.state);
    before.emplace(id, std::move(b));
  }
  return before;
}

json::array id_array(const std::vector<std::string>& ids) {
  json::array out;
  for (const auto& id : ids) out.emplace_back(id);
  return out;
}

std::string start_operation(ToolEnv& env, const ServiceRequest& req) {
  json::object record;
  record.emplace("service", req.domain + "." + req.service);
  record.emplace("entity_ids", id_array(req.entity_ids));
  if (!req.parent_operation.empty()) record.emplace("parent", req.parent_operation);
  return env.ops.create(req.scope, record);
}

// The call itself, never retried; a failure is recorded on the operation before it propagates.
asio::awaitable<json::value> send_call(ToolEnv& env, const ServiceRequest& req, const std::string& op_id) {
  ha::ServiceCall call;
  call.domain = req.domain;
  call.service = req.service;
  call.data = req.data;
  call.target = req.target;
  if (!req.entity_ids.empty()) call.target["entity_id"] = id_array(req.entity_ids);
  call.return_response = req.return_response;
  try {
    json::value result = co_await env.ha.call_service(std::move(call));
    co_return result;
  } catch (const ha::HaException& e) {
    json::object failed;
    failed.emplace("status", "failed");
    failed.emplace("error", from_ha_error(e.error()).to_json()["error"]);
    env.ops.update(op_id, std::move(failed));
    throw;
  }
}

// Verify in the background so ha_get_operation_status can tell later.
void verify_in_background(asio::any_io_executor executor, ToolEnv& env, std::map<std::string, Before> before,
                          std::string op_id, std::chrono::milliseconds timeout) {
  asio::co_spawn(
      executor,
      [&env, before = std::move(before), op_id = std::move(op_id), timeout]() -> asio::awaitable<void> {
        StateWatch::Outcome outcome = co_await wait_all(env, before, timeout);
        json::object update;
        describe_outcome(update, *outcome.snapshot, before, timeout);
        env.ops.update(op_id, std::move(update));
      },
      asio::detached);
}

}  // namespace

asio::awaitable<json::object> run_service(ToolEnv& env, ServiceRequest req) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  check_service_exists(*snap, req.domain, req.service);
  check_entities_exist(env, *snap, req.entity_ids);
  std::map<std::string, Before> before = states_before(*snap, req);
  const std::string op_id = start_operation(env, req);
  json::value result = co_await send_call(env, req, op_id);

  json::object body;
  body.emplace("operation_id", op_id);
  body.emplace("service", req.domain + "." + req.service);
  if (req.return_response)
    if (const json::object* r = result.if_object())
      if (const json::value* resp = r->if_contains("response")) body.emplace("response", *resp);

  if (before.empty()) {
    body.emplace("status", "sent");
    body.emplace("note", "No entity_id given, so there is no state to confirm; check targets with ha_get_state.");
    env.ops.update(op_id, json::object{{"status", "sent"}});
    co_return body;
  }
  if (!req.wait) {
    body.emplace("status", "pending");
    body.emplace("note", "Sent without waiting; ha_get_operation_status with this operation_id reports the outcome.");
    auto executor = co_await asio::this_coro::executor;
    verify_in_background(executor, env, std::move(before), op_id, req.timeout);
    co_return body;
  }

  StateWatch::Outcome outcome = co_await wait_all(env, before, req.timeout);
  describe_outcome(body, *outcome.snapshot, before, req.timeout);
  json::object update;
  update.emplace("status", body.at("status"));
  update.emplace("entities", body.at("entities"));
  if (const json::value* n = body.if_contains("note")) update.emplace("note", *n);
  env.ops.update(op_id, std::move(update));
  co_return body;
}

}  // namespace hamcp::tools
