#pragma once
// RFC 5424 severities as MCP's logging/setLevel and notifications/message use them.

#include <optional>
#include <string_view>

namespace hamcp::mcp {

// Ordered: a message is sent when its level >= the session's threshold.
enum class LogLevel { debug = 0, info, notice, warning, error, critical, alert, emergency };

std::string_view to_string(LogLevel level);
// "debug".."emergency"; anything else -> nullopt (logging/setLevel answers -32602).
std::optional<LogLevel> parse_log_level(std::string_view name);

}  // namespace hamcp::mcp
