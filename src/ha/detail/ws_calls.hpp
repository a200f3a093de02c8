#pragma once
// The WebSocket client's book of what it asked Home Assistant: commands
// waiting for their result, subscriptions (which outlive a connection and are
// re-sent on the next one; command subscriptions end with it), and the outbox of serialised messages with their
// connection-local ids.
// Threading: strand only (the WsClient's strand); nothing here locks.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "ha/errors.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha::detail {

// One command waiting for its result. The timer doubles as the wake-up signal
// (cancelled on completion) and the deadline.
struct Waiter {
  explicit Waiter(const boost::asio::any_io_executor& ex) : timer(ex) {}
  boost::asio::steady_timer timer;
  std::optional<boost::json::value> result;
  std::optional<HaError> error;
  bool wants_text = false;  // command_raw: the result is delivered as raw_result
  std::optional<RawResult> raw_result;
  bool done() const { return result || raw_result || error; }
};

struct Subscription {
  boost::json::object message;  // without id
  WsClient::EventHandler handler;
  std::uint64_t wire_id = 0;  // id on the current connection, 0 = not sent
  bool first = true;
  // A command subscription (ha/ws_command.hpp): ended, not re-sent, when its connection ends.
  bool command = false;
};

class WsCalls {
 public:
  explicit WsCalls(boost::asio::any_io_executor strand) : strand_(std::move(strand)) {}

  // ---- the outbox ----
  // Give message the next id, queue its text and wake the writer.
  std::uint64_t enqueue(boost::json::object message);
  // enqueue() plus a waiter for its result (the caller sets its deadline).
  std::shared_ptr<Waiter> send(boost::json::object message, std::uint64_t& id);
  // A message whose answer nobody reads (supported_features, re-subscriptions).
  void send_ignoring_result(boost::json::object message);
  bool outbox_empty() const { return outbox_.empty(); }
  std::string take_next();
  // The writer of a new connection sleeps on this timer; enqueue() cancels it.
  boost::asio::steady_timer& new_outbox_signal();
  void wake_writer();

  // ---- answers ----
  // The waiter for id, removed from the book; null when nobody waits.
  std::shared_ptr<Waiter> take_waiter(std::uint64_t id);
  void forget(std::uint64_t id) { pending_.erase(id); }
  // Is a command_raw() waiting for the result with this id?
  bool wants_text(std::uint64_t id) const;
  // Every waiting command fails with error (connection lost, client stopped),
  // and every command subscription ends: removed, its handler given ended_event(error).
  void fail_all(const HaError& error);

  // ---- subscriptions ----
  std::uint64_t add_subscription(boost::json::object message, WsClient::EventHandler handler, std::uint64_t wire_id,
                                 bool command = false);
  // Removes it; returns its id on the current connection (0: not sent).
  std::uint64_t drop_subscription(std::uint64_t handle);
  // The subscription an event with this wire id belongs to, or null.
  Subscription* subscription_for_event(std::uint64_t wire_id);
  std::size_t subscription_count() const { return subscriptions_.size(); }

  // ---- connection boundaries ----
  // A new connection: ids restart at 1, the outbox of the old one is void.
  void begin_connection();
  // Re-send every subscription (command subscriptions have ended) with an id of this connection.
  void resubscribe_all();
  // The connection is gone: nothing in flight on it any more.
  void end_connection();

 private:
  boost::asio::any_io_executor strand_;
  std::uint64_t next_id_ = 1;
  std::unordered_map<std::uint64_t, std::shared_ptr<Waiter>> pending_;
  std::map<std::uint64_t, Subscription> subscriptions_;  // by handle
  std::unordered_map<std::uint64_t, std::uint64_t> wire_to_handle_;
  std::uint64_t next_handle_ = 1;
  std::deque<std::string> outbox_;
  std::unique_ptr<boost::asio::steady_timer> outbox_signal_;
};

}  // namespace hamcp::ha::detail
