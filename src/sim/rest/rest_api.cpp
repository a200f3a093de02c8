#include "sim/rest/rest_api.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "sim/core/json_writer.hpp"
#include "sim/rest/rest_router.hpp"
#include "sim/supervisor/supervisor_api.hpp"

namespace hamcp::sim {

RestResponse json_response(int status, const json::value& body) {
  return RestResponse{status, "application/json", to_json(body), {}, {}};
}
RestResponse message_response(int status, std::string_view message) {
  return json_response(status, json::object{{"message", message}});
}
RestResponse text_response(int status, std::string_view text) {
  return RestResponse{status, "text/plain; charset=utf-8", std::string(text), {}, {}};
}

namespace {

const RestRouter& routes() {
  static const RestRouter router = [] {
    RestRouter r;
    add_core_routes(r);
    add_history_routes(r);
    add_everyday_routes(r);
    add_config_routes(r);
    add_flow_routes(r);
    add_supervisor_routes(r);
    return r;
  }();
  return router;
}

std::string bearer_token(std::string_view authorization) {
  if (authorization.size() > 7 && (authorization.substr(0, 7) == "Bearer " || authorization.substr(0, 7) == "bearer "))
    return std::string(authorization.substr(7));
  return {};
}

}  // namespace

RestApi::RestApi(SimCore& core, Control control) : core_(core), control_(std::move(control)) {}

RestResponse RestApi::handle(const RestRequest& req) {
  auto parsed = boost::urls::parse_origin_form(req.target);
  if (!parsed) return bad_request();
  boost::urls::url_view url = *parsed;
  std::string path = url.path();
  RestQuery query;
  for (auto p : url.params()) query.params[std::string(p.key)] = p.has_value ? std::string(p.value) : std::string();
  const std::string token = bearer_token(req.authorization);

  if (path == "/api/hamcp_sim/fault") {
    // The test control endpoint: loopback only, its own token (works while the user's is revoked).
    if (!req.from_loopback) return text_response(403, "403: Forbidden");
    if (!core_.control_token_ok(token)) return text_response(401, "401: Unauthorized");
    if (req.method != "POST") return method_not_allowed();
    bool invalid = false;
    auto body = body_object(req, invalid);
    if (!body)
      return message_response(400, "Fault command must be a JSON object, e.g. {\"action\":\"drop_websockets\"}");
    return control_(*body);
  }
  if (path.starts_with("/auth/")) {  // HA's auth endpoints need no token
    if (auto answer = auth_endpoint(req, path, core_)) return std::move(*answer);
  }
  // HA's ingress view needs no token: the Supervisor checks the session cookie.
  if (path.rfind("/api/hassio_ingress/", 0) == 0) {
    core_.note_request(req.method, path, core_.recording() ? req.target : std::string());
    return ingress_answer(core_, req, path);
  }
  if (!core_.token_ok(token)) return text_response(401, "401: Unauthorized");
  core_.note_request(req.method, path, core_.recording() ? req.target + " " + req.body : std::string());

  auto& store = core_.store();
  std::lock_guard lock(store.mutex());
  // The simulated Supervisor's Core proxy: http://supervisor/core/api/... is HA's /api/...
  if (path.rfind("/core/api", 0) == 0 && store.home().supervisor) path = path.substr(5);
  RestCall call{req, query, {}, core_, store, store.new_context(std::nullopt, store.user_id())};
  return routes().dispatch(split_path(path), call);
}

}  // namespace hamcp::sim
