#pragma once
// Internal to schema_validator: compiles a JSON Schema document into nodes
// (schema_node.hpp), checking it on the way. Runs once per schema, at
// registration.

#include "mcp/json.hpp"
#include "mcp/schema_node.hpp"

namespace hamcp::mcp::detail {

// The root node, every node owned by `storage`. Throws std::invalid_argument
// naming the offending keyword path (wrong keyword types, bad regex, dangling
// $ref, a $ref cycle that never reaches a real schema).
const SchemaNode* compile_schema(const json::object& schema, SchemaStorage& storage);

}  // namespace hamcp::mcp::detail
