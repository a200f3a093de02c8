#pragma once
// The config cache's dashboard documents (home/config_cache.hpp): one per
// Lovelace dashboard (the default one too), indexed by its title, url_path,
// view titles, card titles/headings, card types ("card: thermostat") and the
// entity ids its cards show, so ha_search finds a dashboard by its name or by
// an entity on it. Fetched once, then again per dashboard when Home Assistant
// fires lovelace_updated (a save or delete of its config), and the list again
// when a dashboard is created or its metadata changes (the mirror sees no
// entity for either: the list is also refetched on every full resync).

#include <boost/asio/awaitable.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "ha/ha_client.hpp"
#include "home/config_sources.hpp"

namespace hamcp::home {

// The index domain of every dashboard document.
inline constexpr std::string_view kDashboardDocDomain = "dashboard";
// The default dashboard's url_path as hamcp's dashboard tools name it.
inline constexpr std::string_view kDefaultDashboardUrl = "lovelace";

struct DashboardRef {
  std::string url_path;  // "lovelace" for the default dashboard
  std::string title;
  bool yaml = false;
};

// The cache key of a dashboard's document ("dashboard.<url_path>").
std::string dashboard_doc_id(std::string_view url_path);

// Every dashboard (lovelace/dashboards/list) and the default one. Throws ha::HaException.
boost::asio::awaitable<std::vector<DashboardRef>> fetch_dashboards(ha::HaClient& ha);

// A dashboard's document from its config (lovelace/config; a dashboard never
// saved has none: indexed by its title only). Throws ha::HaException when
// Home Assistant cannot be asked.
boost::asio::awaitable<ConfigItem> fetch_dashboard_item(ha::HaClient& ha, DashboardRef ref);

// The document of a dashboard with this config (null: none saved); public for tests.
ConfigItem dashboard_item(const DashboardRef& ref, const boost::json::value& config);

}  // namespace hamcp::home
