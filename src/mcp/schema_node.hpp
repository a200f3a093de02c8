#pragma once
// Internal to schema_validator: a JSON Schema compiled into a tree of nodes
// (schema_compiler.hpp builds it, schema_check.hpp walks it). Immutable once
// compiled; shared by every call that validates against it (any thread).

#include <boost/regex.hpp>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp/json.hpp"

namespace hamcp::mcp::detail {

// Bit per JSON Schema type. `integer` is a subset of `number`.
enum TypeBit : unsigned { kNull = 1, kBoolean = 2, kInteger = 4, kNumber = 8, kString = 16, kArray = 32, kObject = 64 };

struct SchemaNode {
  bool reject_all = false;  // the `false` schema
  unsigned types = 0;       // 0 = any type
  std::vector<std::string> required;
  std::vector<std::pair<std::string, const SchemaNode*>> properties;
  enum class Additional { allow, forbid, schema } additional = Additional::allow;
  const SchemaNode* additional_schema = nullptr;
  std::optional<json::array> enum_values;
  std::optional<json::value> const_value;
  std::optional<double> minimum, maximum, exclusive_minimum, exclusive_maximum;
  std::optional<std::size_t> min_length, max_length, min_items, max_items, min_properties, max_properties;
  std::optional<boost::regex> pattern;  // Boost.Regex: no recursion on long input, bounded backtracking
  std::string pattern_source;
  const SchemaNode* items = nullptr;
  std::vector<const SchemaNode*> prefix_items;
  bool unique_items = false;
  std::vector<const SchemaNode*> all_of, any_of, one_of;
  const SchemaNode* not_schema = nullptr;
  const SchemaNode* ref = nullptr;

  const SchemaNode* property(std::string_view name) const {
    for (const auto& [key, node] : properties)
      if (key == name) return node;
    return nullptr;
  }
};

// Owns every node of one compiled schema ($refs point between them, cycles included).
struct SchemaStorage {
  std::deque<SchemaNode> nodes;
};

}  // namespace hamcp::mcp::detail
