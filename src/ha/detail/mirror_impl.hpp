#pragma once
// Mirror::Impl: the mirror's parts and the strand-owned sync state that ties
// them together. Each part states its own threading rule:
//   SnapshotPublisher  current snapshot + listeners   any thread; writers serialised
//   StatusBoard        what status() reports          any thread; one mutex
//   InitialStates      initial states held for a sync WsClient strand + ours; one mutex
//   MirrorFetch        registry/config/services calls no state; runs on our strand
//   state_decode       HA's state messages -> edits   pure functions
// Everything else in Impl (the flags below "strand-only") is touched only on
// `strand`; callbacks from the WsClient hop there first (asio::post).
// Files: mirror.cpp (public API, state events), mirror_sync.cpp (subscriptions,
// sync, refresh, connection changes), mirror_poll.cpp (REST polling fallback).

#include <array>
#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "ha/detail/initial_states.hpp"
#include "ha/detail/mirror_fetch.hpp"
#include "ha/detail/repeat_limiter.hpp"
#include "ha/detail/snapshot_publisher.hpp"
#include "ha/detail/status_board.hpp"
#include "ha/mirror.hpp"
#include "ha/ws_client.hpp"

namespace hamcp::ha {

class RestClient;

struct Mirror::Impl : std::enable_shared_from_this<Mirror::Impl> {
  using Clock = std::chrono::steady_clock;

  Impl(boost::asio::any_io_executor ex, std::shared_ptr<WsClient> w, std::shared_ptr<RestClient> r, MirrorOptions o);

  boost::asio::any_io_executor executor;
  boost::asio::strand<boost::asio::any_io_executor> strand;
  std::shared_ptr<WsClient> ws_owner;  // kept alive while our coroutines run
  std::shared_ptr<RestClient> rest_owner;
  WsClient& ws;
  RestClient& rest;
  MirrorOptions options;

  detail::StatusBoard status;
  detail::SnapshotPublisher publisher;
  detail::InitialStates initial;
  detail::MirrorFetch fetch;
  std::atomic<bool> stopped{false};

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
  std::optional<Clock::time_point> last_poll;
  std::optional<Clock::time_point> connected_at;  // for the one "synced in N ms" log line
  // When this sync's initial states and its fetches (registries, services,
  // config) were in, and how long its publication's listeners (the search
  // index) took: the "synced" line breaks its time down.
  std::optional<Clock::time_point> states_at, fetched_at;
  Clock::duration listeners_took{};
  // Set while a sync waits for the initial states. Shared with the waiting
  // coroutine, so a frame destroyed mid-wait (a stopped io_context) leaves
  // no dangling pointer for on_disconnected to cancel through.
  std::shared_ptr<boost::asio::steady_timer> states_waiter;

  SnapshotPtr load() const { return publisher.current(); }
  void publish(ChangeSet&& cs, const std::function<void(Snapshot&)>& mutate) { publisher.publish(cs, mutate); }
  void publish_states(const std::function<void(StateTableBuilder&)>& edit, ChangeSet&& cs);
  void set_status(MirrorState st, std::string mode, std::string detail, std::optional<HaError> err,
                  bool keep_error = false);

  // mirror.cpp: states
  void update_synced();
  void on_entities_event(boost::json::value& event, bool first);
  void mark_states_ready();
  bool hold_initial_states(boost::json::object& ev);
  void on_state_changed(const boost::json::value& event);
  void replace_all_states(const boost::json::value& list, bool full_resync);

  // mirror_sync.cpp: subscriptions, sync, refresh
  boost::asio::awaitable<void> subscribe_all();
  boost::asio::awaitable<void> subscribe_states(std::weak_ptr<Impl> self);
  boost::asio::awaitable<void> subscribe_changes(std::weak_ptr<Impl> self);
  void mark_dirty(std::function<void(Impl&)> mark);
  boost::asio::awaitable<void> debounced_refresh();
  boost::asio::awaitable<void> fetch_registry(RegistryKind kind);
  boost::asio::awaitable<void> fetch_config();
  boost::asio::awaitable<void> fetch_services();
  boost::asio::awaitable<void> sync(std::uint64_t epoch);
  boost::asio::awaitable<void> fetch_and_publish_all(std::uint64_t epoch);
  boost::asio::awaitable<void> initial_states_arrived(std::uint64_t epoch);
  void on_ws_state(WsState st, const std::optional<HaError>& err);
  void on_connected();
  void on_disconnected(const std::optional<HaError>& err);

  // mirror_poll.cpp: REST polling fallback
  boost::asio::awaitable<void> poll_loop();
  boost::asio::awaitable<void> poll_once();
  boost::asio::awaitable<void> poll_config_and_services();
};

}  // namespace hamcp::ha
