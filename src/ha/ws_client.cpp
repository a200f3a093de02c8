#include "ha/ws_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include "common/isolated_await.hpp"
#include "ha/detail/ws_client_impl.hpp"
#include "ha/ws_command.hpp"

namespace hamcp::ha {

std::string_view to_string(WsState s) noexcept {
  switch (s) {
    case WsState::idle:
      return "idle";
    case WsState::connecting:
      return "connecting";
    case WsState::connected:
      return "connected";
    case WsState::waiting_to_reconnect:
      return "waiting_to_reconnect";
    case WsState::stopped:
      return "stopped";
  }
  return "unknown";
}

void WsClient::Impl::set_state(WsState st, std::optional<HaError> err) {
  {
    std::lock_guard lock(status_mutex);
    state_value = st;
    if (err) last_error_value = err;
    if (st == WsState::connected) last_error_value.reset();
  }
  for (auto& h : state_handlers) {
    try {
      h(st, err);
    } catch (const std::exception& e) {
      spdlog::error("ha ws: state handler threw: {}", e.what());
    }
  }
}

asio::awaitable<void> WsClient::Impl::wait_connected(Clock::time_point deadline) {
  asio::steady_timer poll(strand);
  while (!connected()) {
    if (stopped) {
      throw HaException(make_error(ErrorCause::not_connected, settings.ws_url(), "client stopped"));
    }
    {
      // A permanent failure (bad token, bad certificate...) will not fix
      // itself while we wait: say so at once.
      std::lock_guard lock(status_mutex);
      if (state_value == WsState::waiting_to_reconnect && last_error_value && !last_error_value->retryable()) {
        throw HaException(*last_error_value);
      }
    }
    if (Clock::now() >= deadline) {
      HaError e = make_error(ErrorCause::not_connected, settings.ws_url());
      std::lock_guard lock(status_mutex);
      if (last_error_value) {
        // Say why: the last connection failure is the useful part.
        e = *last_error_value;
      }
      throw HaException(e);
    }
    poll.expires_after(std::chrono::milliseconds(20));
    boost::system::error_code ec;
    co_await poll.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
}

asio::awaitable<std::shared_ptr<Waiter>> WsClient::Impl::await_answer(json::object message,
                                                                      std::chrono::milliseconds timeout, bool as_text,
                                                                      bool refusal_as_value) {
  auto self = shared_from_this();
  const auto start = Clock::now();
  co_await wait_connected(start + std::min(timeout, options.connect_wait));
  std::uint64_t id = 0;
  auto w = calls.send(std::move(message), id);
  w->wants_text = as_text;
  w->timer.expires_at(start + timeout);
  boost::system::error_code ec;
  co_await w->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  const bool refused = w->error && w->error->cause == ErrorCause::command_failed;
  if (w->error && !(refused && refusal_as_value)) throw HaException(*w->error);
  if (w->done()) co_return w;
  calls.forget(id);
  throw HaException(make_error(ErrorCause::timeout, settings.ws_url(),
                               "no result within " + std::to_string(timeout.count()) + " ms"));
}

asio::awaitable<json::value> WsClient::Impl::do_command(json::object message, std::chrono::milliseconds timeout) {
  const bool refusal_as_value = take_refusal_mark(message);
  auto w = co_await await_answer(std::move(message), timeout, false, refusal_as_value);
  if (w->error) co_return refusal_value(*w->error);  // HA's refusal, asked for as a value
  co_return std::move(*w->result);
}

asio::awaitable<RawResult> WsClient::Impl::do_command_raw(json::object message, std::chrono::milliseconds timeout) {
  take_refusal_mark(message);  // never sent; only command() answers a refusal as a value
  auto w = co_await await_answer(std::move(message), timeout, true);
  if (w->raw_result) co_return std::move(*w->raw_result);
  // Answered by a pong or the like: its (null) result as text.
  auto text = std::make_shared<std::string>(json::serialize(w->result.value_or(nullptr)));
  co_return RawResult{text, *text};
}

asio::awaitable<std::uint64_t> WsClient::Impl::do_subscribe(json::object message, EventHandler handler) {
  auto self = shared_from_this();
  const auto start = Clock::now();
  co_await wait_connected(start + options.connect_wait);
  const bool command = take_command_mark(message);  // ha/ws_command.hpp: never re-sent
  std::uint64_t id = 0;
  auto w = calls.send(message, id);
  const std::uint64_t handle = calls.add_subscription(std::move(message), std::move(handler), id, command);
  subscription_count = calls.subscription_count();
  w->timer.expires_at(start + options.command_timeout);
  boost::system::error_code ec;
  co_await w->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  if (w->result) co_return handle;
  // Lost connection: a subscription stays and is re-sent on reconnect; a
  // command subscription ended with the connection (fail_all).
  if (w->error && w->error->cause == ErrorCause::connection_lost && !command) co_return handle;
  drop_subscription(handle);
  if (w->error) throw HaException(*w->error);
  calls.forget(id);
  throw HaException(make_error(ErrorCause::timeout, settings.ws_url(), "subscription not confirmed in time"));
}

std::uint64_t WsClient::Impl::drop_subscription(std::uint64_t handle) {
  const std::uint64_t wire = calls.drop_subscription(handle);
  subscription_count = calls.subscription_count();
  return wire;
}

asio::awaitable<void> WsClient::Impl::do_unsubscribe(std::uint64_t handle) {
  auto self = shared_from_this();
  const std::uint64_t wire = drop_subscription(handle);
  if (wire == 0 || !connected()) co_return;
  json::object msg;
  msg["type"] = "unsubscribe_events";
  msg["subscription"] = wire;
  try {
    co_await do_command(std::move(msg), options.command_timeout);
  } catch (const HaException& e) {
    spdlog::debug("ha ws: unsubscribe failed: {}", e.error().message());
  }
}

WsClient::WsClient(asio::any_io_executor executor, ConnectionSettings settings, WsOptions options)
    : impl_(std::make_shared<Impl>(std::move(executor), std::move(settings), options)) {}

WsClient::~WsClient() {
  try {
    stop();
  } catch (
      ...) {  // NOLINT(bugprone-empty-catch): only allocating the stop handler can fail; a destructor must not throw
  }
}

void WsClient::start() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] {
    if (impl->started || impl->stopped) return;
    impl->started = true;
    asio::co_spawn(impl->strand, impl->run(), [](std::exception_ptr e) {
      if (!e) return;
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        spdlog::error("ha ws: connection loop ended: {}", ex.what());
      }
    });
  });
}

void WsClient::stop() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] {
    if (impl->stopped) return;
    impl->stopped = true;
    ++impl->generation;
    if (impl->backoff_timer) impl->backoff_timer->cancel();
    impl->calls.wake_writer();
    impl->close_socket();
    impl->calls.fail_all(make_error(ErrorCause::not_connected, impl->settings.ws_url(), "client stopped"));
    if (!impl->started) impl->set_state(WsState::stopped, std::nullopt);
  });
}

asio::awaitable<json::value> WsClient::command(json::object message, std::optional<std::chrono::milliseconds> timeout) {
  auto impl = impl_;
  const auto t = timeout.value_or(impl->options.command_timeout);
  auto op = impl->do_command(std::move(message), t);
  // Never co_spawn(strand, op, use_awaitable) here: see common/isolated_await.hpp.
  auto isolated = common::isolated_await<json::value>(impl->strand, std::move(op));
  co_return co_await std::move(isolated);
}

asio::awaitable<RawResult> WsClient::command_raw(json::object message,
                                                 std::optional<std::chrono::milliseconds> timeout) {
  auto impl = impl_;
  const auto t = timeout.value_or(impl->options.command_timeout);
  auto op = impl->do_command_raw(std::move(message), t);
  auto isolated = common::isolated_await<RawResult>(impl->strand, std::move(op));
  co_return co_await std::move(isolated);
}

asio::awaitable<std::uint64_t> WsClient::subscribe(json::object message, EventHandler handler) {
  auto impl = impl_;
  auto op = impl->do_subscribe(std::move(message), std::move(handler));
  auto isolated = common::isolated_await<std::uint64_t>(impl->strand, std::move(op));
  co_return co_await std::move(isolated);
}

asio::awaitable<void> WsClient::unsubscribe(std::uint64_t handle) {
  auto impl = impl_;
  auto op = impl->do_unsubscribe(handle);
  auto isolated = common::isolated_await<void>(impl->strand, std::move(op));
  co_await std::move(isolated);
}

void WsClient::on_state_change(StateHandler handler) {
  auto impl = impl_;
  asio::dispatch(impl->strand,
                 [impl, h = std::move(handler)]() mutable { impl->state_handlers.push_back(std::move(h)); });
}

WsState WsClient::state() const {
  std::lock_guard lock(impl_->status_mutex);
  return impl_->state_value;
}
std::optional<HaError> WsClient::last_error() const {
  std::lock_guard lock(impl_->status_mutex);
  return impl_->last_error_value;
}
std::string WsClient::ha_version() const {
  std::lock_guard lock(impl_->status_mutex);
  return impl_->ha_version_value;
}
std::uint64_t WsClient::connects() const { return impl_->connect_count.load(); }
std::size_t WsClient::active_subscriptions() const { return impl_->subscription_count.load(); }
std::uint64_t WsClient::too_deep_events_skipped() const { return impl_->inbox.too_deep_events(); }

void WsClient::reconnect_now() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] {
    if (impl->backoff_timer) impl->backoff_timer->cancel();
  });
}

void WsClient::drop_connection_for_testing() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl] { impl->close_socket(); });
}

}  // namespace hamcp::ha
