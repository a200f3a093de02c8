#pragma once
// HACS's WebSocket commands (hacs/integration, custom_components/hacs/
// websocket) as the HACS tool uses them. A Home Assistant without HACS
// answers "unknown_command": that becomes the hacs_not_installed error, with
// how to install HACS.

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <optional>
#include <string>

#include "tools/tool_env.hpp"

namespace hamcp::tools::hacs {

// HACS fetches from GitHub inside some commands (info of a repository not read
// yet, download, refresh, add): they get longer than the default timeout.
inline constexpr std::chrono::milliseconds kGithubTimeout{120000};

// One command; HACS's absence as hacs_not_installed, its errors as ha_refused.
boost::asio::awaitable<json::value> command(ToolEnv& env, json::object message,
                                            std::optional<std::chrono::milliseconds> timeout = {});
// hacs/repositories/list (all categories).
boost::asio::awaitable<json::array> repositories(ToolEnv& env);
// The repository id of `text`: an id, or a full name "owner/name" or its
// GitHub URL, looked up in the list (else bad_argument naming `field`).
boost::asio::awaitable<std::string> repository_id(ToolEnv& env, std::string text, std::string field);
// hacs/repository/info.
boost::asio::awaitable<json::object> info(ToolEnv& env, std::string id);
// ha-mcp's and HACS's names: "lovelace"/"dashboard"/"card" -> "plugin"; "" unknown.
std::string category_name(std::string text);

}  // namespace hamcp::tools::hacs
