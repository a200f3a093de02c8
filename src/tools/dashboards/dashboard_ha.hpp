#pragma once
// What the dashboard tools share: the dashboards Home Assistant has (storage
// and YAML; the default one is url_path "lovelace"), a dashboard's config
// (lovelace/config; a dashboard never saved has none), a journaled config
// save guarded by config_hash, and card paths ("views[1].sections[0].cards[2]"
// <-> JSON Pointer "/views/1/sections/0/cards/2").

#include <boost/asio/awaitable.hpp>
#include <optional>
#include <string>

#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::dashboards {

inline constexpr const char* kDefaultUrl = "lovelace";

struct Dashboard {
  std::string url_path;  // "lovelace" for the default dashboard
  json::object item;     // HA's dashboard item (empty for the default one)
  bool is_default = false;
  bool yaml = false;
  std::string id() const;  // dashboard_id for lovelace/dashboards/update|delete
};

// "", "default", "lovelace" -> "lovelace".
std::string normalise_url(std::string url_path);

boost::asio::awaitable<json::array> list_items(ToolEnv& env);
// The dashboard with this url_path, or nullopt (the default one always exists).
boost::asio::awaitable<std::optional<Dashboard>> find_dashboard(ToolEnv& env, std::string url_path);
// find_dashboard, or "dashboard_not_found" listing the url_paths there are.
boost::asio::awaitable<Dashboard> require_dashboard(ToolEnv& env, std::string url_path);
// The saved config; null when the dashboard has none yet (HA generates one).
boost::asio::awaitable<json::value> read_config(ToolEnv& env, const Dashboard& d);

// "dashboard_read_only" for a YAML dashboard (names the file).
void refuse_yaml(const Dashboard& d);

// The config_hash of a config as the tools report it ("" for none).
std::string hash_of(const json::value& config);
// A stale `given` hash: "stale_config_hash", nothing written.
void check_hash(ToolEnv& env, const Dashboard& d, const json::value& current, const std::optional<std::string>& given);

// lovelace/config/save, sent once, then journaled (kind "dashboard", key
// url_path, before -> next). Adds config_hash and edit_id to `body`.
boost::asio::awaitable<void> save_config(ToolEnv& env, const Dashboard& d, const json::value& before, json::value next,
                                         std::string action, json::object& body);

// "views[1].sections[0].cards[2]" or "/views/1/..." -> JSON Pointer; throws bad_argument(field).
std::string to_pointer(std::string_view path, std::string_view field);
// JSON Pointer -> "views[1].sections[0].cards[2]".
std::string to_card_path(std::string_view pointer);

// A dashboard item as the list shows it.
json::object summary_of(const Dashboard& d);

}  // namespace hamcp::tools::dashboards
