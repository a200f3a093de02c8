#pragma once
// A process-wide filter over the answers the MCP layer gives for a tool
// without running it (invalid arguments, whose messages echo the values). The
// tools' own egress filters (e.g. hidden entities, tools/gate/entity_filter)
// run only around their handlers; this lets them cover those answers too.

#include <functional>
#include <string>

namespace hamcp::mcp {

// Replaces text in place; set once (later calls replace it). Unset: none.
using EchoFilter = std::function<void(std::string& text)>;
void set_echo_filter(EchoFilter filter);
void apply_echo_filter(std::string& text);

}  // namespace hamcp::mcp
