// The walk over a compiled schema (schema_check.hpp).
#include "mcp/schema_check.hpp"

#include <string>

#include "mcp/schema_values.hpp"

namespace hamcp::mcp::detail {
namespace {

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
    const SchemaRare& rare = node.rare();
    if (rare.const_value && !json_equal(*rare.const_value, v)) {
      if (!step(fail(path, "expected " + compact(*rare.const_value) + ", got " + describe(v)))) return false;
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
    for (const SchemaNode* sub : rare.all_of)
      if (!step(check(*sub, v, path))) return false;
    if (!rare.any_of.empty() && !step(check_any_of(node, v, path))) return false;
    if (!rare.one_of.empty() && !step(check_one_of(node, v, path))) return false;
    if (rare.not_schema) {
      Validator probe(nullptr);
      probe.depth_ = depth_;
      if (probe.check(*rare.not_schema, v, path) && !step(fail(path, "matches a schema it must not match")))
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
    const SchemaRare& rare = node.rare();
    double d = as_double(v);
    std::string got = format_scalar(v);
    if (rare.minimum && d < *rare.minimum)
      return fail(path, "expected " + numeric_kind(node) + " >= " + format_number(*rare.minimum) + ", got " + got);
    if (rare.exclusive_minimum && d <= *rare.exclusive_minimum)
      return fail(path,
                  "expected " + numeric_kind(node) + " > " + format_number(*rare.exclusive_minimum) + ", got " + got);
    if (rare.maximum && d > *rare.maximum)
      return fail(path, "expected " + numeric_kind(node) + " <= " + format_number(*rare.maximum) + ", got " + got);
    if (rare.exclusive_maximum && d >= *rare.exclusive_maximum)
      return fail(path,
                  "expected " + numeric_kind(node) + " < " + format_number(*rare.exclusive_maximum) + ", got " + got);
    return true;
  }

  bool check_string(const SchemaNode& node, json::string_view s, const Path& path) {
    const SchemaRare& rare = node.rare();
    if (rare.min_length || rare.max_length) {
      std::size_t n = utf8_length(s);
      if (rare.min_length && n < *rare.min_length)
        return fail(path, "expected a string of at least " + std::to_string(*rare.min_length) + " characters, got " +
                              std::to_string(n));
      if (rare.max_length && n > *rare.max_length)
        return fail(path, "expected a string of at most " + std::to_string(*rare.max_length) + " characters, got " +
                              std::to_string(n));
    }
    if (rare.pattern) {
      bool matched = false;
      try {
        matched = boost::regex_search(s.begin(), s.end(), *rare.pattern);
      } catch (const std::exception&) {
        // Boost.Regex gives up on catastrophic backtracking instead of hanging.
        return fail(path, "expected a string matching /" + rare.pattern_source +
                              "/; this value is too complex to check, send a shorter one");
      }
      if (!matched)
        return fail(path, "expected a string matching /" + rare.pattern_source + "/, got " + describe(json::value(s)));
    }
    return true;
  }

  bool check_array(const SchemaNode& node, const json::array& a, const Path& path) {
    const SchemaRare& rare = node.rare();
    if (rare.min_items && a.size() < *rare.min_items)
      return fail(path,
                  "expected at least " + std::to_string(*rare.min_items) + " items, got " + std::to_string(a.size()));
    if (rare.max_items && a.size() > *rare.max_items)
      return fail(path,
                  "expected at most " + std::to_string(*rare.max_items) + " items, got " + std::to_string(a.size()));
    bool ok = true;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const SchemaNode* sub = i < rare.prefix_items.size() ? rare.prefix_items[i] : node.items;
      if (!sub) continue;
      Path item{&path, {}, i, Path::item};
      if (!check(*sub, a[i], item)) {
        ok = false;
        if (!errors_) return false;
      }
    }
    if (rare.unique_items) {
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
    const SchemaRare& rare = node.rare();
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
    if (rare.min_properties && o.size() < *rare.min_properties)
      if (!(ok = fail(path, "expected at least " + std::to_string(*rare.min_properties) + " properties")) && !errors_)
        return false;
    if (rare.max_properties && o.size() > *rare.max_properties)
      if (!(ok = fail(path, "expected at most " + std::to_string(*rare.max_properties) + " properties")) && !errors_)
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
    const SchemaRare& rare = node.rare();
    for (const SchemaNode* sub : rare.any_of) {
      Validator probe(nullptr);
      probe.depth_ = depth_;
      if (probe.check(*sub, v, path)) return true;
    }
    return fail(path, "expected a value matching at least one of the anyOf alternatives (" +
                          alternatives(rare.any_of, v, path) + ")");
  }

  bool check_one_of(const SchemaNode& node, const json::value& v, const Path& path) {
    const SchemaRare& rare = node.rare();
    std::size_t matches = 0;
    for (const SchemaNode* sub : rare.one_of) {
      Validator probe(nullptr);
      probe.depth_ = depth_;
      if (probe.check(*sub, v, path)) ++matches;
    }
    if (matches == 1) return true;
    if (matches == 0)
      return fail(path, "expected a value matching exactly one of the oneOf alternatives (" +
                            alternatives(rare.one_of, v, path) + ")");
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

bool check_instance(const SchemaNode& root, const json::value& instance, std::string_view root_name,
                    std::vector<std::string>* errors) {
  Validator validator(errors);
  const Path path{nullptr, root_name, 0, Path::root};
  return validator.check(root, instance, path);
}

}  // namespace hamcp::mcp::detail
