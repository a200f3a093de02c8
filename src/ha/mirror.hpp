#pragma once
// Live mirror of Home Assistant: states (subscribe_entities, compressed diffs),
// entity/device/area/floor/label/category registries (refetched on their
// *_registry_updated events), config and the services catalogue.
//
// Readers call snapshot() and get an immutable std::shared_ptr<const Snapshot>:
// a pointer copy under a mutex held only for that copy, never for an update. Every published update bumps
// Snapshot::version and tells change listeners what changed, so derived data
// (the search index) can update incrementally.
//
// Without a WebSocket connection the mirror falls back to polling
// GET /api/states and reports status "degraded" (mode "rest_polling").

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "ha/errors.hpp"
#include "ha/snapshot.hpp"

namespace hamcp::ha {

class WsClient;
class RestClient;

enum class MirrorState { connecting, synced, degraded, disconnected };
std::string_view to_string(MirrorState state) noexcept;

struct MirrorStatus {
  MirrorState state = MirrorState::connecting;
  std::string mode = "websocket";  // "websocket" | "rest_polling"
  std::optional<HaError> last_error;
  std::string detail;  // one human sentence on what the mirror is doing
  std::uint64_t version = 0;
  std::size_t entity_count = 0;
  std::string ha_version;
  boost::json::object to_json() const;
};

struct MirrorOptions {
  std::chrono::milliseconds poll_interval{10000};    // REST fallback period
  std::chrono::milliseconds registry_debounce{150};  // coalesce bursts of *_registry_updated
  std::chrono::milliseconds command_timeout{60000};  // registry lists can be tens of MB
};

using ChangeListener = std::function<void(const ChangeSet& changes, const SnapshotPtr& snapshot)>;

class Mirror {
 public:
  // Shares ownership of the clients so background work never outlives them.
  Mirror(boost::asio::any_io_executor executor, std::shared_ptr<WsClient> ws, std::shared_ptr<RestClient> rest,
         MirrorOptions options = {});
  ~Mirror();
  Mirror(const Mirror&) = delete;
  Mirror& operator=(const Mirror&) = delete;

  // Hook into the WebSocket client and start syncing in the background.
  // Call before or after WsClient::start(). Never throws.
  void start();
  void stop();

  SnapshotPtr snapshot() const;  // never null; version 0 = nothing synced yet
  MirrorStatus status() const;

  // Listeners run on the HA client's thread right after a snapshot is
  // published, in publication order. Keep them short; never block.
  std::size_t add_listener(ChangeListener listener);
  void remove_listener(std::size_t id);

  // Completes when status is synced (true) or the timeout passes (false).
  boost::asio::awaitable<bool> wait_synced(std::chrono::milliseconds timeout);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::ha
