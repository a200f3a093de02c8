#pragma once
// MCP 2026-07-28 custom headers from tool parameters (SEP-2243): a tool's
// inputSchema property annotated `"x-mcp-header": "Region"` is mirrored by the
// client into an `Mcp-Param-Region` header on tools/call, so intermediaries can
// route without reading the body. A server that reads the body MUST refuse a
// request whose mirrored header disagrees with it (HeaderMismatch, HTTP 400).
// Transport-agnostic; the HTTP transport calls it for modern tools/call POSTs.

#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/modern_era.hpp"

namespace hamcp::mcp::modern {

// One annotated argument: where it sits in `arguments` (a chain of object
// members: properties are the only statically reachable path) and its header.
struct ParamHeader {
  std::vector<std::string> path;
  std::string header_name;  // as annotated, without the "Mcp-Param-" prefix
};

// Every x-mcp-header annotation reachable through `properties` chains.
std::vector<ParamHeader> param_headers_of(const json::object& input_schema);

// nullopt when every annotated argument and its header agree: both absent
// (or the argument null, or an object/array, which has no header form), or the
// header's value (=?base64?...?= decoded) equal to the argument (a string as
// is, a boolean as true/false, a number compared as a number). Else the
// HeaderMismatch message naming the header and the fix.
std::optional<std::string> param_header_mismatch(const HeaderLookup& header, const std::vector<ParamHeader>& declared,
                                                 const json::object& arguments);

}  // namespace hamcp::mcp::modern
