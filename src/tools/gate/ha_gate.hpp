#pragma once
// The one way tools reach Home Assistant. It forwards to ha::HaClient, and in
// read-only mode refuses, before anything is sent, every request the policy
// (read_policy.hpp) does not know as a read: a ToolException with code
// "read_only" naming what was refused. Tools get no raw REST or WebSocket
// client, so no write can pass beside it. With entity visibility rules
// (visibility.hpp) it also refuses every request naming a hidden entity or
// acting on a group holding one: code "entity_hidden".
// A user's gate (as_user, hamcp --auth oauth) sends every WebSocket command,
// service call, subscription and REST call as that signed-in user, through
// their own HA connection (home/user_connections.hpp), so HA's permission
// checks apply; reads of the shared mirror stay shared.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ha/ha_client.hpp"
#include "home/user_connections.hpp"
#include "tools/gate/read_policy.hpp"
#include "tools/gate/visibility.hpp"

namespace hamcp::tools {

class HaGate {
 public:
  HaGate(ha::HaClient& client, bool read_only, std::shared_ptr<Visibility> visibility = {})
      : client_(client), read_only_(read_only), visibility_(std::move(visibility)) {}

  bool read_only() const noexcept { return read_only_; }
  // The same client behind a gate that refuses writes.
  HaGate read_only_gate() const {
    HaGate gate(client_, true, visibility_);
    gate.users_ = users_;
    gate.principal_ = principal_;
    return gate;
  }
  // This gate acting as the OAuth user `principal` (their own HA connection).
  HaGate as_user(std::shared_ptr<home::UserConnections> users, std::string principal) const {
    HaGate gate(client_, read_only_, visibility_);
    gate.users_ = std::move(users);
    gate.principal_ = std::move(principal);
    return gate;
  }
  // The OAuth user this gate acts as; empty: hamcp's configured token.
  const std::string& principal() const noexcept { return principal_; }
  // Throws the read_only ToolException when this gate may not send the request.
  void check(RequestKind kind, std::string_view what) const;

  // Entity visibility: the entities hidden now (an empty set without rules).
  HiddenSetPtr hidden_now() const;
  // The same, first reading exposure to Assist again when the rules need it and it is stale.
  boost::asio::awaitable<HiddenSetPtr> hidden_entities();
  // A write may have changed exposure to Assist.
  void exposure_may_have_changed() const {
    if (visibility_) visibility_->invalidate_exposure();
  }

  // The mirror and the connection's state: reads of hamcp's own memory.
  bool configured() const noexcept { return client_.configured(); }
  const ha::ConnectionSettings* settings() const noexcept { return client_.settings(); }
  ha::SnapshotPtr snapshot() const { return client_.snapshot(); }
  ha::MirrorStatus status() const { return client_.status(); }
  std::optional<ha::HaError> last_failure() const { return client_.last_failure(); }
  // WebSocket connections made so far (0: none yet): a restart shows as a new one.
  std::uint64_t ws_connects() const { return client_.ws() ? client_.ws()->connects() : 0; }
  boost::asio::awaitable<bool> wait_synced(std::chrono::milliseconds timeout) { return client_.wait_synced(timeout); }

  boost::asio::awaitable<boost::json::value> command(boost::json::object message,
                                                     std::optional<std::chrono::milliseconds> timeout = {});
  boost::asio::awaitable<boost::json::value> call_service(ha::ServiceCall call);
  boost::asio::awaitable<std::uint64_t> subscribe(boost::json::object message, ha::WsClient::EventHandler handler);
  boost::asio::awaitable<void> unsubscribe(std::uint64_t handle);

  boost::asio::awaitable<ha::Response> rest_get(std::string path, ha::RequestOptions options = {});
  boost::asio::awaitable<ha::Response> rest_post(std::string path, boost::json::value body,
                                                 ha::RequestOptions options = {});
  boost::asio::awaitable<ha::Response> rest_delete(std::string path, ha::RequestOptions options = {});
  boost::asio::awaitable<boost::json::value> rest_get_json(std::string path, ha::RequestOptions options = {});
  boost::asio::awaitable<boost::json::value> rest_post_json(std::string path, boost::json::value body,
                                                            ha::RequestOptions options = {});

  // The Supervisor (ha/supervisor_client.hpp): method "get" | "post" | "delete";
  // the reply's data. Throws ha::SupervisorException ("no Supervisor here" included).
  boost::asio::awaitable<boost::json::value> supervisor(std::string method, std::string path,
                                                        boost::json::object body = {}, boost::json::object params = {});
  // A Supervisor text log (the newest `lines`), see SupervisorClient::log_text.
  boost::asio::awaitable<std::string> supervisor_log(std::string path, int lines);
  // An add-on's own HTTP API (SupervisorClient::addon_http): never a known read.
  boost::asio::awaitable<ha::Response> addon_http(std::string slug, std::string host, std::uint16_t port,
                                                  std::string method, std::string path, boost::json::value body);
  // The same through the add-on's ingress (SupervisorClient::ingress_http): the
  // session it opens is part of the request, gated as "PROXY <METHOD> slug path".
  boost::asio::awaitable<ha::Response> addon_ingress(std::string slug, std::string token, std::string method,
                                                     std::string path, boost::json::value body);

 private:
  // Throws the entity_hidden ToolException when `request` names a hidden entity.
  void check_visible(const boost::json::value& request) const;

  // The client requests go through: the user's own (as_user) or the shared one.
  // Throws ha::HaException (unauthorized) when the user's grant has ended.
  boost::asio::awaitable<std::shared_ptr<ha::HaClient>> acting_client();

  ha::HaClient& client_;
  bool read_only_;
  std::shared_ptr<Visibility> visibility_;        // null: no rules
  std::shared_ptr<home::UserConnections> users_;  // set with principal_
  std::string principal_;
};

}  // namespace hamcp::tools
