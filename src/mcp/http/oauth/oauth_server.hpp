#pragma once
// hamcp as an OAuth 2.1 authorization server for its MCP endpoint (MCP
// authorization spec): RFC 8414 metadata, RFC 7591 dynamic client
// registration, authorization code with PKCE S256 only, refresh tokens rotated
// on every use, RFC 7009 revocation. The login step is delegated to an
// UpstreamLogin (in hamcp: Home Assistant's own login, app/ha_login), so the
// transport stays free of Home Assistant.
//
// Endpoints: /register, /authorize, /oauth/callback (the upstream login comes
// back here), /token, /revoke.

#include <filesystem>
#include <memory>

#include "mcp/http/oauth/oauth_grants.hpp"
#include "mcp/http/oauth_provider.hpp"

namespace hamcp::mcp::http::oauth {

class UpstreamLogin {
 public:
  virtual ~UpstreamLogin() = default;
  // Where the user's browser logs in; it comes back to `callback` with
  // ?code=…&state=<state>.
  virtual std::string login_url(std::string_view issuer, std::string_view callback, std::string_view state) = 0;
  // The upstream code traded for the user's identity (the implementation keeps
  // what it needs to act as that user); nullopt: refused.
  virtual asio::awaitable<std::optional<std::string>> complete(std::string issuer, std::string code) = 0;
  // The user's hamcp grant was revoked.
  virtual void forget(const std::string& user) = 0;
};

inline constexpr std::string_view kCallbackPath = "/oauth/callback";

class OAuthServer : public OAuthProvider {
 public:
  // `data_dir` empty: grants kept in memory only (tests).
  OAuthServer(const std::filesystem::path& data_dir, std::shared_ptr<UpstreamLogin> login);

  bool owns(std::string_view path) const override;
  asio::awaitable<HttpResponse> handle(const HttpRequest& req, std::string issuer) override;
  json::object metadata(std::string_view issuer) const override;
  std::optional<std::string> authenticate(std::string_view access_token) override;

  Grants& grants() { return grants_; }

 private:
  HttpResponse register_client(const HttpRequest& req);
  HttpResponse authorize(const HttpRequest& req, const std::string& issuer);
  asio::awaitable<HttpResponse> callback(const HttpRequest& req, std::string issuer);
  HttpResponse token(const HttpRequest& req);
  HttpResponse revoke(const HttpRequest& req);

  Grants grants_;
  std::shared_ptr<UpstreamLogin> login_;
};

}  // namespace hamcp::mcp::http::oauth
