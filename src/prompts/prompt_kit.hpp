#pragma once
// What the prompts share: the result shape, reading the live home for a
// prompt (HA unreachable -> a clear JSON-RPC error), area and automation
// lookups, and argument completion (prefix, then substring of id or name).

#include <boost/asio/awaitable.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ha/snapshot.hpp"
#include "mcp/registry.hpp"
#include "tools/tool_env.hpp"

namespace hamcp::prompts {

namespace json = boost::json;
namespace asio = boost::asio;
using tools::ToolEnv;

// GetPromptResult with one user message.
json::object prompt_result(std::string description, std::string text);

// The synced snapshot, or McpError -32603 with HA's diagnosis.
asio::awaitable<ha::SnapshotPtr> home_snapshot(ToolEnv& env);
// Runs `work`, turning hamcp's tool and HA errors into McpError -32603.
[[noreturn]] void rethrow_as_mcp_error(std::exception_ptr error);

// An invalid argument: McpError -32602 naming the argument and the fix.
[[noreturn]] void bad_argument(std::string_view prompt, std::string_view argument, std::string_view problem,
                               std::string_view fix);

// {value, label} pairs a completion matches against.
using Candidates = std::vector<std::pair<std::string, std::string>>;
Candidates area_candidates(const ha::Snapshot& snap);        // area_id, name
Candidates automation_candidates(const ha::Snapshot& snap);  // entity_id, friendly name
const std::vector<std::string>& energy_periods();

// Values whose id starts with `typed` first, then those whose id or label
// contains it (case-insensitive); every value when `typed` is empty. At most 100.
std::vector<std::string> complete_from(const Candidates& candidates, std::string_view typed);

// The area of an entity: its own registry area, else its device's ("" = none).
std::string area_of_entity(const ha::Snapshot& snap, std::string_view entity_id);
std::string area_name(const ha::Snapshot& snap, std::string_view area_id);  // "" = unknown area

// A compact JSON text cut at `max_bytes` (with a note when cut).
std::string compact_json(const json::value& value, std::size_t max_bytes);

}  // namespace hamcp::prompts
