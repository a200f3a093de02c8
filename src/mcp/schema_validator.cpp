#include "mcp/schema_validator.hpp"

#include <boost/regex.hpp>
#include <charconv>
#include <cmath>
#include <deque>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace hamcp::mcp {
namespace detail {

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

}  // namespace detail

namespace {
using detail::SchemaNode;
using namespace detail;

struct Storage {
  std::deque<SchemaNode> nodes;
};

[[noreturn]] void bad_schema(const std::string& where, const std::string& what) {
  throw std::invalid_argument("invalid JSON Schema at " + (where.empty() ? std::string("#") : where) + ": " + what);
}

// Compiles a schema document into SchemaNodes; $refs are resolved against the
// root document by JSON pointer, memoised so recursive schemas terminate.
class Compiler {
 public:
  Compiler(const json::object& root, Storage& storage) : root_(root), storage_(storage) {}

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
      std::string_view key = key_sv;
      std::string at = where + "/" + std::string(key);
      if (key == "type") {
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
        node.const_value = value;
      } else if (key == "minimum") {
        node.minimum = number(value, at);
      } else if (key == "maximum") {
        node.maximum = number(value, at);
      } else if (key == "exclusiveMinimum") {
        if (value.is_bool()) continue;  // draft-04 form; handled below
        node.exclusive_minimum = number(value, at);
      } else if (key == "exclusiveMaximum") {
        if (value.is_bool()) continue;
        node.exclusive_maximum = number(value, at);
      } else if (key == "minLength") {
        node.min_length = count(value, at);
      } else if (key == "maxLength") {
        node.max_length = count(value, at);
      } else if (key == "minItems") {
        node.min_items = count(value, at);
      } else if (key == "maxItems") {
        node.max_items = count(value, at);
      } else if (key == "minProperties") {
        node.min_properties = count(value, at);
      } else if (key == "maxProperties") {
        node.max_properties = count(value, at);
      } else if (key == "uniqueItems") {
        if (!value.is_bool()) bad_schema(at, "expected a boolean");
        node.unique_items = value.get_bool();
      } else if (key == "pattern") {
        if (!value.is_string()) bad_schema(at, "expected a regular expression string");
        node.pattern_source = std::string(value.get_string());
        try {
          node.pattern.emplace(node.pattern_source, boost::regex::ECMAScript);
        } catch (const std::exception& e) {
          bad_schema(at, "invalid regular expression \"" + node.pattern_source + "\": " + e.what());
        }
      } else if (key == "items") {
        if (value.is_array()) {  // draft-07 tuple form
          node.prefix_items = schema_list(value, at);
        } else {
          node.items = compile(value, at);
        }
      } else if (key == "prefixItems") {
        node.prefix_items = schema_list(value, at);
      } else if (key == "allOf") {
        node.all_of = schema_list(value, at);
      } else if (key == "anyOf") {
        node.any_of = schema_list(value, at);
      } else if (key == "oneOf") {
        node.one_of = schema_list(value, at);
      } else if (key == "not") {
        node.not_schema = compile(value, at);
      } else if (key == "$ref") {
        if (!value.is_string()) bad_schema(at, "expected a string");
        node.ref = resolve_ref(value.get_string(), at);
      } else if (key == "$defs" || key == "definitions") {
        if (!value.is_object()) bad_schema(at, "expected an object of schemas");
        // Compiled when referenced; check each is at least schema-shaped now.
        for (const auto& [name, sub] : value.get_object())
          if (!sub.is_object() && !sub.is_bool())
            bad_schema(at + "/" + std::string(name), "a schema must be an object or a boolean");
      }
      // Everything else (title, description, default, examples, format, $schema,
      // $id, $comment, deprecated, readOnly...) is an annotation: ignored.
    }
    // draft-04 boolean exclusive bounds.
    if (auto* v = obj->if_contains("exclusiveMinimum"); v && v->is_bool() && v->get_bool() && node.minimum) {
      node.exclusive_minimum = node.minimum;
      node.minimum.reset();
    }
    if (auto* v = obj->if_contains("exclusiveMaximum"); v && v->is_bool() && v->get_bool() && node.maximum) {
      node.exclusive_maximum = node.maximum;
      node.maximum.reset();
    }
  }

  const json::object& root_;
  Storage& storage_;
  std::unordered_map<std::string, const SchemaNode*> refs_;
};

// ---- validation -------------------------------------------------------------------

// The instance path as a stack-allocated linked list: rendered only on error.
struct Path {
  const Path* parent;
  std::string_view key;  // property name, or empty for an index / the root
  std::size_t index;
  enum Kind { root, property, item } kind;

  std::string render() const {
    if (kind == root) return std::string(key);
    std::string out = parent->render();
    if (kind == property) {
      out += '.';
      out += key;
    } else {
      out += '[';
      out += std::to_string(index);
      out += ']';
    }
    return out;
  }
};

// Shortest round-trip form ("3.5", not Boost.JSON's "3.5E0"): messages are read by people and models.
std::string format_number(double d) {
  if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, end) : json::serialize(json::value(d));
}

std::string format_scalar(const json::value& v) {
  return v.is_double() ? format_number(v.get_double()) : json::serialize(v);
}

std::string describe(const json::value& v) {
  switch (v.kind()) {
    case json::kind::object:
      return "an object";
    case json::kind::array:
      return "an array";
    case json::kind::string: {
      std::string s = json::serialize(v);
      if (s.size() > 64) s = s.substr(0, 60) + "...\"";
      return "string " + s;
    }
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return v.get_bool() ? "true" : "false";
    default:
      return format_scalar(v);
  }
}

std::string compact(const json::value& v) {
  std::string s = v.is_double() ? format_scalar(v) : json::serialize(v);
  if (s.size() > 64) s = s.substr(0, 60) + "...";
  return s;
}

bool is_integer(const json::value& v) {
  if (v.is_int64() || v.is_uint64()) return true;
  if (v.is_double()) {
    double d = v.get_double();
    return std::isfinite(d) && std::floor(d) == d;
  }
  return false;
}

double as_double(const json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  return v.get_double();
}

unsigned bit_of(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return kNull;
    case json::kind::bool_:
      return kBoolean;
    case json::kind::int64:
    case json::kind::uint64:
      return kInteger | kNumber;
    case json::kind::double_:
      return is_integer(v) ? (kInteger | kNumber) : kNumber;
    case json::kind::string:
      return kString;
    case json::kind::array:
      return kArray;
    case json::kind::object:
      return kObject;
  }
  return 0;
}

std::string type_names(unsigned types) {
  static constexpr std::pair<unsigned, const char*> names[] = {
      {kObject, "object"}, {kArray, "array"},     {kString, "string"}, {kInteger, "integer"},
      {kNumber, "number"}, {kBoolean, "boolean"}, {kNull, "null"}};
  std::string out;
  for (const auto& [bit, name] : names) {
    if (!(types & bit)) continue;
    if (!out.empty()) out += " or ";
    out += name;
  }
  return out;
}

// JSON Schema equality: numbers compare by value (1 == 1.0).
bool json_equal(const json::value& a, const json::value& b) {
  bool an = a.is_number(), bn = b.is_number();
  if (an && bn) {
    if (a.is_double() || b.is_double()) return as_double(a) == as_double(b);
    return a == b;
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_array()) {
    const auto &x = a.get_array(), &y = b.get_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!json_equal(x[i], y[i])) return false;
    return true;
  }
  if (a.is_object()) {
    const auto &x = a.get_object(), &y = b.get_object();
    if (x.size() != y.size()) return false;
    for (const auto& [k, v] : x) {
      const json::value* other = y.if_contains(k);
      if (!other || !json_equal(v, *other)) return false;
    }
    return true;
  }
  return a == b;
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

class Validator {
 public:
  explicit Validator(std::vector<std::string>* errors) : errors_(errors) {}

  // Returns true when valid. With errors_ == nullptr it stops at the first problem.
  bool check(const SchemaNode& node, const json::value& v, const Path& path) {
    if (node.reject_all) return fail(path, "no value is allowed here");
    // Recursive schemas ($ref cycles through allOf/anyOf...) must not recurse forever.
    struct DepthGuard {
      int& depth;
      explicit DepthGuard(int& d) : depth(++d) {}
      ~DepthGuard() { --depth; }
    } guard(depth_);
    if (depth_ > kMaxDepth) return fail(path, "value nested too deeply to validate");
    bool ok = true;
    if (node.ref && !check(*node.ref, v, path)) {
      ok = false;
      if (!errors_) return false;
    }
    const unsigned bit = bit_of(v);
    if (node.types && !(node.types & bit)) {
      return fail(path, "expected " + type_names(node.types) + ", got " + describe(v));
    }
    auto step = [&](bool good) {
      if (!good) ok = false;
      return good || errors_;  // keep going only when collecting
    };
    if (node.enum_values) {
      bool found = false;
      for (const auto& candidate : *node.enum_values)
        if (json_equal(candidate, v)) {
          found = true;
          break;
        }
      if (!found) {
        std::string allowed;
        for (const auto& candidate : *node.enum_values) {
          if (!allowed.empty()) allowed += ", ";
          allowed += compact(candidate);
        }
        if (!step(fail(path, "expected one of " + allowed + ", got " + describe(v)))) return false;
      }
    }
    if (node.const_value && !json_equal(*node.const_value, v)) {
      if (!step(fail(path, "expected " + compact(*node.const_value) + ", got " + describe(v)))) return false;
    }
    if (bit & kNumber) {
      if (!step(check_number(node, v, path))) return false;
    } else if (bit == kString) {
      if (!step(check_string(node, v.get_string(), path))) return false;
    } else if (bit == kArray) {
      if (!step(check_array(node, v.get_array(), path))) return false;
    } else if (bit == kObject) {
      if (!step(check_object(node, v.get_object(), path))) return false;
    }
    for (const SchemaNode* sub : node.all_of)
      if (!step(check(*sub, v, path))) return false;
    if (!node.any_of.empty() && !step(check_any_of(node, v, path))) return false;
    if (!node.one_of.empty() && !step(check_one_of(node, v, path))) return false;
    if (node.not_schema) {
      Validator probe(nullptr);
      probe.depth_ = depth_;
      if (probe.check(*node.not_schema, v, path) && !step(fail(path, "matches a schema it must not match")))
        return false;
    }
    return ok;
  }

 private:
  bool fail(const Path& path, std::string what) {
    if (errors_) errors_->push_back(path.render() + ": " + what);
    return false;
  }

  static std::string numeric_kind(const SchemaNode& node) {
    return (node.types & kInteger) && !(node.types & kNumber) ? "integer" : "number";
  }

  bool check_number(const SchemaNode& node, const json::value& v, const Path& path) {
    double d = as_double(v);
    std::string got = format_scalar(v);
    if (node.minimum && d < *node.minimum)
      return fail(path, "expected " + numeric_kind(node) + " >= " + format_number(*node.minimum) + ", got " + got);
    if (node.exclusive_minimum && d <= *node.exclusive_minimum)
      return fail(path,
                  "expected " + numeric_kind(node) + " > " + format_number(*node.exclusive_minimum) + ", got " + got);
    if (node.maximum && d > *node.maximum)
      return fail(path, "expected " + numeric_kind(node) + " <= " + format_number(*node.maximum) + ", got " + got);
    if (node.exclusive_maximum && d >= *node.exclusive_maximum)
      return fail(path,
                  "expected " + numeric_kind(node) + " < " + format_number(*node.exclusive_maximum) + ", got " + got);
    return true;
  }

  bool check_string(const SchemaNode& node, json::string_view s, const Path& path) {
    if (node.min_length || node.max_length) {
      std::size_t n = utf8_length(s);
      if (node.min_length && n < *node.min_length)
        return fail(path, "expected a string of at least " + std::to_string(*node.min_length) + " characters, got " +
                              std::to_string(n));
      if (node.max_length && n > *node.max_length)
        return fail(path, "expected a string of at most " + std::to_string(*node.max_length) + " characters, got " +
                              std::to_string(n));
    }
    if (node.pattern) {
      bool matched = false;
      try {
        matched = boost::regex_search(s.begin(), s.end(), *node.pattern);
      } catch (const std::exception&) {
        // Boost.Regex gives up on catastrophic backtracking instead of hanging.
        return fail(path, "expected a string matching /" + node.pattern_source +
                              "/; this value is too complex to check, send a shorter one");
      }
      if (!matched)
        return fail(path, "expected a string matching /" + node.pattern_source + "/, got " + describe(json::value(s)));
    }
    return true;
  }

  bool check_array(const SchemaNode& node, const json::array& a, const Path& path) {
    if (node.min_items && a.size() < *node.min_items)
      return fail(path,
                  "expected at least " + std::to_string(*node.min_items) + " items, got " + std::to_string(a.size()));
    if (node.max_items && a.size() > *node.max_items)
      return fail(path,
                  "expected at most " + std::to_string(*node.max_items) + " items, got " + std::to_string(a.size()));
    bool ok = true;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const SchemaNode* sub = i < node.prefix_items.size() ? node.prefix_items[i] : node.items;
      if (!sub) continue;
      Path item{&path, {}, i, Path::item};
      if (!check(*sub, a[i], item)) {
        ok = false;
        if (!errors_) return false;
      }
    }
    if (node.unique_items) {
      for (std::size_t i = 1; i < a.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (json_equal(a[i], a[j])) {
            Path item{&path, {}, i, Path::item};
            return fail(item, "expected unique items, but it repeats item [" + std::to_string(j) + "]");
          }
    }
    return ok;
  }

  bool check_object(const SchemaNode& node, const json::object& o, const Path& path) {
    bool ok = true;
    for (const std::string& name : node.required) {
      if (o.contains(name)) continue;
      Path missing{&path, name, 0, Path::property};
      std::string expected;
      if (const SchemaNode* sub = node.property(name); sub && sub->types)
        expected = " (expected " + type_names(sub->types) + ")";
      ok = fail(missing, "missing required property" + expected);
      if (!errors_) return false;
    }
    if (node.min_properties && o.size() < *node.min_properties)
      if (!(ok = fail(path, "expected at least " + std::to_string(*node.min_properties) + " properties")) && !errors_)
        return false;
    if (node.max_properties && o.size() > *node.max_properties)
      if (!(ok = fail(path, "expected at most " + std::to_string(*node.max_properties) + " properties")) && !errors_)
        return false;
    for (const auto& [key, value] : o) {
      Path prop{&path, key, 0, Path::property};
      const SchemaNode* sub = node.property(key);
      if (!sub) {
        if (node.additional == SchemaNode::Additional::forbid) {
          std::string allowed;
          for (const auto& [name, _] : node.properties) {
            if (!allowed.empty()) allowed += ", ";
            allowed += name;
          }
          ok = fail(prop, "unexpected property" + (allowed.empty() ? std::string() : "; allowed: " + allowed));
          if (!errors_) return false;
          continue;
        }
        if (node.additional == SchemaNode::Additional::schema) sub = node.additional_schema;
      }
      if (sub && !check(*sub, value, prop)) {
        ok = false;
        if (!errors_) return false;
      }
    }
    return ok;
  }

  bool check_any_of(const SchemaNode& node, const json::value& v, const Path& path) {
    for (const SchemaNode* sub : node.any_of) {
      Validator probe(nullptr);
      probe.depth_ = depth_;
      if (probe.check(*sub, v, path)) return true;
    }
    return fail(path, "expected a value matching at least one of the anyOf alternatives (" +
                          alternatives(node.any_of, v, path) + ")");
  }

  bool check_one_of(const SchemaNode& node, const json::value& v, const Path& path) {
    std::size_t matches = 0;
    for (const SchemaNode* sub : node.one_of) {
      Validator probe(nullptr);
      probe.depth_ = depth_;
      if (probe.check(*sub, v, path)) ++matches;
    }
    if (matches == 1) return true;
    if (matches == 0)
      return fail(path, "expected a value matching exactly one of the oneOf alternatives (" +
                            alternatives(node.one_of, v, path) + ")");
    return fail(path, "expected a value matching exactly one of the oneOf alternatives, but it matches " +
                          std::to_string(matches));
  }

  // "1: <first error>; 2: <first error>" to show what each alternative wanted.
  std::string alternatives(const std::vector<const SchemaNode*>& subs, const json::value& v, const Path& path) {
    if (!errors_) return {};
    std::string out;
    for (std::size_t i = 0; i < subs.size(); ++i) {
      std::vector<std::string> errs;
      Validator collect(&errs);
      collect.depth_ = depth_;
      collect.check(*subs[i], v, path);
      if (!out.empty()) out += "; ";
      // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on the chained operator+ form.
      out += '#';
      out += std::to_string(i + 1);
      out += ": ";
      out += errs.empty() ? std::string("?") : errs.front();
    }
    return out;
  }

  static constexpr int kMaxDepth = 256;
  std::vector<std::string>* errors_;
  int depth_ = 0;
};

}  // namespace

SchemaValidator::SchemaValidator(const json::object& schema) {
  auto storage = std::make_shared<Storage>();
  Compiler compiler(schema, *storage);
  const SchemaNode* root = compiler.compile(json::value(schema), "");
  // A $ref chain that comes back to itself ({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}})
  // would recurse without consuming input: reject it now, not at the first call.
  for (const SchemaNode& node : storage->nodes) {
    const SchemaNode* at = node.ref;
    for (std::size_t steps = 0; at; at = at->ref) {
      if (at == &node || ++steps > storage->nodes.size())
        throw std::invalid_argument("invalid JSON Schema: $ref cycle that never reaches a real schema");
    }
  }
  root_ = std::shared_ptr<const SchemaNode>(storage, root);
  storage_ = storage;
}

SchemaValidator::~SchemaValidator() = default;
SchemaValidator::SchemaValidator(SchemaValidator&&) noexcept = default;
SchemaValidator& SchemaValidator::operator=(SchemaValidator&&) noexcept = default;

std::vector<std::string> SchemaValidator::validate(const json::value& instance, std::string_view root) const {
  std::vector<std::string> errors;
  Validator validator(nullptr);
  Path path{nullptr, root, 0, Path::root};
  if (validator.check(*root_, instance, path)) return errors;  // fast path: no allocation
  Validator collect(&errors);
  collect.check(*root_, instance, path);
  if (errors.empty()) errors.push_back(std::string(root) + ": invalid");
  return errors;
}

bool SchemaValidator::is_valid(const json::value& instance) const {
  Validator validator(nullptr);
  Path path{nullptr, {}, 0, Path::root};
  return validator.check(*root_, instance, path);
}

}  // namespace hamcp::mcp
