#include "app/ha_login.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <boost/url/url.hpp>
#include <fstream>
#include <sstream>

#include "ha/form_post.hpp"

namespace hamcp::app {
namespace {

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string form_encode(std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out += '&';
    out += boost::urls::encode(k, boost::urls::unreserved_chars);
    out += '=';
    out += boost::urls::encode(v, boost::urls::unreserved_chars);
  }
  return out;
}

// HA identifies hamcp by its public URL (IndieAuth client_id): "https://x/".
std::string client_id_of(std::string_view issuer) { return std::string(issuer) + "/"; }

}  // namespace

HaLogin::HaLogin(boost::asio::any_io_executor executor, ha::ConnectionSettings ha, std::string browser_url,
                 std::filesystem::path data_dir)
    : executor_(executor),
      browser_url_(browser_url.empty() ? ha.display_url : std::move(browser_url)),
      file_(data_dir.empty() ? std::filesystem::path() : data_dir / "ha-grants.json") {
  ha.token = ha::Secret();  // the auth endpoints take no token; never send the server's own
  ha_ = std::make_shared<const ha::ConnectionSettings>(std::move(ha));
  while (!browser_url_.empty() && browser_url_.back() == '/') browser_url_.pop_back();
  load();
}

std::string HaLogin::login_url(std::string_view issuer, std::string_view callback, std::string_view state) {
  boost::urls::url url(browser_url_ + "/auth/authorize");
  url.params().append({"response_type", "code"});
  url.params().append({"client_id", client_id_of(issuer)});
  url.params().append({"redirect_uri", callback});
  url.params().append({"state", state});
  return std::string(url.buffer());
}

boost::asio::awaitable<std::optional<std::string>> HaLogin::complete(std::string issuer, std::string code) {
  const std::string client_id = client_id_of(issuer);
  std::string form = form_encode({{"grant_type", "authorization_code"}, {"code", code}, {"client_id", client_id}});
  auto ha = ha_;
  ha::Response r = co_await ha::post_form(*ha, "/auth/token", std::move(form));
  if (!r.ok()) {
    spdlog::warn("oauth: Home Assistant refused the login code (HTTP {})", r.status);
    co_return std::nullopt;
  }
  auto doc = r.json();
  const auto* obj = doc.if_object();
  if (!obj || !obj->contains("access_token") || !obj->contains("refresh_token")) co_return std::nullopt;
  HaGrant grant{client_id, std::string(obj->at("refresh_token").as_string()),
                std::string(obj->at("access_token").as_string()),
                now_seconds() + obj->at("expires_in").to_number<std::int64_t>()};
  std::string user = "ha-" + mcp::http::oauth::random_token(12);
  std::lock_guard lock(mutex_);
  grants_[user] = std::move(grant);
  save();
  co_return user;
}

void HaLogin::forget(const std::string& user) {
  std::string refresh;
  {
    std::lock_guard lock(mutex_);
    auto it = grants_.find(user);
    if (it == grants_.end()) return;
    refresh = it->second.refresh_token;
    grants_.erase(it);
    save();
  }
  grant_ended(user);  // the user's HA connection closes now
  // Revoke at HA too (fire and forget: the local grant is gone either way).
  auto ha = ha_;
  boost::asio::co_spawn(
      executor_,
      [ha, refresh]() -> boost::asio::awaitable<void> {
        std::string form = "token=" + boost::urls::encode(refresh, boost::urls::unreserved_chars);
        try {
          co_await ha::post_form(*ha, "/auth/revoke", std::move(form));
        } catch (const std::exception& e) {
          spdlog::warn("oauth: revoking the Home Assistant grant failed: {}", e.what());
        }
      },
      boost::asio::detached);
}

boost::asio::awaitable<std::optional<std::string>> HaLogin::access_token(std::string user) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    HaGrant grant;
    std::shared_ptr<RefreshDone> other, mine;
    {
      std::lock_guard lock(mutex_);
      auto it = grants_.find(user);
      if (it == grants_.end()) co_return std::nullopt;
      if (it->second.expires_at - 60 > now_seconds()) co_return it->second.access_token;
      grant = it->second;
      auto& inflight = refreshing_[user];
      if (inflight)
        other = inflight;
      else
        mine = inflight = std::make_shared<RefreshDone>(executor_);
    }
    if (other) {  // another call refreshes this grant: wait for it, then read the grant again
      auto waiting = other->async_receive(boost::asio::as_tuple(boost::asio::use_awaitable));
      co_await std::move(waiting);
      continue;
    }
    std::optional<std::string> token;
    try {
      auto refreshing = refresh(user, std::move(grant));  // named: GCC 12 coroutine temporaries
      token = co_await std::move(refreshing);
    } catch (const std::exception& e) {
      spdlog::warn("oauth: refreshing a Home Assistant sign-in failed: {}", e.what());
    }
    {
      std::lock_guard lock(mutex_);
      refreshing_.erase(user);
    }
    mine->close();  // wakes the waiters
    co_return token;
  }
  co_return std::nullopt;
}

boost::asio::awaitable<std::optional<std::string>> HaLogin::refresh(std::string user, HaGrant grant) {
  std::string form = form_encode(
      {{"grant_type", "refresh_token"}, {"refresh_token", grant.refresh_token}, {"client_id", grant.client_id}});
  auto ha = ha_;
  ha::Response r = co_await ha::post_form(*ha, "/auth/token", std::move(form));
  if (r.status >= 400 && r.status < 500) {  // HA refused the grant (revoked, user removed): it ends
    spdlog::warn("oauth: Home Assistant refused to refresh a sign-in (HTTP {}); that user must sign in again",
                 r.status);
    grant_ended(user);
    co_return std::nullopt;
  }
  if (!r.ok()) co_return std::nullopt;
  auto doc = r.json();
  const auto* obj = doc.if_object();
  if (!obj || !obj->contains("access_token")) co_return std::nullopt;
  std::lock_guard lock(mutex_);
  auto it = grants_.find(user);
  if (it == grants_.end()) co_return std::nullopt;  // revoked meanwhile
  it->second.access_token = std::string(obj->at("access_token").as_string());
  it->second.expires_at = now_seconds() + obj->at("expires_in").to_number<std::int64_t>();
  save();
  co_return it->second.access_token;
}

void HaLogin::on_grant_ended(std::function<void(const std::string& user)> callback) {
  std::lock_guard lock(mutex_);
  on_grant_ended_ = std::move(callback);
}

void HaLogin::grant_ended(const std::string& user) {
  std::function<void(const std::string&)> callback;
  {
    std::lock_guard lock(mutex_);
    if (grants_.erase(user) > 0) save();
    callback = on_grant_ended_;
  }
  if (callback) callback(user);
}

void HaLogin::save() const {
  if (file_.empty()) return;
  boost::json::object doc;
  for (const auto& [user, g] : grants_) {
    doc[user] = boost::json::object{{"client_id", g.client_id},
                                    {"refresh_token", g.refresh_token},
                                    {"access_token", g.access_token},
                                    {"expires_at", g.expires_at}};
  }
  const std::string tmp = file_.string() + ".tmp", text = boost::json::serialize(doc);
  ::unlink(tmp.c_str());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  const bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (fd >= 0) ::close(fd);
  if (!ok || ::rename(tmp.c_str(), file_.c_str()) != 0) spdlog::error("oauth: cannot write {}", file_.string());
}

void HaLogin::load() {
  if (file_.empty() || !std::filesystem::exists(file_)) return;
  std::ifstream in(file_);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  auto doc = boost::json::parse(text.str(), ec);
  if (ec || !doc.is_object()) return;
  try {
    for (const auto& [user, g] : doc.as_object()) {
      grants_[std::string(user)] =
          HaGrant{std::string(g.at("client_id").as_string()), std::string(g.at("refresh_token").as_string()),
                  std::string(g.at("access_token").as_string()), g.at("expires_at").as_int64()};
    }
  } catch (const std::exception&) {
    spdlog::warn("oauth: {} is malformed; Home Assistant logins start over", file_.string());
    grants_.clear();
  }
}

}  // namespace hamcp::app
