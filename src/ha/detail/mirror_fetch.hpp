#pragma once
// Fetches what the mirror holds besides the states over the WebSocket: one
// registry list (category: every scope the frontend uses), the config and the
// services catalogue, without publishing anything.
// Threading: no state of its own; runs on the coroutine that awaits it (the
// mirror's strand). The WsClient it uses is thread-safe.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <chrono>
#include <memory>
#include <vector>

#include "ha/errors.hpp"
#include "ha/snapshot.hpp"

namespace hamcp::ha {
class WsClient;
}

namespace hamcp::ha::detail {

struct FetchedRegistry {
  RegistryKind kind = RegistryKind::entity;
  RegistryPtr registry;
  bool available = true;  // false: this HA version has no such registry
};

// Everything a sync fetches besides the states.
struct FetchedAll {
  std::shared_ptr<const boost::json::object> config;
  std::shared_ptr<const boost::json::object> services;
  std::vector<FetchedRegistry> registries;  // in RegistryKind order
};

class MirrorFetch {
 public:
  MirrorFetch(WsClient& ws, std::chrono::milliseconds timeout) : ws_(ws), timeout_(timeout) {}

  boost::asio::awaitable<FetchedRegistry> registry(RegistryKind kind);
  boost::asio::awaitable<std::shared_ptr<const boost::json::object>> config();
  boost::asio::awaitable<std::shared_ptr<const boost::json::object>> services();
  // Config, services and every registry with all their commands in flight
  // together: Home Assistant answers one while the previous answer is
  // decoded here. The first failure (in that order) is rethrown once every
  // command has finished.
  boost::asio::awaitable<FetchedAll> all();

  // Puts a fetched registry into a snapshot being built.
  static void install(Snapshot& s, const FetchedRegistry& f);

 private:
  boost::asio::awaitable<boost::json::array> category_items();
  boost::asio::awaitable<RegistryPtr> list_registry(RegistryKind kind);
  boost::asio::awaitable<std::shared_ptr<const boost::json::object>> object_command(const char* type);

  WsClient& ws_;
  std::chrono::milliseconds timeout_;
};

// HA answered that it does not know a command (older versions).
bool unsupported(const HaError& e);

}  // namespace hamcp::ha::detail
