#pragma once
// Shared aliases for the MCP core. Boost.JSON is the one JSON library of hamcp:
// messages are parsed once and moved (never copied) through the core.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json.hpp>

#include "json/json_text.hpp"

namespace hamcp::mcp {

namespace json = boost::json;
namespace asio = boost::asio;

// Compact serialisation used on every wire (stdout, HTTP bodies, SSE data);
// doubles in plain decimal (see json_text.hpp).
inline std::string to_wire(const json::value& message) { return json_text(message); }

}  // namespace hamcp::mcp
