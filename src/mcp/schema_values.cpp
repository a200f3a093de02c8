// How the schema checker looks at and names JSON values (schema_values.hpp).
#include "mcp/schema_values.hpp"

#include <charconv>
#include <cmath>
#include <utility>

#include "mcp/schema_node.hpp"

namespace hamcp::mcp::detail {

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

}  // namespace hamcp::mcp::detail
