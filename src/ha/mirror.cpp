#include "ha/mirror.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <spdlog/spdlog.h>

#include "ha/detail/mirror_impl.hpp"
#include "ha/detail/state_decode.hpp"
#include "ha/rest_client.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

namespace asio = boost::asio;
namespace json = boost::json;

std::string_view to_string(MirrorState s) noexcept {
  switch (s) {
    case MirrorState::connecting:
      return "connecting";
    case MirrorState::synced:
      return "synced";
    case MirrorState::degraded:
      return "degraded";
    case MirrorState::disconnected:
      return "disconnected";
  }
  return "unknown";
}

json::object MirrorStatus::to_json() const {
  json::object o;
  o["state"] = to_string(state);
  o["mode"] = mode;
  o["detail"] = detail;
  o["version"] = version;
  o["entity_count"] = entity_count;
  if (!ha_version.empty()) o["ha_version"] = ha_version;
  if (last_error) o["last_error"] = last_error->to_json();
  return o;
}

Mirror::Impl::Impl(asio::any_io_executor ex, std::shared_ptr<WsClient> w, std::shared_ptr<RestClient> r,
                   MirrorOptions o)
    : executor(ex),
      strand(asio::make_strand(ex)),
      ws_owner(std::move(w)),
      rest_owner(std::move(r)),
      ws(*ws_owner),
      rest(*rest_owner),
      options(o),
      publisher([this](const Snapshot& s) { status.set_published(s.version, s.states.size()); }),
      fetch(*ws_owner, o.command_timeout) {}

void Mirror::Impl::publish_states(const std::function<void(StateTableBuilder&)>& edit, ChangeSet&& cs) {
  publish(std::move(cs), [&](Snapshot& snap) {
    StateTableBuilder b(snap.states);
    edit(b);
    snap.states = b.build();
  });
}

void Mirror::Impl::set_status(MirrorState st, std::string mode, std::string detail, std::optional<HaError> err,
                              bool keep_error) {
  status.set(st, std::move(mode), std::move(detail), std::move(err), keep_error, ws.ha_version());
}

namespace {
// A sync frees the frame texts and DOMs of the initial states and the
// registry lists (hundreds of MB on a big home). glibc keeps freed memory in
// its arenas; hand it back so the steady-state RSS is what the mirror holds.
// (On mimalloc this is a no-op: it returns pages as they empty, see
// common/allocator_settings.hpp.)
void return_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
}  // namespace

void Mirror::Impl::update_synced() {
  if (!(ws_up && states_ready && rest_ready)) return;
  set_status(MirrorState::synced, "websocket", "live: subscribed to state and registry changes", std::nullopt);
  if (connected_at) {
    using std::chrono::milliseconds;
    const auto since = [this](const std::optional<Clock::time_point>& t) -> long long {
      return t ? std::chrono::duration_cast<milliseconds>(*t - *connected_at).count() : -1;
    };
    spdlog::info(
        "ha mirror: synced {} entities in {} ms (initial states in at {} ms, registries, services and config at {} "
        "ms; the search index and other listeners took {} ms)",
        load()->states.size(), since(Clock::now()), since(states_at), since(fetched_at),
        std::chrono::duration_cast<milliseconds>(listeners_took).count());
    connected_at.reset();
    return_freed_memory();
  }
}

// ---------------- states (called on the WsClient's strand) ----------------

// Consumes event (the initial one holds every entity: each is converted to
// the compact EntityState and its DOM dropped; a big event's DOM lives in a
// MessageArena, unmapped as a whole when the event is done).
void Mirror::Impl::on_entities_event(json::value& event, bool first) {
  auto* ev = event.if_object();
  if (!ev) return;
  if (first && hold_initial_states(*ev)) return;
  if (!first) {
    ChangeSet ignored;
    if (initial.edit_held([&](StateTableBuilder& b) { detail::apply_entities_event(b, *ev, false, ignored); })) return;
  }
  ChangeSet cs;
  cs.full_resync = first;
  publish_states(
      [&](StateTableBuilder& b) {
        if (first) b.clear();
        detail::apply_entities_event(b, *ev, first, cs);
      },
      std::move(cs));
  if (first) mark_states_ready();
}

void Mirror::Impl::mark_states_ready() {
  asio::post(strand, [self = shared_from_this()] {
    self->states_ready = true;
    self->states_at = Clock::now();
    if (self->states_waiter) self->states_waiter->cancel();
    self->update_synced();
  });
}

// Returns false when no sync is waiting for the initial states: publish as usual.
bool Mirror::Impl::hold_initial_states(json::object& ev) {
  if (!initial.waiting()) return false;
  StateTable empty;
  StateTableBuilder b(empty);
  ChangeSet ignored;
  detail::apply_entities_event(b, ev, true, ignored);
  if (std::optional<StateTable> back = initial.offer(b.build())) {
    // The sync finished meanwhile: publish now.
    ChangeSet cs;
    cs.full_resync = true;
    publish(std::move(cs), [&](Snapshot& snap) { snap.states = std::move(*back); });
  }
  mark_states_ready();
  return true;
}

// Legacy HA (< 2022.4): state_changed events.
void Mirror::Impl::on_state_changed(const json::value& event) {
  const auto* ev = event.if_object();
  if (!ev) return;
  const auto* data = ev->if_contains("data");
  if (!data || !data->is_object()) return;
  const auto* id_value = data->as_object().if_contains("entity_id");
  if (!id_value || !id_value->is_string() || id_value->as_string().empty()) return;
  const std::string id(id_value->as_string());
  const auto* ns = data->as_object().if_contains("new_state");
  ChangeSet cs;
  publish_states(
      [&](StateTableBuilder& b) {
        if (!ns || ns->is_null()) {
          if (b.erase(id)) cs.states_removed.push_back(id);
          return;
        }
        auto parsed = EntityState::from_json(*ns);
        if (!parsed) return;
        (b.find(id) ? cs.states_changed : cs.states_added).push_back(id);
        b.put(std::make_shared<const EntityState>(std::move(*parsed)));
      },
      std::move(cs));
}

// Replace all states from a full list (get_states / GET /api/states), with a diff.
void Mirror::Impl::replace_all_states(const json::value& list, bool full_resync) {
  if (!list.is_array()) return;
  ChangeSet cs;
  cs.full_resync = full_resync;
  const StateTable old = load()->states;
  publish_states([&](StateTableBuilder& b) { detail::replace_with_state_list(b, old, list.as_array(), cs); },
                 std::move(cs));
}

// ---------------- public API ----------------

Mirror::Mirror(asio::any_io_executor executor, std::shared_ptr<WsClient> ws, std::shared_ptr<RestClient> rest,
               MirrorOptions options)
    : impl_(std::make_shared<Impl>(std::move(executor), ws, rest, options)) {}

Mirror::~Mirror() { stop(); }

void Mirror::start() {
  auto impl = impl_;
  std::weak_ptr<Impl> weak = impl;
  impl->ws.on_state_change([weak](WsState st, const std::optional<HaError>& err) {
    if (auto self = weak.lock()) self->on_ws_state(st, err);
  });
  asio::co_spawn(impl->strand, impl->poll_loop(), asio::detached);
}

void Mirror::stop() { impl_->stopped = true; }

SnapshotPtr Mirror::snapshot() const { return impl_->load(); }

MirrorStatus Mirror::status() const { return impl_->status.get(); }

std::size_t Mirror::add_listener(ChangeListener listener) { return impl_->publisher.add_listener(std::move(listener)); }

void Mirror::remove_listener(std::size_t id) { impl_->publisher.remove_listener(id); }

asio::awaitable<bool> Mirror::wait_synced(std::chrono::milliseconds timeout) {
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  const auto deadline = Impl::Clock::now() + timeout;
  while (status().state != MirrorState::synced) {
    if (Impl::Clock::now() >= deadline) co_return false;
    timer.expires_after(std::chrono::milliseconds(10));
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return true;
}

}  // namespace hamcp::ha
