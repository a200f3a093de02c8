// Compiling a JSON Schema into nodes (schema_compiler.hpp).
#include "mcp/schema_compiler.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hamcp::mcp::detail {
namespace {

[[noreturn]] void bad_schema(const std::string& where, const std::string& what) {
  throw std::invalid_argument("invalid JSON Schema at " + (where.empty() ? std::string("#") : where) + ": " + what);
}

// Compiles a schema document into SchemaNodes; $refs are resolved against the
// root document by JSON pointer, memoised so recursive schemas terminate.
class Compiler {
 public:
  Compiler(const json::object& root, SchemaStorage& storage) : root_(root), storage_(storage) {}

  const SchemaNode* compile(const json::value& schema, const std::string& where) {
    SchemaNode& node = storage_.nodes.emplace_back();
    fill(node, schema, where);
    return &node;
  }

 private:
  const SchemaNode* resolve_ref(std::string_view ref, const std::string& where) {
    if (ref.empty() || ref[0] != '#')
      bad_schema(where, "$ref \"" + std::string(ref) + "\" must be local (start with #)");
    std::string pointer(ref.substr(1));
    if (auto it = refs_.find(pointer); it != refs_.end()) return it->second;
    const json::value* target = nullptr;  // nullptr = the root itself ("#")
    if (!pointer.empty()) {
      target = find_pointer(pointer);
      if (!target) bad_schema(where, "$ref \"" + std::string(ref) + "\" points to nothing");
    }
    SchemaNode& node = storage_.nodes.emplace_back();
    refs_.emplace(pointer, &node);  // before filling: recursion ends here
    if (target)
      fill(node, *target, std::string(ref));
    else
      fill_root(node);
    return &node;
  }

  const json::value* find_pointer(const std::string& pointer) {
    // Walk "/a/b" through the root object, decoding ~1 and ~0.
    const json::value* current = nullptr;
    const json::object* obj = &root_;
    std::size_t pos = 0;
    if (pointer[0] != '/') return nullptr;
    while (pos < pointer.size()) {
      std::size_t next = pointer.find('/', pos + 1);
      std::string token = pointer.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
      std::string decoded;
      for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i] == '~' && i + 1 < token.size()) {
          decoded += token[i + 1] == '1' ? '/' : '~';
          ++i;
        } else {
          decoded += token[i];
        }
      }
      if (obj) {
        current = obj->if_contains(decoded);
      } else if (current && current->is_array()) {
        char* end = nullptr;
        unsigned long index = std::strtoul(decoded.c_str(), &end, 10);
        const auto& arr = current->as_array();
        current = (end && *end == 0 && index < arr.size()) ? &arr[index] : nullptr;
      } else {
        current = nullptr;
      }
      if (!current) return nullptr;
      obj = current->if_object();
      pos = next == std::string::npos ? pointer.size() : next;
    }
    return current;
  }

  void fill_root(SchemaNode& node) {
    json::value v(root_);
    fill(node, v, "#");
  }

  static unsigned type_bit(std::string_view name, const std::string& where) {
    if (name == "null") return kNull;
    if (name == "boolean") return kBoolean;
    if (name == "integer") return kInteger;
    if (name == "number") return kNumber;
    if (name == "string") return kString;
    if (name == "array") return kArray;
    if (name == "object") return kObject;
    bad_schema(where + "/type", "unknown type \"" + std::string(name) + "\"");
  }

  static double number(const json::value& v, const std::string& where) {
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    if (v.is_uint64()) return static_cast<double>(v.get_uint64());
    if (v.is_double()) return v.get_double();
    bad_schema(where, "expected a number");
  }

  static std::size_t count(const json::value& v, const std::string& where) {
    if (v.is_int64() && v.get_int64() >= 0) return static_cast<std::size_t>(v.get_int64());
    if (v.is_uint64()) return static_cast<std::size_t>(v.get_uint64());
    if (v.is_double() && v.get_double() >= 0 && std::floor(v.get_double()) == v.get_double())
      return static_cast<std::size_t>(v.get_double());
    bad_schema(where, "expected a non-negative integer");
  }

  std::vector<const SchemaNode*> schema_list(const json::value& v, const std::string& where) {
    const json::array* arr = v.if_array();
    if (!arr || arr->empty()) bad_schema(where, "expected a non-empty array of schemas");
    std::vector<const SchemaNode*> out;
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) out.push_back(compile((*arr)[i], where + "/" + std::to_string(i)));
    return out;
  }

  void fill(SchemaNode& node, const json::value& schema, const std::string& where) {
    if (schema.is_bool()) {
      node.reject_all = !schema.get_bool();
      return;
    }
    const json::object* obj = schema.if_object();
    if (!obj) bad_schema(where, "a schema must be an object or a boolean");
    for (const auto& [key_sv, value] : *obj) {
      const std::string_view key = key_sv;
      const std::string at = where + "/" + std::string(key);
      // Everything not known here (title, description, default, examples, format,
      // $schema, $id, $comment, deprecated, readOnly...) is an annotation: ignored.
      if (!fill_structure(node, key, value, where, at)) fill_bound(node, key, value, at);
    }
    // draft-04 boolean exclusive bounds.
    if (auto* v = obj->if_contains("exclusiveMinimum"); v && v->is_bool() && v->get_bool() && node.rare().minimum) {
      SchemaRare& rare = node.rare_to_fill();
      rare.exclusive_minimum = rare.minimum;
      rare.minimum.reset();
    }
    if (auto* v = obj->if_contains("exclusiveMaximum"); v && v->is_bool() && v->get_bool() && node.rare().maximum) {
      SchemaRare& rare = node.rare_to_fill();
      rare.exclusive_maximum = rare.maximum;
      rare.maximum.reset();
    }
  }

  void fill_type(SchemaNode& node, const json::value& value, const std::string& where, const std::string& at) {
    if (value.is_string()) {
      node.types = type_bit(value.get_string(), where);
    } else if (const json::array* arr = value.if_array(); arr && !arr->empty()) {
      for (const auto& t : *arr) {
        if (!t.is_string()) bad_schema(at, "type entries must be strings");
        node.types |= type_bit(t.get_string(), where);
      }
    } else {
      bad_schema(at, "expected a type name or a non-empty array of type names");
    }
  }

  // Keywords about shape and composition; false when `key` is none of them.
  bool fill_structure(SchemaNode& node, std::string_view key, const json::value& value, const std::string& where,
                      const std::string& at) {
    if (key == "type") {
      fill_type(node, value, where, at);
    } else if (key == "required") {
      const json::array* arr = value.if_array();
      if (!arr) bad_schema(at, "expected an array of property names");
      for (const auto& r : *arr) {
        if (!r.is_string()) bad_schema(at, "expected an array of property names");
        node.required.emplace_back(r.get_string());
      }
    } else if (key == "properties") {
      const json::object* props = value.if_object();
      if (!props) bad_schema(at, "expected an object of schemas");
      for (const auto& [name, sub] : *props)
        node.properties.emplace_back(std::string(name), compile(sub, at + "/" + std::string(name)));
    } else if (key == "additionalProperties") {
      if (value.is_bool()) {
        node.additional = value.get_bool() ? SchemaNode::Additional::allow : SchemaNode::Additional::forbid;
      } else {
        node.additional = SchemaNode::Additional::schema;
        node.additional_schema = compile(value, at);
      }
    } else if (key == "enum") {
      const json::array* arr = value.if_array();
      if (!arr || arr->empty()) bad_schema(at, "expected a non-empty array");
      node.enum_values = *arr;
    } else if (key == "const") {
      node.rare_to_fill().const_value = value;
    } else if (key == "items") {
      if (value.is_array())  // draft-07 tuple form
        node.rare_to_fill().prefix_items = schema_list(value, at);
      else
        node.items = compile(value, at);
    } else if (key == "prefixItems") {
      node.rare_to_fill().prefix_items = schema_list(value, at);
    } else {
      return fill_composition(node, key, value, at);
    }
    return true;
  }

  bool fill_composition(SchemaNode& node, std::string_view key, const json::value& value, const std::string& at) {
    if (key == "allOf") {
      node.rare_to_fill().all_of = schema_list(value, at);
    } else if (key == "anyOf") {
      node.rare_to_fill().any_of = schema_list(value, at);
    } else if (key == "oneOf") {
      node.rare_to_fill().one_of = schema_list(value, at);
    } else if (key == "not") {
      node.rare_to_fill().not_schema = compile(value, at);
    } else if (key == "$ref") {
      if (!value.is_string()) bad_schema(at, "expected a string");
      node.ref = resolve_ref(value.get_string(), at);
    } else if (key == "$defs" || key == "definitions") {
      if (!value.is_object()) bad_schema(at, "expected an object of schemas");
      // Compiled when referenced; check each is at least schema-shaped now.
      for (const auto& [name, sub] : value.get_object())
        if (!sub.is_object() && !sub.is_bool())
          bad_schema(at + "/" + std::string(name), "a schema must be an object or a boolean");
    } else {
      return false;
    }
    return true;
  }

  // Bounds on numbers, lengths and counts, and the string pattern.
  static void fill_bound(SchemaNode& node, std::string_view key, const json::value& value, const std::string& at) {
    if (key == "minimum") {
      node.rare_to_fill().minimum = number(value, at);
    } else if (key == "maximum") {
      node.rare_to_fill().maximum = number(value, at);
    } else if (key == "exclusiveMinimum") {
      if (!value.is_bool())
        node.rare_to_fill().exclusive_minimum = number(value, at);  // bool: draft-04 form, see fill()
    } else if (key == "exclusiveMaximum") {
      if (!value.is_bool()) node.rare_to_fill().exclusive_maximum = number(value, at);
    } else if (key == "minLength") {
      node.rare_to_fill().min_length = count(value, at);
    } else if (key == "maxLength") {
      node.rare_to_fill().max_length = count(value, at);
    } else if (key == "minItems") {
      node.rare_to_fill().min_items = count(value, at);
    } else if (key == "maxItems") {
      node.rare_to_fill().max_items = count(value, at);
    } else if (key == "minProperties") {
      node.rare_to_fill().min_properties = count(value, at);
    } else if (key == "maxProperties") {
      node.rare_to_fill().max_properties = count(value, at);
    } else if (key == "uniqueItems") {
      if (!value.is_bool()) bad_schema(at, "expected a boolean");
      node.rare_to_fill().unique_items = value.get_bool();
    } else if (key == "pattern") {
      fill_pattern(node, value, at);
    }
  }

  static void fill_pattern(SchemaNode& node, const json::value& value, const std::string& at) {
    if (!value.is_string()) bad_schema(at, "expected a regular expression string");
    SchemaRare& rare = node.rare_to_fill();
    rare.pattern_source = std::string(value.get_string());
    try {
      rare.pattern.emplace(rare.pattern_source, boost::regex::ECMAScript);
    } catch (const std::exception& e) {
      bad_schema(at, "invalid regular expression \"" + rare.pattern_source + "\": " + e.what());
    }
  }

  const json::object& root_;
  SchemaStorage& storage_;
  std::unordered_map<std::string, const SchemaNode*> refs_;
};

}  // namespace

const SchemaNode* compile_schema(const json::object& schema, SchemaStorage& storage) {
  Compiler compiler(schema, storage);
  const SchemaNode* root = compiler.compile(json::value(schema), "");
  // A $ref chain that comes back to itself ({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}})
  // would recurse without consuming input: reject it now, not at the first call.
  for (const SchemaNode& node : storage.nodes) {
    const SchemaNode* at = node.ref;
    for (std::size_t steps = 0; at; at = at->ref) {
      if (at == &node || ++steps > storage.nodes.size())
        throw std::invalid_argument("invalid JSON Schema: $ref cycle that never reaches a real schema");
    }
  }
  return root;
}

}  // namespace hamcp::mcp::detail
