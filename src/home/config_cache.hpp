#pragma once
// The config cache behind ha_search's config results: every automation,
// script and scene config, fetched from Home Assistant's config editor with a
// bounded pool of parallel requests, indexed by what is inside it (entity
// ids, services, trigger types, alias, description) in the one search engine
// (search::EntityIndex, a second instance: one document per item), and kept
// current from the mirror: an item whose entity is added, changed or
// reloaded is fetched again, a removed one leaves, a full resync refetches
// everything. Never blocks a caller: a search while it warms answers what is
// loaded so far and says so (status()); wait_ready() waits, bounded, for
// callers that ask for it.
//
// A kind is one table entry (config_cache.cpp: domain + how an entity names
// its config). Storage helpers (input_*, counter, timer, ...) are the next
// entry once their WebSocket <domain>/list exists in hamcp: they come as one
// list per domain instead of one GET per item (see kKinds).
//
// Threading: the fetches run on the executor given to start() (hamcp's one
// I/O thread); the mirror listener only posts there. query()/config_of()/
// status() may be called from any thread (the index has its own lock, the
// configs map and counters are under mutex_).

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ha/ha_client.hpp"
#include "search/entity_index.hpp"

namespace hamcp::home {

struct ConfigCacheOptions {
  std::size_t parallel = 8;  // config GETs in flight at once
};

class ConfigCache {
 public:
  explicit ConfigCache(ha::HaClient& ha, ConfigCacheOptions options = {});
  ~ConfigCache();
  ConfigCache(const ConfigCache&) = delete;
  ConfigCache& operator=(const ConfigCache&) = delete;

  // Follows the mirror from now on; fetching starts with the first full sync
  // (or at once when the mirror is already synced). Idempotent.
  void start(boost::asio::any_io_executor executor);
  // Stops listening; fetches in flight end without effect.
  void detach();

  struct Status {
    bool ready = false;       // the first full pass is done and nothing is pending
    std::size_t loaded = 0;   // items indexed
    std::size_t pending = 0;  // items waiting for (or in) a fetch
    std::size_t failed = 0;   // fetches that failed since start (kept out of the index)
    double warm_ms = 0;       // how long the first full pass took (0 until ready)
  };
  Status status() const;

  // The engine's query over the config documents (entity_id = the item's entity).
  search::Result query(const search::Query& q) const;
  // The cached config of an item's entity.
  std::optional<boost::json::value> config_of(std::string_view entity_id) const;
  // Waits until ready, at most `timeout`; true when ready.
  boost::asio::awaitable<bool> wait_ready(std::chrono::milliseconds timeout);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

// What a config says, for the index: referenced entity ids, services
// ("light.turn_on"), trigger/condition types ("trigger: state"), in order of
// first appearance, at most `limit`. Public for tests.
std::vector<std::string> config_terms(const boost::json::value& config, std::size_t limit = 64);

}  // namespace hamcp::home
