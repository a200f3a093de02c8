#include "mcp/http/auth_discovery.hpp"

namespace hamcp::mcp::http {
namespace {

// True for `prefix` alone or `prefix/<suffix>`.
bool is_prefix_path(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

HttpResponse cacheable_json(unsigned status, const json::value& body) {
  auto r = HttpResponse::json(status, body);
  r.set("Cache-Control", "max-age=300");
  return r;
}

}  // namespace

std::string public_base(const HttpRequest& req, std::string_view public_url, bool tls) {
  std::string base(public_url);
  if (base.empty()) base = std::string(tls ? "https://" : "http://") + std::string(req.header("host").value_or(""));
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

WellKnown well_known_kind(std::string_view path) {
  if (is_prefix_path(path, kProtectedResourceWellKnown)) return WellKnown::kProtectedResource;
  if (is_prefix_path(path, kAuthServerWellKnown) || is_prefix_path(path, kOpenIdWellKnown))
    return WellKnown::kAuthorizationServer;
  // Some clients append the well-known suffix to the resource path instead.
  if (path.ends_with(kAuthServerWellKnown) || path.ends_with(kOpenIdWellKnown)) return WellKnown::kAuthorizationServer;
  if (path.ends_with(kProtectedResourceWellKnown)) return WellKnown::kProtectedResource;
  return WellKnown::kNone;
}

HttpResponse protected_resource_metadata(std::string_view resource, std::string_view authorization_server) {
  json::object body;
  body["resource"] = resource;
  body["resource_name"] = "hamcp";
  body["bearer_methods_supported"] = json::array{"header"};
  if (!authorization_server.empty()) {
    body["authorization_servers"] = json::array{json::string(authorization_server)};
    body["scopes_supported"] = json::array{"mcp"};
  }
  return cacheable_json(200, body);
}

HttpResponse no_authorization_server() {
  json::object body;
  body["error"] = "not_found";
  body["error_description"] =
      "hamcp runs in bearer-token mode: no OAuth authorization server here. Send the configured token as "
      "Authorization: Bearer <token>, or start hamcp with --auth oauth.";
  return cacheable_json(404, body);
}

HttpResponse unauthorized(std::string_view resource_metadata_url, bool token_sent, std::string_view message) {
  auto r = HttpResponse::rpc_error(401, -32000, message);
  std::string challenge = "Bearer realm=\"hamcp\", resource_metadata=\"" + std::string(resource_metadata_url) + "\"";
  if (token_sent) challenge += ", error=\"invalid_token\"";
  r.set("WWW-Authenticate", std::move(challenge));
  return r;
}

std::string resource_metadata_url(std::string_view base, std::string_view mcp_path) {
  std::string url = std::string(base) + std::string(kProtectedResourceWellKnown);
  if (mcp_path != "/") url += mcp_path;
  return url;
}

}  // namespace hamcp::mcp::http
