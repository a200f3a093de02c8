#include "sim/json_writer.hpp"

#include <charconv>
#include <cmath>

namespace hamcp::sim {
namespace {

void append_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;  // UTF-8 passes through (HA sends ensure_ascii=False)
        }
    }
  }
  out += '"';
}

void append_double(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";  // HA's encoder refuses NaN/inf; null keeps the frame valid
    return;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, d);
  std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  out += s;
  if (s.find_first_of(".eEn") == std::string_view::npos) out += ".0";
}

}  // namespace

void append_json(std::string& out, const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: out += "null"; break;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; break;
    case boost::json::kind::int64: out += std::to_string(v.get_int64()); break;
    case boost::json::kind::uint64: out += std::to_string(v.get_uint64()); break;
    case boost::json::kind::double_: append_double(out, v.get_double()); break;
    case boost::json::kind::string: append_string(out, v.get_string()); break;
    case boost::json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& x : v.get_array()) {
        if (!first) out += ',';
        first = false;
        append_json(out, x);
      }
      out += ']';
      break;
    }
    case boost::json::kind::object: {
      out += '{';
      bool first = true;
      for (const auto& kv : v.get_object()) {
        if (!first) out += ',';
        first = false;
        append_string(out, kv.key());
        out += ':';
        append_json(out, kv.value());
      }
      out += '}';
      break;
    }
  }
}

std::string to_json(const boost::json::value& v) {
  std::string out;
  out.reserve(256);
  append_json(out, v);
  return out;
}

}  // namespace hamcp::sim
