#pragma once
// Internal to src/mcp: what each registry-backed MCP method does. Session
// routes to these; they throw McpError for JSON-RPC errors.

#include <cstddef>
#include <string_view>

#include "mcp/json.hpp"
#include "mcp/registry.hpp"
#include "mcp/tool.hpp"

namespace hamcp::mcp::methods {

// Paginated lists: params.cursor in, nextCursor out; a bad cursor -> -32602.
// `read_only`: only the tools a read-only session may use (Tool::listed_in).
// `protocol_version`: the session's; before 2025-06-18 a tool's title is also
// given as annotations.title, the only title those clients know.
json::object list_tools(const Registry& registry, const json::object& params, std::size_t page_size,
                        bool read_only = false, std::string_view protocol_version = {});
json::object list_resources(const Registry& registry, const json::object& params, std::size_t page_size);
json::object list_resource_templates(const Registry& registry, const json::object& params, std::size_t page_size);
json::object list_prompts(const Registry& registry, const json::object& params, std::size_t page_size);

// Long-running ones run as coroutines bound to the request's cancellation.
asio::awaitable<json::value> call_tool(const Registry& registry, json::object params, RequestContext& ctx);
// The same before it becomes JSON: the session writes a structured result to
// the wire once (ToolResult::write_json).
asio::awaitable<ToolResult> call_tool_result(const Registry& registry, json::object params, RequestContext& ctx);
asio::awaitable<json::value> read_resource(const Registry& registry, json::object params, RequestContext& ctx);
asio::awaitable<json::value> get_prompt(const Registry& registry, json::object params, RequestContext& ctx);
// A method an extension registered (Registry::add_extension_method).
asio::awaitable<json::value> call_extension(const Registry& registry, const std::string& method, json::object params,
                                            RequestContext& ctx);
asio::awaitable<json::value> complete(const Registry& registry, json::object params, RequestContext& ctx);

}  // namespace hamcp::mcp::methods
