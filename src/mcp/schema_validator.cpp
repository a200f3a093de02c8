// The public face of the JSON Schema checker: compile once (schema_compiler),
// check per call (schema_check).
#include "mcp/schema_validator.hpp"

#include <memory>

#include "mcp/schema_check.hpp"
#include "mcp/schema_compiler.hpp"
#include "mcp/schema_node.hpp"

namespace hamcp::mcp {

SchemaValidator::SchemaValidator(const json::object& schema) {
  auto storage = std::make_shared<detail::SchemaStorage>();
  const detail::SchemaNode* root = detail::compile_schema(schema, *storage);
  root_ = std::shared_ptr<const detail::SchemaNode>(storage, root);
  storage_ = storage;
}

SchemaValidator::~SchemaValidator() = default;
SchemaValidator::SchemaValidator(SchemaValidator&&) noexcept = default;
SchemaValidator& SchemaValidator::operator=(SchemaValidator&&) noexcept = default;

std::vector<std::string> SchemaValidator::validate(const json::value& instance, std::string_view root) const {
  std::vector<std::string> errors;
  if (detail::check_instance(*root_, instance, root, nullptr)) return errors;  // fast path: no allocation
  detail::check_instance(*root_, instance, root, &errors);
  if (errors.empty()) errors.push_back(std::string(root) + ": invalid");
  return errors;
}

bool SchemaValidator::is_valid(const json::value& instance) const {
  return detail::check_instance(*root_, instance, {}, nullptr);
}

}  // namespace hamcp::mcp
