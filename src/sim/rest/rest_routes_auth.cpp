// Home Assistant's auth endpoints (components/auth, requires_auth = False):
// /auth/authorize (the frontend page), /auth/login_flow (the homeassistant
// provider's username/password form), /auth/token (authorization_code,
// refresh_token, action=revoke) and /auth/revoke, in HA 2026.2's shapes.
#include <boost/url/parse.hpp>
#include <boost/url/parse_query.hpp>
#include <boost/url/url_view.hpp>

#include "sim/rest/rest_api.hpp"
#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {
namespace {

using Form = std::map<std::string, std::string, std::less<>>;

Form parse_form(std::string_view body) {
  Form out;
  auto params = boost::urls::parse_query(body);
  if (!params) return out;
  // Decoded (percent-escapes and '+' as space, as forms encode them).
  const boost::urls::encoding_opts plus_is_space(true);
  for (auto p : *params) out[p.key.decode(plus_is_space)] = p.has_value ? p.value.decode(plus_is_space) : std::string();
  return out;
}

std::string form_value(const Form& form, std::string_view key) {
  auto it = form.find(key);
  return it == form.end() ? std::string() : it->second;
}

// scheme://host[:port] of a URL; empty when it is none.
std::string origin_of(std::string_view url) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed || (parsed->scheme() != "http" && parsed->scheme() != "https")) return {};
  return std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_authority());
}

RestResponse no_store(RestResponse r) {
  r.headers.emplace_back("Cache-Control", "no-store");
  r.headers.emplace_back("Pragma", "no-cache");
  return r;
}

RestResponse oauth_error(int status, std::string_view error, std::string_view description = {}) {
  json::object body{{"error", error}};
  if (!description.empty()) body["error_description"] = description;
  return json_response(status, body);
}

json::array handler_json() { return json::array{"homeassistant", nullptr}; }

RestResponse login_form(std::string_view flow_id, bool invalid_auth) {
  json::object errors;
  if (invalid_auth) errors["base"] = "invalid_auth";
  json::array schema{json::object{{"type", "string"}, {"name", "username"}, {"required", true}},
                     json::object{{"type", "string"}, {"name", "password"}, {"required", true}}};
  return json_response(200, json::object{{"type", "form"},
                                         {"flow_id", flow_id},
                                         {"handler", handler_json()},
                                         {"step_id", "init"},
                                         {"data_schema", schema},
                                         {"errors", errors},
                                         {"description_placeholders", nullptr},
                                         {"last_step", nullptr},
                                         {"preview", nullptr}});
}

RestResponse start_login_flow(const RestRequest& req, SimCore& core) {
  bool invalid = false;
  auto body = body_object(req, invalid);
  const json::value* client = body ? body->if_contains("client_id") : nullptr;
  const json::value* redirect = body ? body->if_contains("redirect_uri") : nullptr;
  if (!client || !client->is_string() || !redirect || !redirect->is_string() || !body->contains("handler"))
    return message_response(400, "Message format incorrect: required key not provided");
  if (origin_of(client->get_string()).empty()) return message_response(400, "Invalid client id");
  auto id = core.auth().start_flow(std::string(client->get_string()), std::string(redirect->get_string()));
  return login_form(id, false);
}

RestResponse step_login_flow(const RestRequest& req, std::string_view flow_id, SimCore& core) {
  bool invalid = false;
  auto body = body_object(req, invalid);
  const json::value* client = body ? body->if_contains("client_id") : nullptr;
  if (!client || !client->is_string()) return message_response(400, "Message format incorrect: client_id");
  auto flow = core.auth().flow(flow_id);
  if (!flow) return message_response(404, "Invalid flow specified");
  if (flow->client_id != client->get_string()) return message_response(400, "Invalid client id");
  const json::value* user = body->if_contains("username");
  const json::value* pass = body->if_contains("password");
  if (!user || !user->is_string() || !pass || !pass->is_string()) return message_response(400, "User input malformed");
  if (origin_of(flow->redirect_uri) != origin_of(flow->client_id)) return message_response(403, "Invalid redirect URI");
  auto code = core.auth().finish_flow(flow_id, user->get_string(), pass->get_string());
  if (!code) return login_form(flow_id, true);
  return json_response(200, json::object{{"type", "create_entry"},
                                         {"flow_id", flow_id},
                                         {"handler", handler_json()},
                                         {"version", 1},
                                         {"minor_version", 1},
                                         {"title", "Home Assistant Local"},
                                         {"description", nullptr},
                                         {"description_placeholders", nullptr},
                                         {"result", *code}});
}

RestResponse token_endpoint(const RestRequest& req, SimCore& core) {
  const Form form = parse_form(req.body);
  if (form_value(form, "action") == "revoke") {
    core.auth().revoke(form_value(form, "token"));
    return RestResponse{200, "text/plain", "", {}, {}};
  }
  const std::string grant = form_value(form, "grant_type"), client_id = form_value(form, "client_id");
  if (grant != "authorization_code" && grant != "refresh_token") return oauth_error(400, "unsupported_grant_type");
  if (origin_of(client_id).empty()) return oauth_error(400, "invalid_request", "Invalid client id");
  if (grant == "authorization_code") {
    auto tokens = core.auth().exchange_code(client_id, form_value(form, "code"));
    if (!tokens) return oauth_error(400, "invalid_request", "Invalid code");
    return no_store(json_response(200, json::object{{"access_token", tokens->access_token},
                                                    {"token_type", "Bearer"},
                                                    {"refresh_token", tokens->refresh_token},
                                                    {"expires_in", 1800},
                                                    {"ha_auth_provider", "homeassistant"}}));
  }
  auto access = core.auth().refresh(client_id, form_value(form, "refresh_token"));
  if (!access) return oauth_error(400, "invalid_grant");
  return no_store(
      json_response(200, json::object{{"access_token", *access}, {"token_type", "Bearer"}, {"expires_in", 1800}}));
}

constexpr std::string_view kAuthorizePage =
    "<!DOCTYPE html><html><head><title>Home Assistant</title></head><body>"
    "<p>Log in with POST /auth/login_flow (handler [\"homeassistant\", null]), then go to "
    "redirect_uri?code=&lt;result&gt;&amp;state=&lt;state&gt;.</p></body></html>";

}  // namespace

std::optional<RestResponse> auth_endpoint(const RestRequest& req, std::string_view path, SimCore& core) {
  if (path == "/auth/authorize") {
    if (req.method != "GET") return method_not_allowed();
    return RestResponse{200, "text/html; charset=utf-8", std::string(kAuthorizePage), {}, {}};
  }
  const bool post = req.method == "POST";
  if (path == "/auth/login_flow") return post ? start_login_flow(req, core) : method_not_allowed();
  if (path.starts_with("/auth/login_flow/"))
    return post ? step_login_flow(req, path.substr(17), core) : method_not_allowed();
  if (path == "/auth/token") return post ? token_endpoint(req, core) : method_not_allowed();
  if (path == "/auth/revoke") {
    if (!post) return method_not_allowed();
    core.auth().revoke(form_value(parse_form(req.body), "token"));
    return RestResponse{200, "text/plain", "", {}, {}};
  }
  return std::nullopt;
}

}  // namespace hamcp::sim
