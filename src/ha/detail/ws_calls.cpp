#include "ha/detail/ws_calls.hpp"

#include <spdlog/spdlog.h>

#include <boost/json/serialize.hpp>
#include <vector>

#include "ha/ws_command.hpp"

namespace hamcp::ha::detail {
namespace json = boost::json;

std::uint64_t WsCalls::enqueue(json::object message) {
  const std::uint64_t id = next_id_++;
  message["id"] = id;
  outbox_.push_back(json::serialize(message));
  wake_writer();
  return id;
}

std::shared_ptr<Waiter> WsCalls::send(json::object message, std::uint64_t& id) {
  id = enqueue(std::move(message));
  auto waiter = std::make_shared<Waiter>(strand_);
  pending_[id] = waiter;
  return waiter;
}

void WsCalls::send_ignoring_result(json::object message) {
  std::uint64_t id = 0;
  send(std::move(message), id);  // the result is dropped on arrival
}

std::string WsCalls::take_next() {
  std::string text = std::move(outbox_.front());
  outbox_.pop_front();
  return text;
}

boost::asio::steady_timer& WsCalls::new_outbox_signal() {
  outbox_signal_ = std::make_unique<boost::asio::steady_timer>(strand_);
  return *outbox_signal_;
}

void WsCalls::wake_writer() {
  if (outbox_signal_) outbox_signal_->cancel();
}

std::shared_ptr<Waiter> WsCalls::take_waiter(std::uint64_t id) {
  auto it = pending_.find(id);
  if (it == pending_.end()) return nullptr;
  auto waiter = std::move(it->second);
  pending_.erase(it);
  return waiter;
}

bool WsCalls::wants_text(std::uint64_t id) const {
  auto it = pending_.find(id);
  return it != pending_.end() && it->second->wants_text;
}

void WsCalls::fail_all(const HaError& error) {
  auto waiting = std::move(pending_);
  pending_.clear();
  for (auto& [id, waiter] : waiting) {
    if (!waiter->done()) waiter->error = error;
    waiter->timer.cancel();
  }
  std::vector<WsClient::EventHandler> ended;
  for (auto it = subscriptions_.begin(); it != subscriptions_.end();) {
    if (!it->second.command) {
      ++it;
      continue;
    }
    wire_to_handle_.erase(it->second.wire_id);
    ended.push_back(std::move(it->second.handler));
    it = subscriptions_.erase(it);
  }
  // Told once the book is consistent: a handler may unsubscribe or subscribe again.
  for (auto& handler : ended) {
    json::value last = ended_event(error);
    try {
      handler(last, false);
    } catch (const std::exception& e) {
      spdlog::error("ha ws: event handler threw: {}", e.what());
    }
  }
}

std::uint64_t WsCalls::add_subscription(json::object message, WsClient::EventHandler handler, std::uint64_t wire_id,
                                        bool command) {
  const std::uint64_t handle = next_handle_++;
  Subscription sub;
  sub.message = std::move(message);
  sub.handler = std::move(handler);
  sub.wire_id = wire_id;
  sub.command = command;
  subscriptions_.emplace(handle, std::move(sub));
  wire_to_handle_[wire_id] = handle;
  return handle;
}

std::uint64_t WsCalls::drop_subscription(std::uint64_t handle) {
  auto it = subscriptions_.find(handle);
  if (it == subscriptions_.end()) return 0;
  const std::uint64_t wire = it->second.wire_id;
  wire_to_handle_.erase(wire);
  subscriptions_.erase(it);
  return wire;
}

Subscription* WsCalls::subscription_for_event(std::uint64_t wire_id) {
  auto it = wire_to_handle_.find(wire_id);
  if (it == wire_to_handle_.end()) return nullptr;
  auto sub = subscriptions_.find(it->second);
  return sub == subscriptions_.end() ? nullptr : &sub->second;
}

void WsCalls::begin_connection() {
  next_id_ = 1;
  outbox_.clear();
}

void WsCalls::resubscribe_all() {
  for (auto& [handle, sub] : subscriptions_) {
    if (sub.command) continue;  // never re-sent (fail_all ended it with its connection)
    sub.first = true;
    std::uint64_t id = 0;
    send(sub.message, id);  // a failed re-subscription is logged by the owner's resync
    sub.wire_id = id;
    wire_to_handle_[id] = handle;
  }
}

void WsCalls::end_connection() {
  wake_writer();
  for (auto& [handle, sub] : subscriptions_) sub.wire_id = 0;
  wire_to_handle_.clear();
}

}  // namespace hamcp::ha::detail
