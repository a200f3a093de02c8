#pragma once
// Internal to schema_validator: a JSON Schema compiled into a tree of nodes
// (schema_compiler.hpp builds it, schema_check.hpp walks it). Immutable once
// compiled; shared by every call that validates against it (any thread).

#include <boost/regex.hpp>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp/json.hpp"

namespace hamcp::mcp::detail {

// Bit per JSON Schema type. `integer` is a subset of `number`.
enum TypeBit : unsigned { kNull = 1, kBoolean = 2, kInteger = 4, kNumber = 8, kString = 16, kArray = 32, kObject = 64 };

struct SchemaNode;

// The keywords most nodes of a tool schema do without (bounds, pattern, const, combinators):
// held apart, so a node without them is ~120 bytes instead of ~480 (the 160-odd validators of a
// server hold ~900 nodes from start-up on: bench/RESULTS-ha.md, step 11).
struct SchemaRare {
  std::optional<json::value> const_value;
  std::optional<double> minimum, maximum, exclusive_minimum, exclusive_maximum;
  std::optional<std::size_t> min_length, max_length, min_items, max_items, min_properties, max_properties;
  std::optional<boost::regex> pattern;  // Boost.Regex: no recursion on long input, bounded backtracking
  std::string pattern_source;
  std::vector<const SchemaNode*> prefix_items;
  bool unique_items = false;
  std::vector<const SchemaNode*> all_of, any_of, one_of;
  const SchemaNode* not_schema = nullptr;
};

struct SchemaNode {
  bool reject_all = false;  // the `false` schema
  unsigned types = 0;       // 0 = any type
  std::vector<std::string> required;
  std::vector<std::pair<std::string, const SchemaNode*>> properties;
  enum class Additional { allow, forbid, schema } additional = Additional::allow;
  const SchemaNode* additional_schema = nullptr;
  std::optional<json::array> enum_values;
  const SchemaNode* items = nullptr;
  const SchemaNode* ref = nullptr;
  std::unique_ptr<SchemaRare> rare_keywords;  // null: none of them

  // The rare keywords (all absent when the node has none).
  const SchemaRare& rare() const {
    static const SchemaRare none;
    return rare_keywords ? *rare_keywords : none;
  }
  // For the compiler: the node's own, made on first use.
  SchemaRare& rare_to_fill() {
    if (!rare_keywords) rare_keywords = std::make_unique<SchemaRare>();
    return *rare_keywords;
  }

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
