#pragma once
// Home Assistant WebSocket API client (Beast kept out of this header).
// - Real handshake: auth_required -> auth -> auth_ok / auth_invalid; then
//   supported_features{coalesce_messages} so HA may batch messages in arrays.
// - One multiplexed connection; ids strictly increase per connection.
// - Per-command timeouts; commands in flight when the connection drops fail at
//   once with a retryable connection_lost error (never hang).
// - Subscriptions survive reconnects: every active one is re-sent with a new id.
// - Frames up to 256 MiB; big frames are parsed off the I/O strand so pings and
//   other commands keep flowing.
// - Heartbeat: HA-level ping every interval; dead if neither pong nor any byte
//   arrives within the deadline. Reconnect: exponential backoff + jitter.
// All callbacks run on the client's strand: keep them short.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ha/byte_stream.hpp"
#include "ha/connection_config.hpp"
#include "ha/errors.hpp"

namespace hamcp::ha {

struct WsOptions {
  std::chrono::milliseconds command_timeout{30000};
  std::chrono::milliseconds connect_wait{5000};  // how long a command waits for a connection
  std::chrono::milliseconds heartbeat_interval{30000};
  std::chrono::milliseconds heartbeat_timeout{20000};
  std::chrono::milliseconds reconnect_initial{500};
  std::chrono::milliseconds reconnect_max{30000};
  // A connection that stayed up this long resets the reconnect backoff; one
  // that drops sooner counts as another failure.
  std::chrono::milliseconds healthy_after{30000};
  std::size_t max_message_bytes = std::size_t{256} * 1024 * 1024;
  std::size_t offload_parse_bytes = std::size_t{1} * 1024 * 1024;  // parse bigger frames on a worker thread
  bool coalesce_messages = true;
  // Empty (production): TCP, and TLS for https. Set: every connection is a stream it makes
  // (tests and fuzz targets: an in-memory Home Assistant); upgrade, auth and timeouts as over TCP.
  StreamConnector connector;
};

// A command's result as Home Assistant sent it, unparsed: for results too big
// to hold as a DOM (registry lists of large homes). text is the JSON of the
// message's "result"; owner keeps the bytes it points into alive.
struct RawResult {
  std::shared_ptr<const void> owner;
  std::string_view text;
};

enum class WsState { idle, connecting, connected, waiting_to_reconnect, stopped };
std::string_view to_string(WsState state) noexcept;

class WsClient {
 public:
  // event: the "event" member of an event message. first: the first event
  // since this subscription was (re)sent, e.g. subscribe_entities' full "a" set.
  // The event is the handler's to keep: it may move parts out of it (the
  // initial subscribe_entities event of a big home is hundreds of MB as a DOM;
  // moving its attributes instead of copying them halves the sync's peak).
  // Handlers taking `const boost::json::value&` still fit.
  using EventHandler = std::function<void(boost::json::value& event, bool first)>;
  using StateHandler = std::function<void(WsState state, const std::optional<HaError>& error)>;

  WsClient(boost::asio::any_io_executor executor, ConnectionSettings settings, WsOptions options = {});
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Connect in the background and keep reconnecting. Never throws.
  void start();
  // Close for good; pending commands fail with not_connected.
  void stop();

  // Send {"type":..., ...} (id added here) and return its "result" (null when
  // absent, e.g. pong). Throws HaException: command_failed (HA said no; ha_code
  // set), timeout, connection_lost (retryable), not_connected.
  boost::asio::awaitable<boost::json::value> command(boost::json::object message,
                                                     std::optional<std::chrono::milliseconds> timeout = {});

  // command(), but the result is handed over as text (see RawResult).
  boost::asio::awaitable<RawResult> command_raw(boost::json::object message,
                                                std::optional<std::chrono::milliseconds> timeout = {});

  // Send a subscribing command (subscribe_events, subscribe_entities,
  // render_template, ...) and route its events to handler, across reconnects.
  // Returns a handle that stays valid across reconnects.
  boost::asio::awaitable<std::uint64_t> subscribe(boost::json::object message, EventHandler handler);
  // Drop the subscription locally and send unsubscribe_events (errors ignored).
  boost::asio::awaitable<void> unsubscribe(std::uint64_t handle);

  // Skip the current reconnect wait, e.g. after the user fixed the token (a
  // rejected token is tried 3 times, then no more: HA bans IPs that keep failing).
  void reconnect_now();

  // Called on every state change (connected after each (re)connect, etc.).
  void on_state_change(StateHandler handler);

  WsState state() const;
  std::optional<HaError> last_error() const;
  std::string ha_version() const;
  std::uint64_t connects() const;  // successful connections so far (1 = never reconnected)
  std::size_t active_subscriptions() const;
  // Events skipped because they nest deeper than HA JSON's depth limit (256):
  // such a message is rejected on its own (a command it answers fails with a
  // protocol_error naming the depth), the connection stays up.
  std::uint64_t too_deep_events_skipped() const;

  // Test hook: drop the current connection as if the network failed.
  void drop_connection_for_testing();

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::ha
