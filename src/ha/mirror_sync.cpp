// Mirror::Impl, part 2: subscriptions, the sync after each connection, the
// debounced refresh of registries/services/config, connection changes.
// Everything here runs on the mirror's strand (see detail/mirror_impl.hpp).
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include "ha/detail/mirror_impl.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {
constexpr std::array<RegistryKind, kRegistryKinds> kAllRegistries = {RegistryKind::entity, RegistryKind::device,
                                                                     RegistryKind::area,   RegistryKind::floor,
                                                                     RegistryKind::label,  RegistryKind::category};

json::object subscribe_events(std::string event_type) {
  json::object sub;
  sub["type"] = "subscribe_events";
  sub["event_type"] = std::move(event_type);
  return sub;
}
}  // namespace

// States: subscribe_entities, or on HA before 2022.4 the full states once per
// connection plus state_changed events.
asio::awaitable<void> Mirror::Impl::subscribe_states(std::weak_ptr<Impl> self) {
  json::object entities;
  entities["type"] = "subscribe_entities";
  bool entities_supported = true;
  try {
    // GCC 12: no non-trivial temporaries (lambda -> std::function) inside co_await.
    WsClient::EventHandler on_entities = [self](json::value& ev, bool first) {
      if (auto m = self.lock()) m->on_entities_event(ev, first);
    };
    auto op = ws.subscribe(std::move(entities), std::move(on_entities));
    co_await std::move(op);
    publish(ChangeSet{}, [](Snapshot& s) { s.capabilities.subscribe_entities = true; });
  } catch (const HaException& e) {
    if (!detail::unsupported(e.error())) throw;
    entities_supported = false;
  }
  if (entities_supported) co_return;
  legacy_states = true;
  WsClient::EventHandler on_changed = [self](const json::value& ev, bool) {
    if (auto m = self.lock()) m->on_state_changed(ev);
  };
  auto op = ws.subscribe(subscribe_events("state_changed"), std::move(on_changed));
  co_await std::move(op);
}

// Registry, service and config changes only mark what to refetch.
asio::awaitable<void> Mirror::Impl::subscribe_changes(std::weak_ptr<Impl> self) {
  for (RegistryKind kind : kAllRegistries) {
    WsClient::EventHandler on_registry = [self, kind](const json::value&, bool) {
      if (auto m = self.lock())
        m->mark_dirty([kind](Impl& mm) { mm.registry_dirty[static_cast<std::size_t>(kind)] = true; });
    };
    auto op =
        ws.subscribe(subscribe_events(std::string(to_string(kind)) + "_registry_updated"), std::move(on_registry));
    co_await std::move(op);
  }
  for (const char* type : {"service_registered", "service_removed"}) {
    WsClient::EventHandler on_services = [self](const json::value&, bool) {
      if (auto m = self.lock()) m->mark_dirty([](Impl& mm) { mm.services_dirty = true; });
    };
    auto op = ws.subscribe(subscribe_events(type), std::move(on_services));
    co_await std::move(op);
  }
  WsClient::EventHandler on_config = [self](const json::value&, bool) {
    if (auto m = self.lock()) m->mark_dirty([](Impl& mm) { mm.config_dirty = true; });
  };
  auto op = ws.subscribe(subscribe_events("core_config_updated"), std::move(on_config));
  co_await std::move(op);
}

asio::awaitable<void> Mirror::Impl::subscribe_all() {
  auto strong = shared_from_this();
  std::weak_ptr<Impl> self = strong;  // handlers live in the WsClient: no ownership cycle
  // GCC 12: no temporaries with destructors (the weak_ptr argument) inside co_await.
  // Change events first: a registry edited while its list is fetched below is
  // marked dirty and fetched again. The states last: while Home Assistant
  // builds their initial event nothing else is answered, and the fetches are
  // sent as soon as the subscription is confirmed.
  auto changes = subscribe_changes(self);
  co_await std::move(changes);
  auto states = subscribe_states(self);
  co_await std::move(states);
}

// Called on the WS strand; flags are strand-owned, so hop first.
void Mirror::Impl::mark_dirty(std::function<void(Impl&)> mark) {
  asio::post(strand, [self = shared_from_this(), mark = std::move(mark)] {
    mark(*self);
    if (self->refresh_scheduled || self->stopped) return;
    self->refresh_scheduled = true;
    asio::co_spawn(self->strand, self->debounced_refresh(), asio::detached);
  });
}

asio::awaitable<void> Mirror::Impl::fetch_registry(RegistryKind kind) {
  detail::FetchedRegistry f = co_await fetch.registry(kind);
  ChangeSet cs;
  cs.registries_changed.push_back(kind);
  publish(std::move(cs), [&](Snapshot& s) { detail::MirrorFetch::install(s, f); });
}

asio::awaitable<void> Mirror::Impl::fetch_config() {
  auto cfg = co_await fetch.config();
  ChangeSet cs;
  cs.config_changed = true;
  publish(std::move(cs), [&](Snapshot& s) {
    s.config = cfg;
    s.ha_version = ws.ha_version();
  });
}

asio::awaitable<void> Mirror::Impl::fetch_services() {
  auto svc = co_await fetch.services();
  ChangeSet cs;
  cs.services_changed = true;
  publish(std::move(cs), [&](Snapshot& s) { s.services = svc; });
}

asio::awaitable<void> Mirror::Impl::debounced_refresh() {
  auto self = shared_from_this();
  asio::steady_timer timer(strand, options.registry_debounce);
  boost::system::error_code ec;
  co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  refresh_scheduled = false;
  auto dirty = registry_dirty;
  registry_dirty = {};
  const bool svc = services_dirty, cfg = config_dirty;
  services_dirty = config_dirty = false;
  try {
    for (RegistryKind kind : kAllRegistries) {
      if (dirty[static_cast<std::size_t>(kind)]) co_await fetch_registry(kind);
    }
    if (svc) co_await fetch_services();
    if (cfg) co_await fetch_config();
  } catch (const HaException& e) {
    const std::string why = e.error().message();
    if (auto suffix = refresh_log.admit(why)) spdlog::warn("ha mirror: refresh failed: {}{}", why, *suffix);
    // A reconnect resyncs everything; nothing else to do.
  }
}

// Fetch config, services and every registry, then publish them (with the held
// initial states) as one update: each publication makes listeners (the search
// index) rebuild their view of every entity, which on a 100k-entity home costs
// seconds and hundreds of MB of churn per registry.
asio::awaitable<void> Mirror::Impl::fetch_and_publish_all(std::uint64_t epoch) {
  auto fetching = fetch.all();
  detail::FetchedAll all = co_await std::move(fetching);
  fetched_at = Clock::now();
  auto cfg = std::move(all.config);
  auto svc = std::move(all.services);
  std::vector<detail::FetchedRegistry> regs = std::move(all.registries);
  // The answers can overtake the initial states (their big frame is parsed
  // aside): publishing without them would index every entity twice.
  auto arrival = initial_states_arrived(epoch);
  co_await std::move(arrival);
  std::optional<StateTable> states = initial.end();
  ChangeSet cs;
  cs.full_resync = true;
  cs.config_changed = true;
  cs.services_changed = true;
  for (const auto& f : regs) cs.registries_changed.push_back(f.kind);
  const Clock::time_point publishing = Clock::now();
  publish(std::move(cs), [&](Snapshot& s) {
    s.config = cfg;
    s.ha_version = ws.ha_version();
    s.services = svc;
    for (const auto& f : regs) detail::MirrorFetch::install(s, f);
    s.capabilities.websocket = true;
    if (states) s.states = std::move(*states);
  });
  listeners_took = Clock::now() - publishing;
  regs.clear();
  if (epoch != sync_epoch) co_return;  // a newer connection took over
  rest_ready = true;
  update_synced();
}

// Waits (bounded by the command timeout) until the initial states of this
// connection are held; mark_states_ready and on_disconnected wake it.
asio::awaitable<void> Mirror::Impl::initial_states_arrived(std::uint64_t epoch) {
  auto self = shared_from_this();
  auto timer = std::make_shared<asio::steady_timer>(strand, options.command_timeout);
  states_waiter = timer;
  while (!states_ready && !legacy_states && ws_up && epoch == sync_epoch && !stopped &&
         timer->expiry() > asio::steady_timer::clock_type::now()) {
    boost::system::error_code ec;
    co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (!ec) break;  // timed out: publish what there is, as before
  }
  if (states_waiter == timer) states_waiter.reset();
}

asio::awaitable<void> Mirror::Impl::sync(std::uint64_t epoch) {
  auto self = shared_from_this();
  if (!legacy_states) initial.begin();
  try {
    if (!subscribed && !subscribing) {
      subscribing = true;
      co_await subscribe_all();
      subscribing = false;
      subscribed = true;
    }
    if (legacy_states) {
      json::object gs;
      gs["type"] = "get_states";
      json::value states = co_await ws.command(std::move(gs), options.command_timeout);
      replace_all_states(states, true);
      states_ready = true;
    }
    co_await fetch_and_publish_all(epoch);
  } catch (const HaException& e) {
    subscribing = false;
    if (std::optional<StateTable> states = initial.end()) {
      // The states themselves arrived fine: show them.
      ChangeSet cs;
      cs.full_resync = true;
      publish(std::move(cs), [&](Snapshot& snap) { snap.states = std::move(*states); });
    }
    const std::string why = e.error().message();
    if (auto suffix = sync_log.admit(why)) spdlog::warn("ha mirror: sync failed: {}{}", why, *suffix);
    if (epoch == sync_epoch) {
      set_status(MirrorState::connecting, "websocket", "sync failed, waiting for reconnect", e.error());
    }
  }
}

void Mirror::Impl::on_connected() {
  ws_up = true;
  connected_at = Clock::now();
  states_at.reset();
  fetched_at.reset();
  listeners_took = {};
  states_ready = legacy_states ? false : states_ready;
  rest_ready = false;
  ++sync_epoch;
  set_status(MirrorState::connecting, "websocket", "connected, syncing", std::nullopt);
  asio::co_spawn(strand, sync(sync_epoch), asio::detached);
}

void Mirror::Impl::on_disconnected(const std::optional<HaError>& err) {
  const bool was_up = ws_up;
  ws_up = false;
  states_ready = false;
  rest_ready = false;
  ++sync_epoch;
  if (states_waiter) states_waiter->cancel();
  std::string detail = was_up ? "connection lost, reconnecting" : "cannot connect, retrying";
  // Keep "degraded" while REST polling still works.
  const MirrorState next = status.state() == MirrorState::degraded ? MirrorState::degraded : MirrorState::disconnected;
  set_status(next, next == MirrorState::degraded ? "rest_polling" : "websocket", detail, err, true);
  if (was_up) last_poll.reset();  // poll right away
}

void Mirror::Impl::on_ws_state(WsState st, const std::optional<HaError>& err) {
  // On the WS strand: hop to ours.
  asio::post(strand, [self = shared_from_this(), st, err] {
    if (self->stopped) return;
    if (st == WsState::connected) {
      self->on_connected();
    } else if (st == WsState::waiting_to_reconnect || st == WsState::stopped) {
      self->on_disconnected(err);
    }
  });
}

}  // namespace hamcp::ha
