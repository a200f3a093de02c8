#pragma once
// OAuth discovery answers of the MCP HTTP server, in every auth mode: RFC 9728
// protected-resource metadata, RFC 8414 authorization-server metadata (404 when
// hamcp is no authorization server, i.e. bearer mode), and the
// WWW-Authenticate challenge of a 401 pointing at the resource metadata.
// Clients (mcp-remote, SDKs) probe these before anything else: answering them
// 401 made them wait forever for a browser login that never comes.
// Pure functions, no I/O.

#include <optional>
#include <string>
#include <string_view>

#include "mcp/http/http_types.hpp"

namespace hamcp::mcp::http {

inline constexpr std::string_view kProtectedResourceWellKnown = "/.well-known/oauth-protected-resource";
inline constexpr std::string_view kAuthServerWellKnown = "/.well-known/oauth-authorization-server";
inline constexpr std::string_view kOpenIdWellKnown = "/.well-known/openid-configuration";

// "https://host:port" of this server as the client reaches it: `public_url`
// when configured (no trailing slash), otherwise scheme + the request's Host.
std::string public_base(const HttpRequest& req, std::string_view public_url, bool tls);

enum class WellKnown { kNone, kProtectedResource, kAuthorizationServer };
// Which discovery document `path` asks for (with or without a path suffix,
// RFC 9728 §3.1 / RFC 8414 §3.1; OpenID's configuration counts as the AS's).
WellKnown well_known_kind(std::string_view path);

// RFC 9728 metadata of `resource` (base + MCP path). `authorization_server`
// empty: none is advertised (bearer mode: the token is configured out of band).
HttpResponse protected_resource_metadata(std::string_view resource, std::string_view authorization_server);

// The 404 a client gets for AS metadata when hamcp is no authorization server.
HttpResponse no_authorization_server();

// The 401 answer: `WWW-Authenticate: Bearer realm="hamcp", resource_metadata="…"`
// (+ error="invalid_token" when a token was sent but is not valid).
HttpResponse unauthorized(std::string_view resource_metadata_url, bool token_sent, std::string_view message);

// The metadata URL of the resource at `mcp_path` (RFC 9728 §3.1: well-known
// prefix inserted before the path).
std::string resource_metadata_url(std::string_view base, std::string_view mcp_path);

}  // namespace hamcp::mcp::http
