#include "home/user_connections.hpp"

#include <spdlog/spdlog.h>

namespace hamcp::home {

UserConnections::UserConnections(boost::asio::any_io_executor executor, ha::ConnectionSettings base,
                                 ha::HaClientOptions options, Limits limits)
    : executor_(std::move(executor)), base_(std::move(base)), options_(std::move(options)), limits_(limits) {
  base_.token = ha::Secret();  // never act with hamcp's own token here
  options_.enable_mirror = false;
}

UserConnections::~UserConnections() {
  std::lock_guard lock(mutex_);
  for (auto& [user, entry] : open_) entry.client->stop();
}

void UserConnections::set_token_source(TokenSource source) {
  std::lock_guard lock(mutex_);
  tokens_ = std::move(source);
}

boost::asio::awaitable<std::shared_ptr<ha::HaClient>> UserConnections::client_for(std::string user) {
  TokenSource source;
  {
    std::lock_guard lock(mutex_);
    source = tokens_;
  }
  std::optional<std::string> token;
  if (source) {
    auto getting = source(user);  // named: GCC 12 coroutine temporaries
    token = co_await std::move(getting);
  }
  if (!token || token->empty()) {
    close(user);
    throw ha::HaException(ha::make_error(ha::ErrorCause::unauthorized, base_.display_url,
                                         "your Home Assistant sign-in has ended or was revoked"));
  }
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  close_idle_locked(now);
  auto it = open_.find(user);
  if (it != open_.end() && it->second.token.reveal() == *token) {
    it->second.last_used = now;
    co_return it->second.client;
  }
  // New, or the token was refreshed: a client with the new token. The old one
  // stops once the calls holding it end (the last shared_ptr).
  ha::ConnectionSettings settings = base_;
  settings.token = ha::Secret(*token);
  // Inside the add-on, hamcp's SUPERVISOR_TOKEN would send the user's
  // Supervisor calls straight to the Supervisor with hamcp's rights. Without
  // it they go through Home Assistant (WS supervisor/api, /api/hassio) with
  // the user's token, and HA decides: admins all, others only what HA allows
  // non-admins (an add-on's info, ingress sessions).
  settings.supervisor_token = ha::Secret();
  auto client = std::make_shared<ha::HaClient>(executor_, std::move(settings), options_);
  client->start();
  if (it == open_.end() && open_.size() >= limits_.max_users) evict_oldest_locked();
  open_[user] = Entry{client, ha::Secret(std::move(*token)), now};
  co_return client;
}

void UserConnections::close(const std::string& user) {
  std::shared_ptr<ha::HaClient> closing;
  {
    std::lock_guard lock(mutex_);
    auto it = open_.find(user);
    if (it == open_.end()) return;
    closing = std::move(it->second.client);
    open_.erase(it);
  }
  closing->stop();  // the user's access ends now, not when in-flight calls finish
  spdlog::info("oauth: closed a signed-in user's Home Assistant connection (grant ended)");
}

std::size_t UserConnections::open_count() const {
  std::lock_guard lock(mutex_);
  return open_.size();
}

void UserConnections::close_idle_locked(std::chrono::steady_clock::time_point now) {
  std::erase_if(open_, [&](const auto& kv) { return now - kv.second.last_used > limits_.idle; });
}

void UserConnections::evict_oldest_locked() {
  auto oldest = open_.begin();
  for (auto it = open_.begin(); it != open_.end(); ++it)
    if (it->second.last_used < oldest->second.last_used) oldest = it;
  if (oldest != open_.end()) open_.erase(oldest);  // stops when its in-flight calls end
}

std::uint64_t UserConnections::remember_subscription(std::shared_ptr<ha::HaClient> client, std::uint64_t handle) {
  std::lock_guard lock(mutex_);
  const std::uint64_t id = next_subscription_++;
  subscriptions_[id] = {std::move(client), handle};
  return id;
}

boost::asio::awaitable<void> UserConnections::unsubscribe(std::uint64_t id) {
  std::pair<std::shared_ptr<ha::HaClient>, std::uint64_t> held;
  {
    std::lock_guard lock(mutex_);
    auto it = subscriptions_.find(id);
    if (it == subscriptions_.end()) co_return;
    held = std::move(it->second);
    subscriptions_.erase(it);
  }
  auto unsubscribing = held.first->unsubscribe(held.second);  // named: GCC 12 coroutine temporaries
  co_await std::move(unsubscribing);
}

}  // namespace hamcp::home
