#include "json/json_text.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <cmath>

namespace hamcp {
namespace {

namespace json = boost::json;

void append_string(std::string& out, json::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  std::size_t run = 0;  // copy unescaped stretches in one go
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

template <typename T>
void append_integer(std::string& out, T v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void append_double(std::string& out, double d) {
  if (!std::isfinite(d)) {  // JSON has no NaN/Infinity; Home Assistant sends null too
    out += "null";
    return;
  }
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  std::string_view text(buf, static_cast<std::size_t>(end - buf));
  out += text;
  // Keep a float a float (5.0, not 5), as Python's json writes it.
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

void append_value(std::string& out, const json::value& v);

void append_array(std::string& out, const json::array& a) {
  out.push_back('[');
  bool first = true;
  for (const auto& item : a) {
    if (!first) out.push_back(',');
    first = false;
    append_value(out, item);
  }
  out.push_back(']');
}

void append_object(std::string& out, const json::object& o) {
  out.push_back('{');
  bool first = true;
  for (const auto& kv : o) {
    if (!first) out.push_back(',');
    first = false;
    append_string(out, kv.key());
    out.push_back(':');
    append_value(out, kv.value());
  }
  out.push_back('}');
}

void append_value(std::string& out, const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      out += "null";
      break;
    case json::kind::bool_:
      out += v.get_bool() ? "true" : "false";
      break;
    case json::kind::int64:
      append_integer(out, v.get_int64());
      break;
    case json::kind::uint64:
      append_integer(out, v.get_uint64());
      break;
    case json::kind::double_:
      append_double(out, v.get_double());
      break;
    case json::kind::string:
      append_string(out, v.get_string());
      break;
    case json::kind::array:
      append_array(out, v.get_array());
      break;
    case json::kind::object:
      append_object(out, v.get_object());
      break;
  }
}

}  // namespace

void append_json_text(std::string& out, const json::value& value) { append_value(out, value); }
void append_json_text(std::string& out, const json::object& value) { append_object(out, value); }
void append_json_text(std::string& out, const json::array& value) { append_array(out, value); }

std::string json_text(const json::value& value) {
  std::string out;
  out.reserve(256);
  append_value(out, value);
  return out;
}

std::string json_text(const json::object& value) {
  std::string out;
  out.reserve(256);
  append_object(out, value);
  return out;
}

}  // namespace hamcp
