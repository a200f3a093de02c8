#include "mcp/http/oauth/oauth_server.hpp"

#include <spdlog/spdlog.h>

#include <boost/url/parse.hpp>
#include <boost/url/parse_query.hpp>
#include <boost/url/url.hpp>
#include <map>

namespace hamcp::mcp::http::oauth {
namespace {

using Params = std::map<std::string, std::string, std::less<>>;

Params parse_params(std::string_view encoded) {
  Params out;
  auto params = boost::urls::parse_query(encoded);
  if (!params) return out;
  // Decoded (percent-escapes and '+' as space, as forms encode them).
  const boost::urls::encoding_opts plus_is_space(true);
  for (auto p : *params) out[p.key.decode(plus_is_space)] = p.has_value ? p.value.decode(plus_is_space) : std::string();
  return out;
}

std::string param(const Params& p, std::string_view key) {
  auto it = p.find(key);
  return it == p.end() ? std::string() : it->second;
}

HttpResponse no_store(HttpResponse r) {
  r.set("Cache-Control", "no-store");
  r.set("Pragma", "no-cache");
  return r;
}

HttpResponse oauth_error(unsigned status, std::string_view error, std::string_view description) {
  return no_store(HttpResponse::json(status, json::object{{"error", error}, {"error_description", description}}));
}

HttpResponse redirect(const std::string& location) {
  HttpResponse r;
  r.status = 302;
  r.set("Location", location);
  return no_store(std::move(r));
}

// `base` + ?key=value&... (values percent-encoded).
std::string with_params(const std::string& base, const std::vector<std::pair<std::string, std::string>>& params) {
  boost::urls::url url(base);
  for (const auto& [k, v] : params) url.params().append({k, v});
  return std::string(url.buffer());
}

// Only http(s) redirect URIs without a fragment (OAuth 2.1 §2.3.1); plain http
// only for loopback clients, which is what native apps and mcp-remote use.
bool acceptable_redirect_uri(std::string_view uri) {
  auto parsed = boost::urls::parse_absolute_uri(uri);
  if (!parsed || parsed->has_fragment()) return false;
  if (parsed->scheme() == "https") return true;
  if (parsed->scheme() != "http") return false;
  const std::string host(parsed->host());
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host == "::1";
}

}  // namespace

OAuthServer::OAuthServer(const std::filesystem::path& data_dir, std::shared_ptr<UpstreamLogin> login)
    : grants_(data_dir.empty() ? std::filesystem::path() : data_dir / "oauth-grants.json"), login_(std::move(login)) {}

bool OAuthServer::owns(std::string_view path) const {
  return path == "/register" || path == "/authorize" || path == kCallbackPath || path == "/token" || path == "/revoke";
}

json::object OAuthServer::metadata(std::string_view issuer) const {
  const std::string base(issuer);
  return json::object{{"issuer", base},
                      {"authorization_endpoint", base + "/authorize"},
                      {"token_endpoint", base + "/token"},
                      {"registration_endpoint", base + "/register"},
                      {"revocation_endpoint", base + "/revoke"},
                      {"response_types_supported", json::array{"code"}},
                      {"grant_types_supported", json::array{"authorization_code", "refresh_token"}},
                      {"code_challenge_methods_supported", json::array{"S256"}},
                      {"token_endpoint_auth_methods_supported", json::array{"none"}},
                      {"revocation_endpoint_auth_methods_supported", json::array{"none"}},
                      {"scopes_supported", json::array{"mcp"}}};
}

std::optional<std::string> OAuthServer::authenticate(std::string_view access_token) {
  return grants_.user_of_access_token(access_token);
}

asio::awaitable<HttpResponse> OAuthServer::handle(const HttpRequest& req, std::string issuer) {
  const bool post = req.method == "POST";
  if (req.path == "/authorize" && req.method == "GET") co_return authorize(req, issuer);
  if (req.path == kCallbackPath && req.method == "GET") co_return co_await callback(req, std::move(issuer));
  if (req.path == "/register" && post) co_return register_client(req);
  if (req.path == "/token" && post) co_return token(req);
  if (req.path == "/revoke" && post) co_return revoke(req);
  auto r = HttpResponse::text(405, "Method not allowed\n");
  r.set("Allow", req.path == "/authorize" || req.path == kCallbackPath ? "GET" : "POST");
  co_return r;
}

HttpResponse OAuthServer::register_client(const HttpRequest& req) {
  boost::system::error_code ec;
  auto doc = json::parse(req.body, ec);
  if (ec || !doc.is_object()) return oauth_error(400, "invalid_client_metadata", "the body must be a JSON object");
  const auto& meta = doc.as_object();
  const json::value* uris = meta.if_contains("redirect_uris");
  if (!uris || !uris->is_array() || uris->as_array().empty())
    return oauth_error(400, "invalid_redirect_uri", "redirect_uris: give at least one redirect URI");
  Client client;
  for (const auto& u : uris->as_array()) {
    if (!u.is_string() || !acceptable_redirect_uri(u.as_string()))
      return oauth_error(400, "invalid_redirect_uri",
                         "redirect_uris: each must be an https URI, or http on localhost/127.0.0.1, without fragment");
    client.redirect_uris.emplace_back(u.as_string());
  }
  if (const auto* name = meta.if_contains("client_name"); name && name->is_string())
    client.name = std::string(name->as_string()).substr(0, 200);
  json::object answer = meta;
  answer["client_id"] = grants_.register_client(client);
  answer["client_id_issued_at"] =
      std::chrono::duration_cast<std::chrono::seconds>(Clock::now().time_since_epoch()).count();
  answer["token_endpoint_auth_method"] = "none";
  answer["grant_types"] = json::array{"authorization_code", "refresh_token"};
  answer["response_types"] = json::array{"code"};
  return no_store(HttpResponse::json(201, answer));
}

HttpResponse OAuthServer::authorize(const HttpRequest& req, const std::string& issuer) {
  const Params p = parse_params(req.query);
  const auto client = grants_.client(param(p, "client_id"));
  const std::string redirect_uri = param(p, "redirect_uri");
  // Errors that must not be redirected (the redirect target is not trusted yet).
  if (!client) return oauth_error(400, "invalid_client", "client_id: unknown; register at /register first");
  const auto& allowed = client->redirect_uris;
  if (std::find(allowed.begin(), allowed.end(), redirect_uri) == allowed.end())
    return oauth_error(400, "invalid_request", "redirect_uri: not one registered for this client");
  const std::string state = param(p, "state");
  auto refuse = [&](std::string_view error, std::string_view description) {
    return redirect(with_params(
        redirect_uri,
        {{"error", std::string(error)}, {"error_description", std::string(description)}, {"state", state}}));
  };
  if (param(p, "response_type") != "code") return refuse("unsupported_response_type", "response_type must be code");
  if (param(p, "code_challenge").empty() || param(p, "code_challenge_method") != "S256")
    return refuse("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256");
  const std::string login_state =
      grants_.begin_login(PendingLogin{param(p, "client_id"), redirect_uri, param(p, "code_challenge"), state, {}});
  return redirect(login_->login_url(issuer, issuer + std::string(kCallbackPath), login_state));
}

asio::awaitable<HttpResponse> OAuthServer::callback(const HttpRequest& req, std::string issuer) {
  const Params p = parse_params(req.query);
  auto login = grants_.take_login(param(p, "state"));
  if (!login) co_return oauth_error(400, "invalid_request", "this login expired or was already used; start again");
  auto refuse = [&](std::string_view error, std::string_view description) {
    return redirect(with_params(login->redirect_uri, {{"error", std::string(error)},
                                                      {"error_description", std::string(description)},
                                                      {"state", login->client_state}}));
  };
  const std::string code = param(p, "code");
  if (code.empty()) co_return refuse("access_denied", "the login was cancelled");
  std::optional<std::string> user;
  try {
    user = co_await login_->complete(std::move(issuer), code);
  } catch (const std::exception& e) {
    spdlog::warn("oauth: login step failed: {}", e.what());
  }
  if (!user) co_return refuse("access_denied", "the login was refused");
  const std::string our_code =
      grants_.issue_code(CodeGrant{login->client_id, login->redirect_uri, login->code_challenge, *user, {}});
  co_return redirect(with_params(login->redirect_uri, {{"code", our_code}, {"state", login->client_state}}));
}

HttpResponse OAuthServer::token(const HttpRequest& req) {
  const Params p = parse_params(req.body);
  const std::string grant = param(p, "grant_type"), client_id = param(p, "client_id");
  IssuedTokens issued;
  if (grant == "authorization_code") {
    auto code = grants_.take_code(param(p, "code"));
    if (!code || code->client_id != client_id || code->redirect_uri != param(p, "redirect_uri"))
      return oauth_error(400, "invalid_grant",
                         "code: unknown, expired, used, or not issued to this client/redirect_uri");
    if (!pkce_s256_matches(param(p, "code_verifier"), code->code_challenge))
      return oauth_error(400, "invalid_grant", "code_verifier: does not match the code_challenge");
    issued = grants_.issue_tokens(code->user, client_id);
  } else if (grant == "refresh_token") {
    auto rotated = grants_.rotate(param(p, "refresh_token"), client_id);
    if (!rotated) return oauth_error(400, "invalid_grant", "refresh_token: unknown, revoked or already used");
    issued = std::move(*rotated);
  } else {
    return oauth_error(400, "unsupported_grant_type", "grant_type: authorization_code or refresh_token");
  }
  return no_store(HttpResponse::json(200, json::object{{"access_token", issued.access_token},
                                                       {"token_type", "Bearer"},
                                                       {"expires_in", issued.expires_in},
                                                       {"refresh_token", issued.refresh_token},
                                                       {"scope", "mcp"}}));
}

HttpResponse OAuthServer::revoke(const HttpRequest& req) {
  // RFC 7009 §2.2: 200 whether or not the token was known.
  if (auto user = grants_.revoke(param(parse_params(req.body), "token"))) login_->forget(*user);
  return no_store(HttpResponse::text(200, ""));
}

}  // namespace hamcp::mcp::http::oauth
