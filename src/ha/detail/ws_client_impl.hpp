#pragma once
// WsClient's insides, shared by ws_client.cpp (the public operations) and
// ws_connection.cpp (the loop that keeps a connection). Its parts:
//   WsLink  - one connection's stream, handshake and auth (ws_link.hpp)
//   WsCalls - commands waiting, subscriptions, the outbox (ws_calls.hpp)
//   WsInbox - frames parsed and dispatched in order (ws_inbox.hpp)
// Threading: everything below "strand-only" runs on `strand`; the status
// fields are read by any thread under status_mutex; counters are atomics.

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ha/detail/repeat_limiter.hpp"
#include "ha/detail/transport.hpp"
#include "ha/detail/ws_calls.hpp"
#include "ha/detail/ws_inbox.hpp"
#include "ha/detail/ws_link.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = boost::asio::ssl;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;
using detail::ParseJob;
using detail::RepeatLimiter;
using detail::Slot;
using detail::Waiter;
using detail::WsCalls;
using detail::WsInbox;
using detail::WsLink;

struct WsClient::Impl : std::enable_shared_from_this<WsClient::Impl> {
  asio::any_io_executor executor;
  asio::strand<asio::any_io_executor> strand;
  ConnectionSettings settings;
  WsOptions options;
  std::shared_ptr<ssl::context> ssl_ctx;
  asio::thread_pool parse_pool{1};

  // ---- strand-only state ----
  std::shared_ptr<WsLink> link;  // null between connections
  std::uint64_t generation = 0;  // bumps on every connection
  WsCalls calls{strand};
  WsInbox inbox{calls, settings, options.offload_parse_bytes};
  std::unique_ptr<asio::steady_timer> backoff_timer;
  std::vector<StateHandler> state_handlers;
  Clock::time_point last_activity = Clock::now();
  bool stopped = false;
  bool started = false;
  bool heartbeat_failed = false;
  int auth_failures = 0;
  static constexpr int kMaxAuthAttempts = 3;
  std::mt19937 rng{std::random_device{}()};
  // Repeated failures are logged rate-limited (see RepeatLimiter).
  RepeatLimiter connect_log, lost_log;

  // ---- shared with other threads ----
  mutable std::mutex status_mutex;
  WsState state_value = WsState::idle;
  std::optional<HaError> last_error_value;
  std::string ha_version_value;
  std::atomic<std::uint64_t> connect_count{0};
  std::atomic<std::size_t> subscription_count{0};

  Impl(asio::any_io_executor ex, ConnectionSettings s, WsOptions o)
      : executor(ex), strand(asio::make_strand(ex)), settings(std::move(s)), options(o) {}

  ~Impl() { parse_pool.join(); }

  void set_state(WsState st, std::optional<HaError> err);
  bool connected() const { return link && state_value == WsState::connected; }
  void close_socket() {
    if (link) link->close();
  }

  // ws_connection.cpp: connecting, the loop that keeps a connection, writer, heartbeat, reader
  asio::awaitable<std::optional<HaError>> connect_once();
  std::chrono::milliseconds backoff_delay(int failures);
  asio::awaitable<void> run();
  asio::awaitable<void> wait_after_connect_failure(const HaError& error, int& failures);
  void on_connected();
  void on_connection_lost(const HaError& lost);
  asio::awaitable<void> sleep(std::chrono::milliseconds d);
  asio::awaitable<void> writer(std::uint64_t gen);
  asio::awaitable<void> heartbeat(std::uint64_t gen);
  asio::awaitable<bool> await_pong(std::uint64_t gen, std::uint64_t id, const std::shared_ptr<Waiter>& w);
  asio::awaitable<HaError> read_loop();
  boost::system::error_code on_frame(beast::flat_buffer buffer, std::uint64_t gen);
  void parse_elsewhere(ParseJob job);

  // ws_client.cpp: the public operations
  asio::awaitable<void> wait_connected(Clock::time_point deadline);
  // Throws HaException for every failure, HA's refusal (command_failed) included unless
  // refusal_as_value: then the waiter comes back with its error set.
  asio::awaitable<std::shared_ptr<Waiter>> await_answer(json::object message, std::chrono::milliseconds timeout,
                                                        bool as_text, bool refusal_as_value = false);
  asio::awaitable<json::value> do_command(json::object message, std::chrono::milliseconds timeout);
  asio::awaitable<RawResult> do_command_raw(json::object message, std::chrono::milliseconds timeout);
  asio::awaitable<std::uint64_t> do_subscribe(json::object message, EventHandler handler);
  std::uint64_t drop_subscription(std::uint64_t handle);
  asio::awaitable<void> do_unsubscribe(std::uint64_t handle);
};

}  // namespace hamcp::ha
