// Mirror::Impl, part 3: without a WebSocket connection the mirror polls
// GET /api/states (status "degraded", mode "rest_polling"). Runs on the
// mirror's strand (see detail/mirror_impl.hpp).
#include <algorithm>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include "ha/detail/mirror_impl.hpp"
#include "ha/detail/transport.hpp"
#include "ha/rest_client.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {
// REST gives [{domain, services}]; the snapshot keeps WS's {domain: services}.
json::object services_by_domain(const json::value& rest_services) {
  json::object by_domain;
  if (!rest_services.is_array()) return by_domain;
  for (const auto& d : rest_services.as_array()) {
    const auto* o = d.if_object();
    if (!o) continue;
    const auto* services = o->if_contains("services");
    if (!services) continue;
    const auto* domain = o->if_contains("domain");
    const json::string_view name = domain && domain->is_string() ? json::string_view(domain->as_string()) : "";
    by_domain[name] = *services;
  }
  return by_domain;
}

// The WebSocket failed before any byte reached HA: REST, at the same host and port, would fail
// the same way, after its retries, by throwing. A bare TCP connect (no exceptions) tells first:
// an HA that is down then costs one refused connect per poll, and the unwinder's tables and the
// REST client's code stay untouched (idle RSS, bench/RESULTS-ha.md step 11).
asio::awaitable<std::optional<HaError>> unreachable(const asio::any_io_executor& executor,
                                                    const ConnectionSettings& settings,
                                                    const std::optional<HaError>& ws_error) {
  const bool before_ha =
      ws_error &&
      (ws_error->cause == ErrorCause::connection_refused || ws_error->cause == ErrorCause::dns_failure ||
       ws_error->cause == ErrorCause::network_unreachable || ws_error->cause == ErrorCause::macos_local_network);
  if (!before_ha) co_return std::nullopt;
  boost::beast::tcp_stream stream(executor);
  detail::Connected probe = co_await detail::try_connect_tcp(stream, settings);
  co_return std::move(probe.error);
}
}  // namespace

asio::awaitable<void> Mirror::Impl::poll_loop() {
  auto self = shared_from_this();
  asio::steady_timer timer(strand);
  const auto tick = std::min(options.poll_interval, std::chrono::milliseconds(1000));
  while (!stopped) {
    timer.expires_after(tick);
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (stopped) co_return;
    if (ws_up || ws.state() == WsState::connecting || ws.state() == WsState::idle) continue;
    const auto now = Clock::now();
    if (last_poll && now - *last_poll < options.poll_interval) continue;
    last_poll = now;
    co_await poll_once();
  }
}

// Config and services once (they change rarely; the WebSocket refreshes them).
asio::awaitable<void> Mirror::Impl::poll_config_and_services() {
  const std::string config_path = "/api/config", services_path = "/api/services";
  if (load()->config == nullptr) {
    json::value cfg = co_await rest.get_json(config_path);
    auto c = std::make_shared<const json::object>(cfg.is_object() ? cfg.as_object() : json::object{});
    ChangeSet cs;
    cs.config_changed = true;
    publish(std::move(cs), [&](Snapshot& s) { s.config = c; });
  }
  if (!load()->services) {
    json::value svc = co_await rest.get_json(services_path);
    auto p = std::make_shared<const json::object>(services_by_domain(svc));
    ChangeSet cs;
    cs.services_changed = true;
    publish(std::move(cs), [&](Snapshot& s) { s.services = p; });
  }
}

asio::awaitable<void> Mirror::Impl::poll_once() {
  const std::string states_path = "/api/states";
  std::optional<HaError> ws_error = ws.last_error();
  std::optional<HaError> down = co_await unreachable(strand, rest.settings(), ws_error);
  if (down) {
    if (ws_up) co_return;
    set_status(MirrorState::disconnected, "websocket", "Home Assistant unreachable over WebSocket and REST", *down);
    co_return;
  }
  try {
    json::value states = co_await rest.get_json(states_path);
    if (ws_up) co_return;
    co_await poll_config_and_services();
    if (ws_up) co_return;
    replace_all_states(states, false);
    std::optional<HaError> ws_err = ws.last_error();
    set_status(MirrorState::degraded, "rest_polling",
               "WebSocket unavailable; polling /api/states every " +
                   std::to_string(static_cast<double>(options.poll_interval.count()) / 1000.0).substr(0, 4) + " s" +
                   (ws_err ? " (" + ws_err->explanation() + ")" : std::string()),
               ws_err, true);
  } catch (const HaException& e) {
    if (ws_up) co_return;
    set_status(MirrorState::disconnected, "websocket", "Home Assistant unreachable over WebSocket and REST", e.error());
  }
}

}  // namespace hamcp::ha
