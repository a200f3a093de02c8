#pragma once
// The login step of hamcp's OAuth mode: Home Assistant's own OAuth2. The
// user's browser logs in at HA's /auth/authorize with hamcp's public URL as
// client_id (HA's IndieAuth rule: the redirect URI /oauth/callback is on the
// same host, so no client registration at HA is needed); hamcp trades the code
// at HA's /auth/token. Each hamcp login holds its own HA refresh token, never
// a long-lived token; the tokens are kept in <data dir>/ha-grants.json (0600)
// and never logged. Revoking the hamcp grant revokes the HA refresh token too.
// access_token() gives a user's HA access token for their tool calls
// (home/user_connections): refreshed near expiry, one refresh in flight per
// grant; a refresh HA refuses ends the grant.

#include <boost/asio/experimental/concurrent_channel.hpp>
#include <filesystem>
#include <functional>
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

  // A valid HA access token of `user` (refreshed at HA when near expiry; one
  // refresh in flight per user, the other callers wait for it). nullopt: no
  // grant, or HA refused the refresh (the grant then ends) or was unreachable.
  boost::asio::awaitable<std::optional<std::string>> access_token(std::string user);
  // Called (any thread) when a user's HA grant ends: revoked or refused by HA.
  void on_grant_ended(std::function<void(const std::string& user)> callback);

 private:
  struct HaGrant {
    std::string client_id, refresh_token, access_token;
    std::int64_t expires_at = 0;  // unix seconds
  };
  using RefreshDone = boost::asio::experimental::concurrent_channel<void(boost::system::error_code)>;
  void save() const;  // under mutex_
  void load();
  // One refresh at HA; updates or (refused) ends the grant.
  boost::asio::awaitable<std::optional<std::string>> refresh(std::string user, HaGrant grant);
  void grant_ended(const std::string& user);

  boost::asio::any_io_executor executor_;
  std::shared_ptr<const ha::ConnectionSettings> ha_;
  std::string browser_url_;
  std::filesystem::path file_;
  mutable std::mutex mutex_;
  std::map<std::string, HaGrant, std::less<>> grants_;                           // by hamcp user id
  std::map<std::string, std::shared_ptr<RefreshDone>, std::less<>> refreshing_;  // closed when done
  std::function<void(const std::string&)> on_grant_ended_;
};

}  // namespace hamcp::app
