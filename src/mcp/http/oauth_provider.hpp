#pragma once
// The seam between the HTTP transport and an OAuth 2.1 authorization server
// (hamcp's own, whose login step is Home Assistant's: src/app/oauth). The
// transport knows nothing of Home Assistant: it routes the provider's paths to
// it, serves its RFC 8414 metadata and asks it whether an access token is valid.

#include <optional>
#include <string>
#include <string_view>

#include "mcp/http/http_types.hpp"

namespace hamcp::mcp::http {

class OAuthProvider {
 public:
  virtual ~OAuthProvider() = default;
  // True for the authorization server's own endpoints (authorize, token, ...).
  virtual bool owns(std::string_view path) const = 0;
  // Answers one request to an owned path. `issuer`: this server's public base URL.
  virtual asio::awaitable<HttpResponse> handle(const HttpRequest& req, std::string issuer) = 0;
  // RFC 8414 authorization-server metadata for `issuer`.
  virtual json::object metadata(std::string_view issuer) const = 0;
  // The user an access token belongs to; nullopt when unknown, expired or revoked.
  virtual std::optional<std::string> authenticate(std::string_view access_token) = 0;
};

}  // namespace hamcp::mcp::http
