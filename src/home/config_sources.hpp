#pragma once
// Where the config cache's helper documents come from (home/config_cache.hpp).
// Storage helpers: one `<domain>/list` per storage collection (input_*,
// counter, timer, schedule, zone, person, tag). Config-flow helpers: the
// config entries of helper integrations (`config_entries/get` with
// type_filter helper: template, group, utility_meter, derivative, ...). No
// Home Assistant API returns an entry's options, so they are read where HA's
// own UI reads them: the options flow's first form carries them as suggested
// values; that flow is aborted at once, nothing is submitted.

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ha/ha_client.hpp"
#include "search/types.hpp"

namespace hamcp::home {

// One searchable item: its index document (doc.entity_id is the cache's key),
// the config it was built from, and what a result says about it
// ({"kind":"helper","helper_type":..., "helper_id"|"entry_id":...}).
struct ConfigItem {
  search::EntityDoc doc;
  boost::json::value config;
  boost::json::object meta;
};

// The index domain every helper document carries (so one query finds them all).
inline constexpr std::string_view kHelperDocDomain = "helper";

const std::vector<std::string>& storage_helper_domains();
bool is_storage_helper_domain(std::string_view domain);

// The items of one storage collection. Throws ha::HaException.
boost::asio::awaitable<std::vector<ConfigItem>> fetch_storage_helpers(ha::HaClient& ha, std::string domain);

struct HelperEntry {
  std::string entry_id;
  std::string domain;
  std::string title;
};
// A config entry as `config_entries/get|subscribe` shows it (nullopt: not one).
std::optional<HelperEntry> helper_entry_of(const boost::json::value& fragment);
// The config entries of helper integrations. Throws ha::HaException.
boost::asio::awaitable<std::vector<HelperEntry>> fetch_helper_entries(ha::HaClient& ha);
// An entry's item: title, its entities, its options (empty when it has no
// options flow). Throws ha::HaException when Home Assistant cannot be asked.
boost::asio::awaitable<ConfigItem> fetch_entry_item(ha::HaClient& ha, HelperEntry entry);
// The cache key of an entry's document.
std::string entry_doc_id(const HelperEntry& entry);

// Entity ids whose registry entry belongs to config entry `entry_id`.
std::vector<std::string> entities_of_entry(const ha::Snapshot& snap, std::string_view entry_id);

}  // namespace hamcp::home
