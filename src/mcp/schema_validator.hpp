#pragma once
// JSON Schema validation for tool inputs and outputs: the subset tool schemas
// use (type incl. type arrays and integer-vs-number, required, properties,
// additionalProperties, enum, const, minimum/maximum/exclusive*, min/maxLength,
// pattern, items, min/maxItems, uniqueItems, oneOf/anyOf/allOf/not,
// $ref to #/$defs/... or #/definitions/...). "format" and annotations are ignored.
//
// The schema is checked and compiled once (registration time); validation is
// then a walk over the compiled tree with no allocation on success.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"

namespace hamcp::mcp {

namespace detail {
struct SchemaNode;
}

class SchemaValidator {
 public:
  // Throws std::invalid_argument naming the offending keyword path if `schema`
  // is not a valid schema (wrong keyword types, bad regex, dangling $ref...).
  explicit SchemaValidator(const json::object& schema);
  ~SchemaValidator();
  SchemaValidator(SchemaValidator&&) noexcept;
  SchemaValidator& operator=(SchemaValidator&&) noexcept;

  // Empty when valid. Otherwise messages like
  //   "arguments.limit: expected integer >= 1, got -3"
  //   "arguments: missing required property \"entity_id\""
  // `root` names the instance (e.g. "arguments", "structuredContent").
  std::vector<std::string> validate(const json::value& instance, std::string_view root) const;
  bool is_valid(const json::value& instance) const;

 private:
  std::shared_ptr<const detail::SchemaNode> root_;
  std::shared_ptr<void> storage_;  // owns every compiled node (for $ref cycles)
};

}  // namespace hamcp::mcp
