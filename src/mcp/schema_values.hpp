#pragma once
// Internal to schema_validator: how the checker looks at JSON values (JSON
// Schema's type of a value, numeric and structural equality, UTF-8 length) and
// how it names them in messages read by people and models.

#include <cstddef>
#include <string>
#include <string_view>

#include "mcp/json.hpp"

namespace hamcp::mcp::detail {

// Shortest round-trip form ("3.5", not Boost.JSON's "3.5E0").
std::string format_number(double d);
std::string format_scalar(const json::value& v);
// "an object", "string \"x\"", "3.5", ... (a long string shortened)
std::string describe(const json::value& v);
// Compact JSON text, shortened for messages.
std::string compact(const json::value& v);
bool is_integer(const json::value& v);
double as_double(const json::value& v);
// The TypeBit of a value (schema_node.hpp); an integral double counts as integer.
unsigned bit_of(const json::value& v);
// "integer or string" for a set of TypeBits.
std::string type_names(unsigned types);
// JSON Schema equality: 1 and 1.0 are equal, objects compare by members.
bool json_equal(const json::value& a, const json::value& b);
// Code points, as minLength/maxLength count them.
std::size_t utf8_length(std::string_view s);

}  // namespace hamcp::mcp::detail
