#pragma once
// Radio commands that act on Home Assistant and stream their progress as
// events (zha/devices/reconfigure, zwave_js/add_node), subscribed as command
// subscriptions (ha/ws_command.hpp): a dropped connection ends them and they
// are never sent again. The error then: write_outcome_unknown, "dropped during
// the <what>; it was not repeated", with the suggestion `check`.

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "ha/ws_client.hpp"
#include "tools/tool_env.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

ToolError not_repeated(const std::string& what, const std::string& check);

// Subscribes such a command: *lost turns true if the connection drops while it
// runs (handler sees HA's events only); a drop before HA confirmed it throws
// not_repeated(what, check).
boost::asio::awaitable<std::uint64_t> subscribe_command(ToolEnv& env, json::object message,
                                                        ha::WsClient::EventHandler handler,
                                                        std::shared_ptr<std::atomic<bool>> lost, std::string what,
                                                        std::string check);

// Waits (100 ms steps) until done(), *lost or the deadline.
boost::asio::awaitable<void> listen_until(std::chrono::steady_clock::time_point deadline, const std::atomic<bool>& lost,
                                          std::function<bool()> done);

}  // namespace hamcp::tools::radio
