// WsClient's connection loop: connect (with backoff), keep one connection
// with its writer, heartbeat and reader, and clean up when it drops.
// Everything here runs on the client's strand.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ha/detail/ws_client_impl.hpp"

namespace hamcp::ha {

asio::awaitable<std::optional<HaError>> WsClient::Impl::connect_once() {
  try {
    if (settings.tls && !ssl_ctx) ssl_ctx = detail::make_ssl_context(settings);
    // Held from the start, so stop() closes a connection still being made.
    link = std::make_shared<WsLink>(strand, settings, options, settings.tls ? ssl_ctx : nullptr);
    auto opening = link;
    WsLink::Opened opened = co_await opening->open();
    if (opened.error) co_return std::move(opened.error);
    std::lock_guard lock(status_mutex);
    ha_version_value = std::move(opened.version);
  } catch (const HaException& e) {
    co_return e.error();
  } catch (const std::exception& e) {
    co_return make_error(ErrorCause::internal, settings.ws_url(), e.what());
  }
  co_return std::nullopt;
}

std::chrono::milliseconds WsClient::Impl::backoff_delay(int failures) {
  auto base = options.reconnect_initial * (1 << std::min(failures, 8));
  base = std::min(base, options.reconnect_max);
  std::uniform_int_distribution<long> jitter(0, base.count() / 2);
  return base / 2 + std::chrono::milliseconds(jitter(rng)) + base / 4;  // 75%..125% of base
}

asio::awaitable<void> WsClient::Impl::run() {
  auto self = shared_from_this();
  int failures = 0;
  while (!stopped) {
    set_state(WsState::connecting, std::nullopt);
    std::optional<HaError> error = co_await connect_once();
    if (stopped) break;
    if (error) {
      link.reset();
      co_await wait_after_connect_failure(*error, failures);
      continue;
    }
    // The backoff is not reset here: a connection that fails right after it
    // was made (HA sends a frame we cannot take) must not reconnect in a
    // tight loop. It resets once a connection has stayed up healthy_after.
    const auto connected_at = Clock::now();
    on_connected();
    HaError lost = co_await read_loop();
    if (stopped) break;
    if (Clock::now() - connected_at >= options.healthy_after) failures = 0;
    on_connection_lost(lost);
    // The first drop after a healthy connection gets a quick retry; repeats
    // back off like failed connects.
    const auto delay = failures == 0 ? backoff_delay(0) / 4 : backoff_delay(failures);
    ++failures;
    co_await sleep(delay);
  }
  close_socket();
  link.reset();
  calls.fail_all(make_error(ErrorCause::not_connected, settings.ws_url(), "client stopped"));
  set_state(WsState::stopped, std::nullopt);
}

asio::awaitable<void> WsClient::Impl::wait_after_connect_failure(const HaError& error, int& failures) {
  const std::string why = error.message();
  if (auto suffix = connect_log.admit(why)) spdlog::warn("ha ws: connect failed: {}{}", why, *suffix);
  set_state(WsState::waiting_to_reconnect, error);
  if (error.cause == ErrorCause::unauthorized && ++auth_failures >= kMaxAuthAttempts) {
    // Home Assistant bans an IP after repeated failed logins
    // (ip_ban_enabled): stop trying a rejected token until told to.
    spdlog::error("ha ws: token rejected {} times; not retrying until reconnect_now()", auth_failures);
    co_await sleep(std::chrono::hours(24 * 365));
    auth_failures = 0;
    co_return;
  }
  co_await sleep(backoff_delay(failures++));
}

void WsClient::Impl::on_connected() {
  auth_failures = 0;
  ++generation;
  connect_count.fetch_add(1);
  last_activity = Clock::now();
  calls.begin_connection();
  if (options.coalesce_messages) {
    json::object features;
    features["type"] = "supported_features";
    json::object f;
    f["coalesce_messages"] = 1;
    features["features"] = std::move(f);
    calls.send_ignoring_result(std::move(features));
  }
  calls.resubscribe_all();
  set_state(WsState::connected, std::nullopt);
  const std::uint64_t gen = generation;
  asio::co_spawn(strand, writer(gen), asio::detached);
  asio::co_spawn(strand, heartbeat(gen), asio::detached);
}

void WsClient::Impl::on_connection_lost(const HaError& lost) {
  const std::string why = lost.message();
  if (auto suffix = lost_log.admit(why)) spdlog::warn("ha ws: connection lost: {}{}", why, *suffix);
  ++generation;  // stops writer and heartbeat of the old connection
  calls.wake_writer();
  close_socket();
  link.reset();
  calls.fail_all(make_error(ErrorCause::connection_lost, settings.ws_url(), lost.detail));
  subscription_count = calls.subscription_count();  // command subscriptions ended with it
  inbox.reset();
  calls.end_connection();
  set_state(WsState::waiting_to_reconnect, lost);
}

asio::awaitable<void> WsClient::Impl::sleep(std::chrono::milliseconds d) {
  backoff_timer = std::make_unique<asio::steady_timer>(strand, d);
  boost::system::error_code ec;
  co_await backoff_timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

asio::awaitable<void> WsClient::Impl::writer(std::uint64_t gen) {
  auto self = shared_from_this();
  auto link_hold = link;  // this connection's stream outlives our pending write
  auto& signal = calls.new_outbox_signal();
  while (gen == generation && !stopped) {
    if (calls.outbox_empty()) {
      signal.expires_at(Clock::time_point::max());
      boost::system::error_code ec;
      co_await signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    std::string text = calls.take_next();
    if (!link_hold) co_return;
    boost::system::error_code ec = co_await link_hold->write(text);
    if (ec) {
      if (gen == generation) close_socket();  // read loop reports the loss
      co_return;
    }
  }
}

asio::awaitable<void> WsClient::Impl::heartbeat(std::uint64_t gen) {
  auto self = shared_from_this();
  asio::steady_timer timer(strand);
  while (gen == generation && !stopped) {
    timer.expires_after(options.heartbeat_interval);
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (gen != generation || stopped) co_return;
    json::object ping;
    ping["type"] = "ping";
    std::uint64_t id = 0;
    auto waiter = calls.send(std::move(ping), id);
    const bool alive = co_await await_pong(gen, id, waiter);
    if (!alive) co_return;
  }
}

// False when the heartbeat should end: another connection, stopped, or no pong.
asio::awaitable<bool> WsClient::Impl::await_pong(std::uint64_t gen, std::uint64_t id,
                                                 const std::shared_ptr<Waiter>& w) {
  auto deadline = Clock::now() + options.heartbeat_timeout;
  while (!w->done()) {
    w->timer.expires_at(deadline);
    boost::system::error_code ec;
    co_await w->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (gen != generation || stopped) co_return false;
    if (w->done()) break;
    if (Clock::now() >= deadline) {
      // Bytes still arriving (a huge frame) count as alive.
      const auto alive_until = last_activity + options.heartbeat_timeout;
      if (alive_until > Clock::now()) {
        deadline = alive_until;
        continue;
      }
      spdlog::warn("ha ws: no pong within {} ms, reconnecting", options.heartbeat_timeout.count());
      calls.forget(id);
      heartbeat_failed = true;
      close_socket();
      co_return false;
    }
  }
  co_return true;
}

asio::awaitable<HaError> WsClient::Impl::read_loop() {
  const std::uint64_t gen = generation;
  heartbeat_failed = false;
  inbox.reset();
  auto link_hold = link;
  boost::system::error_code ec = asio::error::not_connected;
  if (link_hold) {
    ec = co_await link_hold->read_frames(
        [this] { last_activity = Clock::now(); },
        [this, gen](beast::flat_buffer buffer) { return on_frame(std::move(buffer), gen); });
  }
  if (const auto& failure = inbox.protocol_failure()) {
    co_return make_error(ErrorCause::protocol_error, settings.ws_url(), *failure);
  }
  if (heartbeat_failed) {
    co_return make_error(ErrorCause::timeout, settings.ws_url(),
                         "no answer to ping within " + std::to_string(options.heartbeat_timeout.count()) + " ms");
  }
  HaError e = classify_network_error(ec, NetPhase::receive, detail::net_context(settings));
  if (e.cause != ErrorCause::timeout) e.cause = ErrorCause::connection_lost;
  co_return e;
}

boost::system::error_code WsClient::Impl::on_frame(beast::flat_buffer buffer, std::uint64_t gen) {
  if (gen != generation) return asio::error::operation_aborted;
  for (ParseJob& job : inbox.receive(buffer)) parse_elsewhere(std::move(job));
  if (inbox.protocol_failure()) return asio::error::invalid_argument;
  return {};
}

void WsClient::Impl::parse_elsewhere(ParseJob job) {
  const std::uint64_t gen = generation;
  std::weak_ptr<Impl> weak = shared_from_this();
  auto strand_copy = strand;
  asio::post(parse_pool, [weak, strand_copy, job = std::move(job), gen]() mutable {
    WsInbox::parse(*job.slot, job.frame, job.text);
    // The frame text is no longer needed (unless the slot hands it over as a
    // raw result): free it before the DOM is dispatched and converted, so
    // text, DOM and converted copies never all sit in memory at once.
    job.frame.reset();
    auto slot = std::move(job.slot);
    // Hold no strong reference on this thread: the Impl (which owns this
    // pool) must never be destroyed from inside the pool.
    asio::post(strand_copy, [weak, slot, gen] {
      auto self = weak.lock();
      if (!self || gen != self->generation) return;
      self->inbox.parsed(slot);
      if (self->inbox.protocol_failure()) self->close_socket();
    });
  });
}

}  // namespace hamcp::ha
