#pragma once
// The one object the rest of hamcp uses to talk to Home Assistant: owns the
// REST client, the WebSocket client and the live mirror. Construction never
// throws and never blocks: with a bad URL or an unreachable HA it still exists,
// reports status() / last_failure(), and every call throws a typed HaException
// that explains the problem and the fix. Knows nothing of MCP.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ha/connection_config.hpp"
#include "ha/errors.hpp"
#include "ha/mirror.hpp"
#include "ha/rest_client.hpp"
#include "ha/snapshot.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

struct HaClientOptions {
  WsOptions ws;
  MirrorOptions mirror;
  bool enable_mirror = true;
};

struct ServiceCall {
  std::string domain;
  std::string service;
  boost::json::object data;    // service_data
  boost::json::object target;  // {entity_id, device_id, area_id, floor_id, label_id}; empty = none
  bool return_response = false;
  std::optional<std::chrono::milliseconds> timeout;
};

class HaClient {
 public:
  // Validated settings.
  HaClient(boost::asio::any_io_executor executor, ConnectionSettings settings, HaClientOptions options = {});
  // Raw input: a bad URL gives a client whose every call fails with that error.
  static std::unique_ptr<HaClient> from_input(boost::asio::any_io_executor executor, const ConnectionInput& input,
                                              HaClientOptions options = {});
  ~HaClient();
  HaClient(const HaClient&) = delete;
  HaClient& operator=(const HaClient&) = delete;

  // Start connecting + mirroring in the background. Never throws, never blocks.
  void start();
  void stop();

  bool configured() const noexcept { return settings_.has_value(); }
  const ConnectionSettings* settings() const noexcept { return settings_ ? &*settings_ : nullptr; }

  SnapshotPtr snapshot() const;  // never null
  MirrorStatus status() const;
  // The most useful typed diagnosis of why HA is not (fully) reachable, if any.
  std::optional<HaError> last_failure() const;
  std::size_t add_change_listener(ChangeListener listener);
  void remove_change_listener(std::size_t id);
  boost::asio::awaitable<bool> wait_synced(std::chrono::milliseconds timeout);

  // WebSocket command: {"type":...}; returns "result". Throws HaException.
  boost::asio::awaitable<boost::json::value> command(boost::json::object message,
                                                     std::optional<std::chrono::milliseconds> timeout = {});
  // call_service over WebSocket; returns HA's result ({"context", "response"?}).
  // Never retried: a write must not run twice.
  boost::asio::awaitable<boost::json::value> call_service(ServiceCall call);
  boost::asio::awaitable<std::uint64_t> subscribe(boost::json::object message, WsClient::EventHandler handler);
  boost::asio::awaitable<void> unsubscribe(std::uint64_t handle);

  boost::asio::awaitable<Response> rest_get(std::string path, RequestOptions options = {});
  boost::asio::awaitable<Response> rest_post(std::string path, boost::json::value body, RequestOptions options = {});
  boost::asio::awaitable<boost::json::value> rest_get_json(std::string path, RequestOptions options = {});
  boost::asio::awaitable<boost::json::value> rest_post_json(std::string path, boost::json::value body,
                                                            RequestOptions options = {});

  // Direct access for advanced callers and tests (null when not configured).
  WsClient* ws() noexcept { return ws_.get(); }
  RestClient* rest() noexcept { return rest_.get(); }
  Mirror* mirror() noexcept { return mirror_.get(); }

 private:
  HaClient(boost::asio::any_io_executor executor, HaError config_error);
  [[noreturn]] void throw_unconfigured() const;

  boost::asio::any_io_executor executor_;
  std::optional<ConnectionSettings> settings_;
  std::optional<HaError> config_error_;
  std::shared_ptr<RestClient> rest_;
  std::shared_ptr<WsClient> ws_;
  std::unique_ptr<Mirror> mirror_;
};

}  // namespace hamcp::ha
