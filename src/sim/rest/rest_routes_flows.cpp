// /api/config/config_entries/...: config entries, config flows and options
// flows (HA's config_entries.py views), over the engine in sim/flows/.
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
    for (const auto& [domain, h] : flows::flow_handlers()) {
      const bool helper = domain != "sun";  // the others are helper integrations
      if (type.empty() || (type == "helper") == helper) out.emplace_back(domain);
    }
    return json_response(200, out);
  });
  add_flow_routes_for(r, "/api/config/config_entries/flow", false);
  add_flow_routes_for(r, "/api/config/config_entries/options/flow", true);
}

}  // namespace hamcp::sim
