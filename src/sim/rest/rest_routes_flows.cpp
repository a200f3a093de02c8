// /api/config/config_entries/...: config entries, config flows and options
// flows (HA's config_entries.py views), over the engine in sim/flows/.
#include <algorithm>

#include "sim/flows/flow_engine.hpp"
#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {

namespace {

RestResponse answer(const flows::Answer& a) { return json_response(a.status, a.body); }

RestResponse with_body(RestCall& c, const std::function<RestResponse(const json::object&)>& then) {
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (!body)
    return message_response(400, invalid ? "Invalid JSON." : "Message format incorrect: expected a dictionary");
  return then(*body);
}

void add_flow_routes_for(RestRouter& r, const std::string& base, bool options_flow) {
  r.add("POST", base, [options_flow](RestCall& c) {
    return with_body(c, [&](const json::object& b) { return answer(flows::start_flow(c.store, b, options_flow)); });
  });
  r.add("GET", base + "/{flow_id}",
        [options_flow](RestCall& c) { return answer(flows::show_flow(c.store, c.path[0], options_flow)); });
  r.add("POST", base + "/{flow_id}", [options_flow](RestCall& c) {
    return with_body(
        c, [&](const json::object& b) { return answer(flows::answer_flow(c.store, c.path[0], b, options_flow)); });
  });
  r.add("DELETE", base + "/{flow_id}",
        [options_flow](RestCall& c) { return answer(flows::abort_flow(c.store, c.path[0], options_flow)); });
}

// HA's SubentryManagerFlowIndexView / ResourceView: handler [entry_id, subentry_type].
void add_subentry_flow_routes(RestRouter& r) {
  const std::string base = "/api/config/config_entries/subentries/flow";
  r.add("POST", base, [](RestCall& c) {
    return with_body(c, [&](const json::object& b) { return answer(flows::start_subentry_flow(c.store, b)); });
  });
  r.add("GET", base + "/{flow_id}", [](RestCall& c) { return answer(flows::show_subentry_flow(c.store, c.path[0])); });
  r.add("POST", base + "/{flow_id}", [](RestCall& c) {
    return with_body(c,
                     [&](const json::object& b) { return answer(flows::answer_subentry_flow(c.store, c.path[0], b)); });
  });
  r.add("DELETE", base + "/{flow_id}",
        [](RestCall& c) { return answer(flows::abort_subentry_flow(c.store, c.path[0])); });
}

}  // namespace

void add_flow_routes(RestRouter& r) {
  r.add("GET", "/api/config/config_entries/entry",
        [](RestCall& c) { return json_response(200, flows::list_entries(c.store, c.query.get("domain"))); });
  r.add("DELETE", "/api/config/config_entries/entry/{entry_id}", [](RestCall& c) {
    if (!flows::delete_entry(c.store, c.path[0], c.user_context))
      return message_response(404, "Invalid entry specified");
    return json_response(200, json::object{{"require_restart", false}});
  });
  r.add("GET", "/api/config/config_entries/flow_handlers", [](RestCall& c) {
    json::array out;
    const std::string type = c.query.get("type");
    for (const auto& [domain, h] : flows::flow_handlers())
      if (type.empty() || type == h.integration_type) out.emplace_back(domain);
    return json_response(200, out);
  });
  // HA's diagnostics download: 404 without the entry or an integration without diagnostics.
  r.add("GET", "/api/diagnostics/config_entry/{entry_id}", [](RestCall& c) {
    const json::object* stored = flows::stored_entry(c.store, c.path[0]);
    const flows::Handler* h = stored ? flows::handler_of(stored->at("entry").at("domain").as_string()) : nullptr;
    if (!h || !h->diagnostics) return message_response(404, "Not Found");
    const std::string domain = h->domain;
    json::object payload{{"home_assistant", json::object{{"installation_type", "Home Assistant Container"},
                                                         {"version", "2026.2.3"},
                                                         {"dev", false},
                                                         {"docker", true},
                                                         {"run_as_root", false}}},
                         {"custom_components", json::object{}},
                         {"integration_manifest", json::object{{"domain", domain},
                                                               {"name", domain},
                                                               {"config_flow", true},
                                                               {"integration_type", h->integration_type},
                                                               {"is_built_in", true}}},
                         {"setup_times", json::object{}},
                         {"data", h->diagnostics(*stored)},
                         {"issues", json::array{}}};
    return json_response(200, payload);
  });
  // A device's diagnostics: 404 unless the device belongs to the entry (HA: the integration's
  // async_get_device_diagnostics; the sim's integrations answer with the device's registry facts).
  r.add("GET", "/api/diagnostics/config_entry/{entry_id}/device/{device_id}", [](RestCall& c) {
    const json::object* stored = flows::stored_entry(c.store, c.path[0]);
    const flows::Handler* h = stored ? flows::handler_of(stored->at("entry").at("domain").as_string()) : nullptr;
    const Device* d = c.store.device(c.path[1]);
    const bool owned =
        d && std::find(d->config_entries.begin(), d->config_entries.end(), c.path[0]) != d->config_entries.end();
    if (!h || !h->diagnostics || !owned) return message_response(404, "Not Found");
    json::array identifiers;
    for (const auto& [domain, id] : d->identifiers)
      identifiers.push_back(json::array{json::value(domain), json::value(id)});
    json::object data{{"device", json::object{{"id", d->id},
                                              {"name", d->name},
                                              {"model", d->model},
                                              {"sw_version", d->sw_version ? json::value(*d->sw_version) : nullptr},
                                              {"identifiers", std::move(identifiers)}}},
                      {"link", json::object{{"rssi", -48}, {"lqi", 212}, {"token", "sk-sim-device-secret"}}}};
    return json_response(200, json::object{{"home_assistant", json::object{{"version", "2026.2.3"}}},
                                           {"custom_components", json::object{}},
                                           {"integration_manifest", json::object{{"domain", h->domain}}},
                                           {"setup_times", json::object{}},
                                           {"data", std::move(data)},
                                           {"issues", json::array{}}});
  });
  add_flow_routes_for(r, "/api/config/config_entries/flow", false);
  add_flow_routes_for(r, "/api/config/config_entries/options/flow", true);
  add_subentry_flow_routes(r);
}

}  // namespace hamcp::sim
