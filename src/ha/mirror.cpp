#include "ha/mirror.hpp"

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <spdlog/spdlog.h>

#include <mutex>

#include "ha/detail/repeat_limiter.hpp"
#include "ha/rest_client.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

namespace asio = boost::asio;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

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

namespace {

constexpr std::array<RegistryKind, kRegistryKinds> kAllRegistries = {RegistryKind::entity, RegistryKind::device,
                                                                     RegistryKind::area,   RegistryKind::floor,
                                                                     RegistryKind::label,  RegistryKind::category};
// Category scopes the HA frontend uses.
constexpr std::array<const char*, 4> kCategoryScopes = {"automation", "script", "scene", "helpers"};

std::string str(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

void apply_context(EntityState& s, const json::value& c) {
  if (c.is_string()) {
    s.context_id = std::string(c.as_string());
    s.context_parent_id.clear();
    s.context_user_id.clear();
  } else if (const auto* o = c.if_object()) {
    s.context_id = str(*o, "id");
    s.context_parent_id = str(*o, "parent_id");
    s.context_user_id = str(*o, "user_id");
  }
}

double num(const json::value& v) { return v.is_number() ? v.to_number<double>() : 0.0; }

// subscribe_entities "a" entry: {"s","a","c","lc","lu"?}
// The attributes are kept as compact text (see ha::Attributes).
EntityState expand_compressed(const std::string& entity_id, json::object& c) {
  EntityState s;
  s.entity_id = entity_id;
  s.state = str(c, "s");
  if (const auto* a = c.if_contains("a"); a && a->is_object()) s.attributes = Attributes(a->as_object());
  if (const auto* ctx = c.if_contains("c")) apply_context(s, *ctx);
  if (const auto* lc = c.if_contains("lc")) s.last_changed = num(*lc);
  s.last_updated = s.last_changed;
  if (const auto* lu = c.if_contains("lu")) s.last_updated = num(*lu);
  s.last_reported = s.last_updated;
  return s;
}

// subscribe_entities "c" entry: {"+":{s?,a?,c?,lc?,lu?}, "-":{"a":[keys]}}
void apply_compressed_diff(EntityState& s, const json::object& diff) {
  if (const auto* plus = diff.if_contains("+"); plus && plus->is_object()) {
    const auto& p = plus->as_object();
    if (const auto* st = p.if_contains("s"); st && st->is_string()) s.state = std::string(st->as_string());
    if (const auto* a = p.if_contains("a"); a && a->is_object()) {
      json::object attributes = s.attributes.parse();
      for (const auto& kv : a->as_object()) attributes[kv.key()] = kv.value();
      s.attributes = Attributes(attributes);
    }
    if (const auto* ctx = p.if_contains("c")) apply_context(s, *ctx);
    if (const auto* lc = p.if_contains("lc")) {
      s.last_changed = s.last_updated = num(*lc);
    } else if (const auto* lu = p.if_contains("lu")) {
      s.last_updated = num(*lu);
    }
    s.last_reported = s.last_updated;
  }
  if (const auto* minus = diff.if_contains("-"); minus && minus->is_object()) {
    if (const auto* a = minus->as_object().if_contains("a"); a && a->is_array()) {
      json::object attributes = s.attributes.parse();
      for (const auto& key : a->as_array()) {
        if (key.is_string()) attributes.erase(key.as_string());
      }
      s.attributes = Attributes(attributes);
    }
  }
}

bool unsupported(const HaError& e) {
  return e.cause == ErrorCause::command_failed &&
         (e.ha_code == "unknown_command" || e.ha_code == "not_found" || e.ha_code == "invalid_format");
}

}  // namespace

struct Mirror::Impl : std::enable_shared_from_this<Mirror::Impl> {
  asio::any_io_executor executor;
  asio::strand<asio::any_io_executor> strand;
  std::shared_ptr<WsClient> ws_owner;  // kept alive while our coroutines run
  std::shared_ptr<RestClient> rest_owner;
  WsClient& ws;
  RestClient& rest;
  MirrorOptions options;

  // Readers copy the pointer under this lock (nanoseconds); updates are built
  // outside it, so a reader never waits for an update.
  mutable std::mutex current_mutex;
  std::shared_ptr<const Snapshot> current_ptr = std::make_shared<const Snapshot>();
  std::shared_ptr<const Snapshot> load() const {
    std::lock_guard lock(current_mutex);
    return current_ptr;
  }
  void store(std::shared_ptr<const Snapshot> next) {
    std::lock_guard lock(current_mutex);
    current_ptr = std::move(next);
  }
  std::mutex write_mutex;  // serialises writers; readers never take it
  std::uint64_t version = 0;

  mutable std::mutex listeners_mutex;
  std::map<std::size_t, ChangeListener> listeners;
  std::size_t next_listener = 1;

  mutable std::mutex status_mutex;
  MirrorStatus status_value;

  // strand-only
  bool subscribed = false;
  bool subscribing = false;
  bool legacy_states = false;  // no subscribe_entities: get_states + state_changed
  bool states_ready = false;
  bool rest_ready = false;  // registries/config/services fetched on this connection
  bool ws_up = false;
  std::uint64_t sync_epoch = 0;
  std::array<bool, kRegistryKinds> registry_dirty{};
  bool services_dirty = false;
  bool config_dirty = false;
  bool refresh_scheduled = false;
  detail::RepeatLimiter sync_log, refresh_log;  // a broken HA must not flood the log
  std::atomic<bool> stopped{false};
  std::optional<Clock::time_point> last_poll;
  std::optional<Clock::time_point> connected_at;
  // Initial states held for the running sync (see hold_initial_states).
  std::mutex stage_mutex;
  bool staging = false;
  std::optional<StateTable> staged;  // for the one "synced in N ms" log line

  Impl(asio::any_io_executor ex, std::shared_ptr<WsClient> w, std::shared_ptr<RestClient> r, MirrorOptions o)
      : executor(ex),
        strand(asio::make_strand(ex)),
        ws_owner(std::move(w)),
        rest_owner(std::move(r)),
        ws(*ws_owner),
        rest(*rest_owner),
        options(o) {
    status_value.detail = "connecting to Home Assistant";
  }

  // ---------------- publishing ----------------

  void publish(ChangeSet&& cs, const std::function<void(Snapshot&)>& mutate) {
    std::lock_guard lock(write_mutex);
    auto next = std::make_shared<Snapshot>(*load());
    mutate(*next);
    next->version = ++version;
    cs.version = next->version;
    std::shared_ptr<const Snapshot> frozen = next;
    store(frozen);
    {
      std::lock_guard s(status_mutex);
      status_value.version = frozen->version;
      status_value.entity_count = frozen->states.size();
    }
    std::vector<ChangeListener> to_call;
    {
      std::lock_guard l(listeners_mutex);
      for (auto& [id, fn] : listeners) to_call.push_back(fn);
    }
    for (auto& fn : to_call) {
      try {
        fn(cs, frozen);
      } catch (const std::exception& e) {
        spdlog::error("ha mirror: change listener threw: {}", e.what());
      }
    }
  }

  void set_status(MirrorState st, std::string mode, std::string detail, std::optional<HaError> err,
                  bool keep_error = false) {
    std::lock_guard lock(status_mutex);
    status_value.state = st;
    status_value.mode = std::move(mode);
    status_value.detail = std::move(detail);
    if (err)
      status_value.last_error = std::move(err);
    else if (!keep_error)
      status_value.last_error.reset();
    status_value.ha_version = ws.ha_version();
  }

  // A sync frees the frame texts and DOMs of the initial states and the
  // registry lists (hundreds of MB on a big home). glibc keeps freed memory in
  // its arenas; hand it back so the steady-state RSS is what the mirror holds.
  static void return_freed_memory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
  }

  void update_synced() {
    if (ws_up && states_ready && rest_ready) {
      set_status(MirrorState::synced, "websocket", "live: subscribed to state and registry changes", std::nullopt);
      if (connected_at) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *connected_at).count();
        spdlog::info("ha mirror: synced {} entities in {} ms", load()->states.size(), ms);
        connected_at.reset();
        return_freed_memory();
      }
    }
  }

  // ---------------- states ----------------

  // Consumes event (the initial one holds every entity: each is converted to
  // the compact EntityState and its DOM dropped; a big event's DOM lives in a
  // MessageArena, unmapped as a whole when the event is done).
  void on_entities_event(json::value& event, bool first) {
    auto* ev = event.if_object();
    if (!ev) return;
    ChangeSet cs;
    cs.full_resync = first;
    if (first && hold_initial_states(*ev)) return;
    if (!first && apply_to_held_states(*ev)) return;
    publish_states(
        [&](StateTableBuilder& b) {
          if (first) b.clear();
          apply_entities(b, *ev, first, cs);
        },
        std::move(cs));
    if (first) mark_states_ready();
  }

  void mark_states_ready() {
    asio::post(strand, [self = shared_from_this()] {
      self->states_ready = true;
      self->update_synced();
    });
  }

  void apply_entities(StateTableBuilder& b, json::object& ev, bool first, ChangeSet& cs) {
    if (auto* a = ev.if_contains("a"); a && a->is_object()) {
      for (auto& kv : a->as_object()) {
        if (!kv.value().is_object()) continue;
        std::string id(kv.key());
        const bool existed = !first && b.find(id) != nullptr;
        b.put(std::make_shared<const EntityState>(expand_compressed(id, kv.value().as_object())));
        kv.value() = nullptr;  // drop this entity's DOM now (freed at once unless it lives in a MessageArena)
        if (!first) (existed ? cs.states_changed : cs.states_added).push_back(std::move(id));
      }
    }
    if (const auto* c = ev.if_contains("c"); c && c->is_object()) {
      for (const auto& kv : c->as_object()) {
        if (!kv.value().is_object()) continue;
        auto old = b.find(kv.key());
        if (!old) continue;
        auto updated = std::make_shared<EntityState>(*old);
        apply_compressed_diff(*updated, kv.value().as_object());
        b.put(std::move(updated));
        cs.states_changed.emplace_back(kv.key());
      }
    }
    if (const auto* r = ev.if_contains("r"); r && r->is_array()) {
      for (const auto& id : r->as_array()) {
        if (id.is_string() && b.erase(std::string(id.as_string()))) cs.states_removed.emplace_back(id.as_string());
      }
    }
  }

  // While a sync fetches config, services and registries, the initial states
  // wait for it and are published in the same update: listeners (the search
  // index) then build their view of every entity once, not once for states
  // and again for registries (each a full rebuild next to the old view: on a
  // 100k-entity home that is seconds and ~100 MB of peak). Returns false when
  // no sync is waiting: publish as usual.
  bool hold_initial_states(json::object& ev) {
    {
      std::lock_guard lock(stage_mutex);
      if (!staging) return false;
    }
    StateTable empty;
    StateTableBuilder b(empty);
    ChangeSet ignored;
    apply_entities(b, ev, true, ignored);
    StateTable table = b.build();
    {
      std::lock_guard lock(stage_mutex);
      if (!staging) {
        // The sync finished meanwhile: publish now.
        ChangeSet cs;
        cs.full_resync = true;
        publish(std::move(cs), [&](Snapshot& snap) { snap.states = std::move(table); });
        mark_states_ready();
        return true;
      }
      staged = std::move(table);
    }
    mark_states_ready();
    return true;
  }

  // Changes that arrive while the initial states are held go into them, so
  // the sync publishes the current states, not those of the first event.
  bool apply_to_held_states(json::object& ev) {
    std::lock_guard lock(stage_mutex);
    if (!staging || !staged) return false;
    StateTableBuilder b(*staged);
    ChangeSet ignored;
    apply_entities(b, ev, false, ignored);
    staged = b.build();
    return true;
  }

  void begin_staging() {
    std::lock_guard lock(stage_mutex);
    staging = true;
    staged.reset();
  }

  std::optional<StateTable> end_staging() {
    std::lock_guard lock(stage_mutex);
    staging = false;
    std::optional<StateTable> out = std::move(staged);
    staged.reset();
    return out;
  }

  // Legacy HA (< 2022.4): state_changed events.
  void on_state_changed(const json::value& event) {
    const auto* ev = event.if_object();
    if (!ev) return;
    const auto* data = ev->if_contains("data");
    if (!data || !data->is_object()) return;
    const std::string id = str(data->as_object(), "entity_id");
    if (id.empty()) return;
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
  void replace_all_states(const json::value& list, bool full_resync) {
    if (!list.is_array()) return;
    ChangeSet cs;
    cs.full_resync = full_resync;
    const StateTable old = load()->states;
    publish_states(
        [&](StateTableBuilder& b) {
          b.clear();
          for (const auto& item : list.as_array()) {
            auto parsed = EntityState::from_json(item);
            if (!parsed) continue;
            auto prev = old.find(parsed->entity_id);
            if (!prev)
              cs.states_added.push_back(parsed->entity_id);
            else if (prev->last_updated != parsed->last_updated || prev->state != parsed->state ||
                     prev->attributes != parsed->attributes)
              cs.states_changed.push_back(parsed->entity_id);
            b.put(std::make_shared<const EntityState>(std::move(*parsed)));
          }
          old.for_each([&](const EntityStatePtr& s) {
            if (!b.find(s->entity_id)) cs.states_removed.push_back(s->entity_id);
          });
        },
        std::move(cs));
  }

  void publish_states(const std::function<void(StateTableBuilder&)>& edit, ChangeSet&& cs) {
    publish(std::move(cs), [&](Snapshot& snap) {
      StateTableBuilder b(snap.states);
      edit(b);
      snap.states = b.build();
    });
  }

  // ---------------- registries, config, services ----------------

  struct FetchedRegistry {
    RegistryKind kind;
    RegistryPtr registry;
    bool available = true;
  };

  // Fetch one registry list without publishing it.
  asio::awaitable<FetchedRegistry> load_registry(RegistryKind kind) {
    json::array items;
    bool available = true;
    try {
      if (kind == RegistryKind::category) {
        for (const char* scope : kCategoryScopes) {
          json::object cmd;
          cmd["type"] = "config/category_registry/list";
          cmd["scope"] = scope;
          json::value r = co_await ws.command(std::move(cmd), options.command_timeout);
          if (!r.is_array()) continue;
          for (auto& item : r.as_array()) {
            if (auto* o = item.if_object()) (*o)["scope"] = scope;
            items.push_back(std::move(item));
          }
        }
      } else {
        json::object cmd;
        cmd["type"] = "config/" + std::string(to_string(kind)) + "_registry/list";
        json::value r = co_await ws.command(std::move(cmd), options.command_timeout);
        if (r.is_array()) items = std::move(r.as_array());
      }
    } catch (const HaException& e) {
      if (!unsupported(e.error())) throw;
      available = false;  // e.g. floors/labels/categories before HA 2024.4
      items.clear();
    }
    auto reg = Registry::make(kind, std::move(items), available);
    co_return FetchedRegistry{kind, std::move(reg), available};
  }

  static void install(Snapshot& s, const FetchedRegistry& f) {
    s.registries[static_cast<std::size_t>(f.kind)] = f.registry;
    s.capabilities.registries[static_cast<std::size_t>(f.kind)] = f.available;
  }

  asio::awaitable<void> fetch_registry(RegistryKind kind) {
    FetchedRegistry f = co_await load_registry(kind);
    ChangeSet cs;
    cs.registries_changed.push_back(kind);
    publish(std::move(cs), [&](Snapshot& s) { install(s, f); });
  }

  asio::awaitable<std::shared_ptr<const json::object>> load_config() {
    json::object cmd;
    cmd["type"] = "get_config";
    json::value r = co_await ws.command(std::move(cmd), options.command_timeout);
    co_return std::make_shared<const json::object>(r.is_object() ? std::move(r.as_object()) : json::object{});
  }

  asio::awaitable<std::shared_ptr<const json::object>> load_services() {
    json::object cmd;
    cmd["type"] = "get_services";
    json::value r = co_await ws.command(std::move(cmd), options.command_timeout);
    co_return std::make_shared<const json::object>(r.is_object() ? std::move(r.as_object()) : json::object{});
  }

  asio::awaitable<void> fetch_config() {
    auto cfg = co_await load_config();
    ChangeSet cs;
    cs.config_changed = true;
    publish(std::move(cs), [&](Snapshot& s) {
      s.config = cfg;
      s.ha_version = ws.ha_version();
    });
  }

  asio::awaitable<void> fetch_services() {
    auto svc = co_await load_services();
    ChangeSet cs;
    cs.services_changed = true;
    publish(std::move(cs), [&](Snapshot& s) { s.services = svc; });
  }

  // ---------------- subscriptions + sync ----------------

  asio::awaitable<void> subscribe_all() {
    auto strong = shared_from_this();
    std::weak_ptr<Impl> self = strong;  // handlers live in the WsClient: no ownership cycle
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
      if (!unsupported(e.error())) throw;
      entities_supported = false;
    }
    if (!entities_supported) {
      // HA before 2022.4: full states once per connection + state_changed events.
      legacy_states = true;
      json::object sc;
      sc["type"] = "subscribe_events";
      sc["event_type"] = "state_changed";
      WsClient::EventHandler on_changed = [self](const json::value& ev, bool) {
        if (auto m = self.lock()) m->on_state_changed(ev);
      };
      auto op = ws.subscribe(std::move(sc), std::move(on_changed));
      co_await std::move(op);
    }
    for (RegistryKind kind : kAllRegistries) {
      json::object sub;
      sub["type"] = "subscribe_events";
      sub["event_type"] = std::string(to_string(kind)) + "_registry_updated";
      WsClient::EventHandler on_registry = [self, kind](const json::value&, bool) {
        if (auto m = self.lock())
          m->mark_dirty([kind](Impl& mm) { mm.registry_dirty[static_cast<std::size_t>(kind)] = true; });
      };
      auto op = ws.subscribe(std::move(sub), std::move(on_registry));
      co_await std::move(op);
    }
    for (const char* type : {"service_registered", "service_removed"}) {
      json::object sub;
      sub["type"] = "subscribe_events";
      sub["event_type"] = type;
      WsClient::EventHandler on_services = [self](const json::value&, bool) {
        if (auto m = self.lock()) m->mark_dirty([](Impl& mm) { mm.services_dirty = true; });
      };
      auto op = ws.subscribe(std::move(sub), std::move(on_services));
      co_await std::move(op);
    }
    json::object core;
    core["type"] = "subscribe_events";
    core["event_type"] = "core_config_updated";
    WsClient::EventHandler on_config = [self](const json::value&, bool) {
      if (auto m = self.lock()) m->mark_dirty([](Impl& mm) { mm.config_dirty = true; });
    };
    auto op = ws.subscribe(std::move(core), std::move(on_config));
    co_await std::move(op);
  }

  // Called on the WS strand; flags are strand-owned, so hop first.
  void mark_dirty(std::function<void(Impl&)> mark) {
    asio::post(strand, [self = shared_from_this(), mark = std::move(mark)] {
      mark(*self);
      if (self->refresh_scheduled || self->stopped) return;
      self->refresh_scheduled = true;
      asio::co_spawn(self->strand, self->debounced_refresh(), asio::detached);
    });
  }

  asio::awaitable<void> debounced_refresh() {
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

  asio::awaitable<void> sync(std::uint64_t epoch) {
    auto self = shared_from_this();
    if (!legacy_states) begin_staging();
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
      // Fetch config, services and every registry, then publish them as one
      // update: each publication makes listeners (the search index) rebuild
      // their view of every entity, which on a 100k-entity home costs seconds
      // and hundreds of MB of churn per registry.
      auto cfg = co_await load_config();
      auto svc = co_await load_services();
      std::vector<FetchedRegistry> regs;
      for (RegistryKind kind : kAllRegistries) {
        FetchedRegistry f = co_await load_registry(kind);
        regs.push_back(std::move(f));
      }
      std::optional<StateTable> states = end_staging();
      ChangeSet cs;
      cs.full_resync = true;
      cs.config_changed = true;
      cs.services_changed = true;
      for (const auto& f : regs) cs.registries_changed.push_back(f.kind);
      publish(std::move(cs), [&](Snapshot& s) {
        s.config = cfg;
        s.ha_version = ws.ha_version();
        s.services = svc;
        for (const auto& f : regs) install(s, f);
        s.capabilities.websocket = true;
        if (states) s.states = std::move(*states);
      });
      regs.clear();
      if (epoch != sync_epoch) co_return;  // a newer connection took over
      rest_ready = true;
      update_synced();
    } catch (const HaException& e) {
      subscribing = false;
      if (std::optional<StateTable> states = end_staging()) {
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

  void on_ws_state(WsState st, const std::optional<HaError>& err) {
    // On the WS strand: hop to ours.
    asio::post(strand, [self = shared_from_this(), st, err] {
      if (self->stopped) return;
      if (st == WsState::connected) {
        self->ws_up = true;
        self->connected_at = Clock::now();
        self->states_ready = self->legacy_states ? false : self->states_ready;
        self->rest_ready = false;
        ++self->sync_epoch;
        self->set_status(MirrorState::connecting, "websocket", "connected, syncing", std::nullopt);
        asio::co_spawn(self->strand, self->sync(self->sync_epoch), asio::detached);
      } else if (st == WsState::waiting_to_reconnect || st == WsState::stopped) {
        const bool was_up = self->ws_up;
        self->ws_up = false;
        self->states_ready = false;
        self->rest_ready = false;
        ++self->sync_epoch;
        std::string detail = was_up ? "connection lost, reconnecting" : "cannot connect, retrying";
        MirrorState next = MirrorState::disconnected;
        {
          std::lock_guard lock(self->status_mutex);
          // Keep "degraded" while REST polling still works.
          if (self->status_value.state == MirrorState::degraded) next = MirrorState::degraded;
        }
        self->set_status(next, next == MirrorState::degraded ? "rest_polling" : "websocket", detail, err, true);
        if (was_up) self->last_poll.reset();  // poll right away
      }
    });
  }

  // ---------------- REST polling fallback ----------------

  asio::awaitable<void> poll_loop() {
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

  asio::awaitable<void> poll_once() {
    const std::string states_path = "/api/states", config_path = "/api/config", services_path = "/api/services";
    try {
      json::value states = co_await rest.get_json(states_path);
      if (ws_up) co_return;
      const bool first = load()->config == nullptr;
      if (first) {
        json::value cfg = co_await rest.get_json(config_path);
        auto c = std::make_shared<const json::object>(cfg.is_object() ? cfg.as_object() : json::object{});
        ChangeSet cs;
        cs.config_changed = true;
        publish(std::move(cs), [&](Snapshot& s) { s.config = c; });
      }
      if (!load()->services) {
        json::value svc = co_await rest.get_json(services_path);
        // REST gives [{domain, services}]; the snapshot keeps WS's {domain: services}.
        json::object by_domain;
        if (svc.is_array()) {
          for (const auto& d : svc.as_array()) {
            if (const auto* o = d.if_object()) {
              if (const auto* s = o->if_contains("services")) by_domain[str(*o, "domain")] = *s;
            }
          }
        }
        auto p = std::make_shared<const json::object>(std::move(by_domain));
        ChangeSet cs;
        cs.services_changed = true;
        publish(std::move(cs), [&](Snapshot& s) { s.services = p; });
      }
      if (ws_up) co_return;
      replace_all_states(states, false);
      std::optional<HaError> ws_err = ws.last_error();
      set_status(MirrorState::degraded, "rest_polling",
                 "WebSocket unavailable; polling /api/states every " +
                     std::to_string(options.poll_interval.count() / 1000.0).substr(0, 4) + " s" +
                     (ws_err ? " (" + ws_err->explanation() + ")" : std::string()),
                 ws_err, true);
    } catch (const HaException& e) {
      if (ws_up) co_return;
      set_status(MirrorState::disconnected, "websocket", "Home Assistant unreachable over WebSocket and REST",
                 e.error());
    }
  }
};

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

MirrorStatus Mirror::status() const {
  std::lock_guard lock(impl_->status_mutex);
  return impl_->status_value;
}

std::size_t Mirror::add_listener(ChangeListener listener) {
  std::lock_guard lock(impl_->listeners_mutex);
  const std::size_t id = impl_->next_listener++;
  impl_->listeners.emplace(id, std::move(listener));
  return id;
}

void Mirror::remove_listener(std::size_t id) {
  std::lock_guard lock(impl_->listeners_mutex);
  impl_->listeners.erase(id);
}

asio::awaitable<bool> Mirror::wait_synced(std::chrono::milliseconds timeout) {
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor);
  const auto deadline = Clock::now() + timeout;
  while (status().state != MirrorState::synced) {
    if (Clock::now() >= deadline) co_return false;
    timer.expires_after(std::chrono::milliseconds(10));
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return true;
}

}  // namespace hamcp::ha
