#pragma once
// Home Assistant's own OAuth2 (components/auth): users of the homeassistant
// auth provider, login flows (POST /auth/login_flow, /auth/login_flow/<id>),
// authorization codes, refresh tokens and the access tokens they mint. Lets
// hamcp's `--auth oauth` log MCP users in through "HA" headlessly.
// Thread-safe (one mutex); tokens are random hex, checked in constant time.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace hamcp::sim {

struct SimUser {
  std::string id, name, username, password;
  bool is_admin = false;
};

class SimAuth {
 public:
  SimAuth();

  struct Flow {
    std::string client_id, redirect_uri;
  };
  struct Tokens {
    std::string access_token, refresh_token;
  };

  // A login flow of the homeassistant provider; its id.
  std::string start_flow(std::string client_id, std::string redirect_uri);
  std::optional<Flow> flow(std::string_view flow_id) const;
  // The code for the user's credentials (the flow ends), nullopt: invalid_auth.
  std::optional<std::string> finish_flow(std::string_view flow_id, std::string_view username,
                                         std::string_view password);
  // authorization_code grant: nullopt when code/client do not match (a code is used once).
  std::optional<Tokens> exchange_code(std::string_view client_id, std::string_view code);
  // refresh_token grant: a new access token; nullopt: invalid_grant.
  std::optional<std::string> refresh(std::string_view client_id, std::string_view refresh_token);
  // Revokes a refresh token and every access token it minted (unknown: no-op).
  void revoke(std::string_view refresh_token);

  // The user an issued access token belongs to.
  std::optional<SimUser> user_of(std::string_view access_token) const;
  void add_user(SimUser user);

 private:
  struct Grant {
    std::string client_id, user_id;
  };
  mutable std::mutex mutex_;
  std::map<std::string, SimUser, std::less<>> users_;  // by username
  std::map<std::string, Flow, std::less<>> flows_;
  std::map<std::string, Grant, std::less<>> codes_, refresh_;
  std::map<std::string, std::string, std::less<>> access_;  // access token -> refresh token
};

}  // namespace hamcp::sim
