#pragma once
// What hamcp's authorization server remembers: registered clients (RFC 7591),
// logins in progress, one-time authorization codes (PKCE S256), access tokens
// and refresh tokens (rotated on use, RFC 9700 §4.14: a replayed refresh token
// ends its whole family). Tokens are kept as SHA-256 hashes only; clients and
// token hashes persist in <data dir>/oauth-grants.json (0600) so a restart
// logs nobody out. Thread-safe (one mutex).

#include <boost/json/object.hpp>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::mcp::http::oauth {

using Clock = std::chrono::system_clock;

struct Client {
  std::string name;
  std::vector<std::string> redirect_uris;
};

struct PendingLogin {  // between /authorize and the login's callback
  std::string client_id, redirect_uri, code_challenge, client_state;
  Clock::time_point expires;
};

struct CodeGrant {  // an authorization code, used once
  std::string client_id, redirect_uri, code_challenge, user;
  Clock::time_point expires;
};

struct IssuedTokens {
  std::string access_token, refresh_token;
  long expires_in = 0;
};

class Grants {
 public:
  explicit Grants(std::filesystem::path file);

  std::string register_client(Client client);  // the new client_id
  std::optional<Client> client(std::string_view client_id) const;

  std::string begin_login(PendingLogin login);  // the state sent to the login step
  std::optional<PendingLogin> take_login(std::string_view state);
  std::string issue_code(CodeGrant grant);
  std::optional<CodeGrant> take_code(std::string_view code);

  IssuedTokens issue_tokens(const std::string& user, const std::string& client_id);
  // Rotation: the old refresh token ends, new ones are issued; a token already
  // rotated away revokes its family. nullopt: invalid_grant.
  std::optional<IssuedTokens> rotate(std::string_view refresh_token, std::string_view client_id);
  // RFC 7009: an access or refresh token; a refresh token ends its family. The
  // user whose family ended, if any.
  std::optional<std::string> revoke(std::string_view token);
  std::optional<std::string> user_of_access_token(std::string_view token) const;

  static constexpr std::chrono::seconds kAccessLifetime{3600};

 private:
  struct Token {
    std::string user, client_id, family;
    Clock::time_point expires;  // refresh tokens: far future
    bool refresh = false, used = false;
  };
  void save() const;  // under mutex_
  void load();
  void load_from(const boost::json::object& doc);  // throws on a malformed document
  void end_family(std::string family);

  std::filesystem::path file_;
  mutable std::mutex mutex_;
  std::map<std::string, Client, std::less<>> clients_;
  std::map<std::string, PendingLogin, std::less<>> logins_;
  std::map<std::string, CodeGrant, std::less<>> codes_;
  std::map<std::string, Token, std::less<>> tokens_;  // by SHA-256 hex of the token
};

// Helpers shared with the endpoints.
std::string random_token(std::size_t bytes = 32);  // base64url
std::string sha256_hex(std::string_view text);
// PKCE S256: base64url(SHA-256(verifier)) == challenge, in constant time.
bool pkce_s256_matches(std::string_view verifier, std::string_view challenge);

}  // namespace hamcp::mcp::http::oauth
