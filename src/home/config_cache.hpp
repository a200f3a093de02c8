#pragma once
// The config cache behind ha_search's config results: every automation,
// script and scene config (fetched from Home Assistant's config editor, one
// GET each) and every helper (storage helpers: one `<domain>/list` per
// collection; config-flow helpers: their config entries with their options;
// config_sources.hpp), fetched with a bounded pool of parallel requests,
// indexed by what is inside it (entity ids, also inside templates, services,
// trigger types, alias, description, name, icon) in the one search engine
// (search::EntityIndex, a second instance: one document per item); and every
// Lovelace dashboard (config_dashboards.hpp: title, views, cards, entities
// shown; refetched on lovelace_updated, the list on panels_updated).
//
// Kept current from the mirror (an item whose entity is added, changed or
// removed is fetched again or leaves; a full resync refetches everything) and
// from what HA fires when config changes without an entity change:
// automation_reloaded / scene_reloaded (every item of that kind is fetched
// again) and config_entries/subscribe (helper entries added,
// updated, removed). Never blocks a caller: a search while it warms answers
// what is loaded so far and says so (status()); wait_ready() waits, bounded,
// for callers that ask for it.
//
// A kind of editor config is one table entry (config_cache.cpp); the parts
// are in detail/config_cache_impl.hpp (config_cache.cpp: queue, workers,
// editor configs; config_cache_helpers.cpp: helpers and HA's events).
//
// Threading: the fetches run on the executor given to start() (hamcp's one
// I/O thread); the mirror listener and the subscriptions only queue work
// there. query()/config_of()/meta_of()/status() may be called from any thread
// (the index has its own lock, the rest is under the cache's mutex).

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ha/ha_client.hpp"
#include "home/config_terms.hpp"
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

  // The engine's query over the config documents (entity_id = the item's
  // entity, or a helper's document id; helpers carry the domain "helper").
  search::Result query(const search::Query& q) const;
  // The cached config of a document (an item's entity id).
  std::optional<boost::json::value> config_of(std::string_view doc_id) const;
  // What a result says about a document: {"kind": "automation"|"script"|"scene"},
  // {"kind":"dashboard","url_path","title","cards"}, or
  // {"kind":"helper","helper_type", "helper_id" (storage) | "entry_id","title","entities" (config entry)}.
  std::optional<boost::json::object> meta_of(std::string_view doc_id) const;
  // Waits until ready, at most `timeout`; true when ready.
  boost::asio::awaitable<bool> wait_ready(std::chrono::milliseconds timeout);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace hamcp::home
