#pragma once
// ConfigCache's state and parts (home/config_cache.hpp), shared by
// config_cache.cpp (the queue, the fetch workers, automations/scripts/scenes)
// and config_cache_helpers.cpp (storage and config-flow helpers, and what
// Home Assistant fires when config changes without an entity change).
// Threading: as the header says; everything under `mutex` is guarded by it.

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "home/config_cache.hpp"
#include "home/config_dashboards.hpp"
#include "home/config_sources.hpp"

namespace hamcp::home {

// Queued jobs besides an item's entity id: a storage collection's list, the
// helper config entries, one entry's options.
inline constexpr std::string_view kListJob = "@list:";
inline constexpr std::string_view kEntriesJob = "@entries";
inline constexpr std::string_view kEntryJob = "@entry:";
// The group of entry documents the entries list replaces as a whole.
inline constexpr std::string_view kEntriesGroup = "@entries";
// Dashboards: the list (also the group of their documents), and one dashboard's config.
inline constexpr std::string_view kDashboardsJob = "@dashboards";
inline constexpr std::string_view kDashboardJob = "@dashboard:";
inline constexpr std::string_view kDashboardsGroup = "@dashboards";

inline std::string list_job(std::string_view domain) { return std::string(kListJob) + std::string(domain); }
inline std::string_view domain_of(std::string_view entity_id) { return entity_id.substr(0, entity_id.find('.')); }

struct ConfigCache::Impl : std::enable_shared_from_this<ConfigCache::Impl> {
  Impl(ha::HaClient& h, ConfigCacheOptions o) : ha(h), options(o) {}

  struct Cached {
    boost::json::value config;
    boost::json::object meta;
  };

  ha::HaClient& ha;
  ConfigCacheOptions options;
  search::EntityIndex index;
  std::optional<boost::asio::any_io_executor> executor;
  std::size_t listener = 0;
  bool listening = false;

  mutable std::mutex mutex;  // guards everything below
  bool stopped = false;
  bool subscribed = false;
  bool full_pass_requested = false;
  bool full_pass_done = false;
  std::chrono::steady_clock::time_point warm_start{};
  double warm_ms = 0;
  std::deque<std::string> queue;  // jobs: entity ids to fetch, or list/entry jobs
  std::set<std::string> queued;
  std::size_t in_flight = 0;
  std::size_t workers = 0;
  std::size_t failed = 0;
  std::map<std::string, Cached, std::less<>> items;             // document id -> config
  std::map<std::string, std::set<std::string>> groups;          // a list's group -> its document ids
  std::map<std::string, HelperEntry, std::less<>> entries;      // helper config entries by entry id
  std::map<std::string, DashboardRef, std::less<>> dashboards;  // by url_path ("lovelace": the default one)

  // config_cache.cpp
  void on_change(const ha::ChangeSet& changes, const ha::SnapshotPtr& snap);
  void enqueue(std::vector<std::string> fetch, std::vector<std::string> gone, bool full);
  void drop_locked(const std::string& doc_id);
  void upsert_locked(ConfigItem item);
  void replace_group_locked(const std::string& group, std::vector<ConfigItem> fresh);
  void spawn_workers();
  std::optional<std::string> next();
  boost::asio::awaitable<void> work();
  boost::asio::awaitable<void> run_job(const std::string& job);
  boost::asio::awaitable<void> fetch_one(const std::string& entity_id);
  void store(const std::string& entity_id, const ha::EntityStatePtr& st, std::optional<boost::json::value> config,
             bool ok);

  // config_cache_helpers.cpp
  void note_helper_changes(const ha::ChangeSet& changes, const ha::Snapshot& snap, std::vector<std::string>& fetch);
  boost::asio::awaitable<void> subscribe_to_changes();
  boost::asio::awaitable<void> subscribe_quietly(boost::json::object message, ha::WsClient::EventHandler handler);
  void on_reloaded(std::string_view kind);
  void on_entries_changed(const boost::json::value& event);
  boost::asio::awaitable<void> fetch_list(std::string domain);
  boost::asio::awaitable<void> fetch_entries();
  boost::asio::awaitable<void> fetch_entry(std::string entry_id);

  // config_cache_dashboards.cpp
  boost::asio::awaitable<void> subscribe_to_dashboards(std::weak_ptr<Impl> weak);
  void on_lovelace_updated(const boost::json::value& event);
  boost::asio::awaitable<void> fetch_dashboard_list();
  boost::asio::awaitable<void> fetch_dashboard(std::string url_path);

  // One item of a listed group (a helper entry's options, a dashboard's
  // config): its reference is read under the lock, fetched outside it, and
  // inserted only if the listing still has it (it may be removed meanwhile).
  template <class Ref>
  boost::asio::awaitable<void> fetch_listed(std::map<std::string, Ref, std::less<>>& refs, std::string key,
                                            std::string_view group,
                                            boost::asio::awaitable<ConfigItem> (*fetch)(ha::HaClient&, Ref));
};

template <class Ref>
boost::asio::awaitable<void> ConfigCache::Impl::fetch_listed(std::map<std::string, Ref, std::less<>>& refs,
                                                             std::string key, std::string_view group,
                                                             boost::asio::awaitable<ConfigItem> (*fetch)(ha::HaClient&,
                                                                                                         Ref)) {
  std::optional<Ref> ref;
  {
    std::lock_guard lock(mutex);
    if (auto it = refs.find(key); it != refs.end()) ref = it->second;
  }
  if (!ref) co_return;  // removed meanwhile
  std::optional<ConfigItem> item;
  try {
    auto reading = fetch(ha, std::move(*ref));
    item = co_await std::move(reading);
  } catch (const std::exception&) {
    item.reset();
  }
  std::lock_guard lock(mutex);
  if (stopped) co_return;
  if (!item) {
    ++failed;
    co_return;
  }
  if (!refs.count(key)) co_return;  // removed while it was read
  groups[std::string(group)].insert(item->doc.entity_id);
  upsert_locked(std::move(*item));
}

}  // namespace hamcp::home
