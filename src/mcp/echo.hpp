#pragma once
// Text a client (or Home Assistant) sent us, quoted back in an error message.
// Quoting it whole lets one request make every answer and log line as big as
// the request (a 4 MB tool name came back 4 MB long), so quotes are cut.

#include <cstddef>
#include <string>
#include <string_view>

namespace hamcp::mcp {

inline constexpr std::size_t kEchoBytes = 64;

// `text` itself when it is at most max_bytes long; otherwise its first
// max_bytes (cut at a UTF-8 character boundary) + "…(<size> bytes)".
std::string echo_excerpt(std::string_view text, std::size_t max_bytes = kEchoBytes);

}  // namespace hamcp::mcp
