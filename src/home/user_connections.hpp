#pragma once
// Home Assistant as each OAuth user (hamcp --auth oauth): one small HA client
// per signed-in user, connected with that user's own HA access token, so HA's
// own permission checks apply to every command, REST call and service call a
// tool makes for them (a non-admin user is refused admin-only commands by HA).
// Clients have no mirror (reads of states stay on the shared live mirror), are
// made lazily, bounded in number (least recently used closed first), closed
// when idle, replaced when the user's token is refreshed, and closed at once
// when the user's grant ends (close()). Tokens are never logged. Thread-safe.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ha/ha_client.hpp"

namespace hamcp::home {

class UserConnections {
 public:
  // The user's valid HA access token (refreshed when near expiry); nullopt:
  // the grant is gone or HA refused to refresh it.
  using TokenSource = std::function<boost::asio::awaitable<std::optional<std::string>>(std::string user)>;
  struct Limits {
    std::size_t max_users = 32;                           // open clients at most
    std::chrono::seconds idle{std::chrono::minutes(10)};  // unused this long: closed
  };

  // `base`: how hamcp reaches HA (its token is replaced by each user's).
  UserConnections(boost::asio::any_io_executor executor, ha::ConnectionSettings base, ha::HaClientOptions options,
                  Limits limits);
  UserConnections(boost::asio::any_io_executor executor, ha::ConnectionSettings base, ha::HaClientOptions options)
      : UserConnections(std::move(executor), std::move(base), std::move(options), Limits{}) {}
  ~UserConnections();
  UserConnections(const UserConnections&) = delete;
  UserConnections& operator=(const UserConnections&) = delete;

  void set_token_source(TokenSource source);
  // The client acting as `user`. Throws ha::HaException (cause unauthorized)
  // when the user has no valid grant; that user's open client is then closed.
  boost::asio::awaitable<std::shared_ptr<ha::HaClient>> client_for(std::string user);
  // The user's grant ended: close their client now (pending commands fail).
  void close(const std::string& user);
  std::size_t open_count() const;

  // A subscription made through a user's client, kept with that client so the
  // unsubscribe reaches the same connection; ids are this object's own.
  std::uint64_t remember_subscription(std::shared_ptr<ha::HaClient> client, std::uint64_t handle);
  boost::asio::awaitable<void> unsubscribe(std::uint64_t id);

 private:
  struct Entry {
    std::shared_ptr<ha::HaClient> client;
    ha::Secret token;  // the one the client authenticated with
    std::chrono::steady_clock::time_point last_used;
  };
  void close_idle_locked(std::chrono::steady_clock::time_point now);
  void evict_oldest_locked();

  boost::asio::any_io_executor executor_;
  ha::ConnectionSettings base_;
  ha::HaClientOptions options_;
  Limits limits_;
  mutable std::mutex mutex_;
  TokenSource tokens_;
  std::map<std::string, Entry, std::less<>> open_;
  std::map<std::uint64_t, std::pair<std::shared_ptr<ha::HaClient>, std::uint64_t>> subscriptions_;
  std::uint64_t next_subscription_ = 1;
};

}  // namespace hamcp::home
