// /api, /api/config, /api/core/state, /api/states, /api/services, /api/events, /api/template.
#include <cctype>

#include "sim/core/json_writer.hpp"
#include "sim/core/template.hpp"
#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {

namespace {

bool valid_entity_id(std::string_view id) {
  auto dot = id.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= id.size()) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    char c = id[i];
    if (i == dot) continue;
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  }
  return id.find("__") == std::string_view::npos && id[dot + 1] != '_' && id.back() != '_';
}

RestResponse set_state(RestCall& c) {
  const std::string& eid = c.path[0];
  if (!valid_entity_id(eid)) return message_response(400, "Invalid entity ID specified.");
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (invalid || !body) return message_response(400, "Invalid JSON specified.");
  const json::value* st = body->if_contains("state");
  if (!st || st->is_null()) return message_response(400, "No state specified.");
  std::string state = st->is_string() ? std::string(st->get_string()) : to_json(*st);
  if (state.size() > 255) return message_response(400, "Invalid state specified.");
  json::object attrs;
  if (const auto* a = body->if_contains("attributes"); a && a->is_object()) attrs = a->get_object();
  const json::value* force_value = body->if_contains("force_update");
  const bool force = force_value && force_value->is_bool() && force_value->get_bool();
  const bool existed = c.store.get(eid) != nullptr;
  StatePtr s = c.store.set_state(eid, state, std::move(attrs), c.user_context, force);
  RestResponse r{existed ? 200 : 201, "application/json", c.store.state_json_cached(s), {}, {}};
  r.headers.emplace_back("Location", "/api/states/" + eid);
  return r;
}

// HA's answer for a ServiceError raised by the action.
RestResponse service_error_response(const ServiceError& e) {
  if (e.translation_key && *e.translation_key == "service_does_not_support_response")
    return message_response(400, "Service does not support responses. Remove return_response from request.");
  if (e.translation_key && *e.translation_key == "service_lacks_response_request")
    return message_response(400,
                            "Service call requires responses but caller did not ask for responses. Add "
                            "?return_response to query parameters.");
  if (e.code == "invalid_format" || e.code == "not_found") return bad_request();
  return server_error();
}

RestResponse call_service(RestCall& c) {
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (invalid || !body) return message_response(400, "Data should be valid JSON.");
  ServiceCall call;
  call.domain = c.path[0];
  call.service = c.path[1];
  call.data = std::move(*body);
  call.return_response = c.query.has("return_response");
  call.context = c.user_context;
  if (!c.core.services().has(call.domain, call.service)) return bad_request();
  try {
    auto out = c.core.services().call(call);
    std::string changed = "[";
    for (std::size_t i = 0; i < out.changed.size(); ++i) {
      if (i) changed += ',';
      changed += c.store.state_json_cached(out.changed[i]);
    }
    changed += ']';
    if (!call.return_response) return RestResponse{200, "application/json", changed, {}, {}};
    std::string body_out = "{\"changed_states\":" + changed + ",\"service_response\":" +
                           to_json(out.response ? *out.response : json::value(json::object{})) + "}";
    return RestResponse{200, "application/json", body_out, {}, {}};
  } catch (const ServiceError& e) {
    return service_error_response(e);
  }
}

RestResponse fire_event(RestCall& c) {
  json::object data;
  if (!c.request.body.empty()) {
    boost::system::error_code ec;
    json::value v = json::parse(c.request.body, ec);
    if (ec) return message_response(400, "Event data should be valid JSON.");
    if (!v.is_null() && !v.is_object()) return message_response(400, "Event data should be a JSON object");
    if (v.is_object()) data = v.get_object();
  }
  c.store.fire(c.path[0], std::move(data), c.user_context, "REMOTE");
  return message_response(200, "Event " + c.path[0] + " fired.");
}

RestResponse render(RestCall& c) {
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  if (invalid || !body) return message_response(400, "Data should be valid JSON.");
  const json::value* tpl = body->if_contains("template");
  if (!tpl || !tpl->is_string())
    return message_response(400, "Message format incorrect: required key not provided @ data['template']");
  json::object vars;
  if (const auto* v = body->if_contains("variables"); v && v->is_object()) vars = v->get_object();
  try {
    auto r = render_template(c.store, std::string(tpl->get_string()), vars);
    return text_response(200, r.text);
  } catch (const TemplateError& e) {
    return message_response(400, std::string("Error rendering template: ") + e.what());
  }
}

}  // namespace

void add_core_routes(RestRouter& r) {
  r.add("GET", "/api", [](RestCall&) { return message_response(200, "API running."); });
  r.add("GET", "/api/config", [](RestCall& c) { return json_response(200, c.core.config_json()); });
  r.add("*", "/api/core/state", [](RestCall&) {
    return json_response(
        200,
        json::object{{"state", "RUNNING"},
                     {"recorder_state", json::object{{"migration_in_progress", false}, {"migration_is_live", false}}}});
  });
  r.add("GET", "/api/states", [](RestCall& c) {
    return RestResponse{200, "application/json", c.store.states_array_json(), {}, {}};
  });
  r.add("GET", "/api/states/{entity_id}", [](RestCall& c) {
    StatePtr s = c.store.get(c.path[0]);
    if (!s) return message_response(404, "Entity not found.");
    return RestResponse{200, "application/json", c.store.state_json_cached(s), {}, {}};
  });
  r.add("POST", "/api/states/{entity_id}", set_state);
  r.add("DELETE", "/api/states/{entity_id}", [](RestCall& c) {
    if (!c.store.remove_state(c.path[0], c.user_context)) return message_response(404, "Entity not found.");
    return message_response(200, "Entity removed.");
  });
  r.add("GET", "/api/services", [](RestCall& c) { return json_response(200, c.core.services().describe_rest()); });
  r.add("POST", "/api/services/{domain}/{service}", call_service);
  r.add("GET", "/api/events", [](RestCall& c) {
    json::array out;
    for (const auto& [type, count] : c.store.listener_counts())
      out.push_back(json::object{{"event", type}, {"listener_count", count}});
    return json_response(200, out);
  });
  r.add("POST", "/api/events/{event_type}", fire_event);
  r.add("POST", "/api/template", render);
}

}  // namespace hamcp::sim
