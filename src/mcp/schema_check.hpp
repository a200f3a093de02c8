#pragma once
// Internal to schema_validator: checks a JSON value against a compiled schema
// (schema_node.hpp). Stateless between calls; any thread.

#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/schema_node.hpp"

namespace hamcp::mcp::detail {

// True when `instance` is valid. With `errors` == nullptr it stops at the first
// problem and allocates nothing on success; otherwise it collects every
// problem as "<root_name>.<path>: <what>".
bool check_instance(const SchemaNode& root, const json::value& instance, std::string_view root_name,
                    std::vector<std::string>* errors);

}  // namespace hamcp::mcp::detail
