#pragma once
// The login step of hamcp's OAuth mode: Home Assistant's own OAuth2. The
// user's browser logs in at HA's /auth/authorize with hamcp's public URL as
// client_id (HA's IndieAuth rule: the redirect URI /oauth/callback is on the
// same host, so no client registration at HA is needed); hamcp trades the code
// at HA's /auth/token. Each hamcp login holds its own HA refresh token, never
// a long-lived token; the tokens are kept in <data dir>/ha-grants.json (0600)
// and never logged. Revoking the hamcp grant revokes the HA refresh token too.

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "ha/connection_config.hpp"
#include "mcp/http/oauth/oauth_server.hpp"

namespace hamcp::app {

class HaLogin : public mcp::http::oauth::UpstreamLogin {
 public:
  // `ha`: how hamcp reaches HA (its token is not used); `browser_url`: HA as
  // the user's browser reaches it (empty: ha.display_url).
  HaLogin(boost::asio::any_io_executor executor, ha::ConnectionSettings ha, std::string browser_url,
          std::filesystem::path data_dir);

  std::string login_url(std::string_view issuer, std::string_view callback, std::string_view state) override;
  boost::asio::awaitable<std::optional<std::string>> complete(std::string issuer, std::string code) override;
  void forget(const std::string& user) override;

  // A valid HA access token of `user` (refreshed at HA when near expiry).
  boost::asio::awaitable<std::optional<std::string>> access_token(std::string user);

 private:
  struct HaGrant {
    std::string client_id, refresh_token, access_token;
    std::int64_t expires_at = 0;  // unix seconds
  };
  void save() const;  // under mutex_
  void load();

  boost::asio::any_io_executor executor_;
  std::shared_ptr<const ha::ConnectionSettings> ha_;
  std::string browser_url_;
  std::filesystem::path file_;
  mutable std::mutex mutex_;
  std::map<std::string, HaGrant, std::less<>> grants_;  // by hamcp user id
};

}  // namespace hamcp::app
