#include "json/json_text.hpp"

#include <array>
#include <boost/json.hpp>
#include <charconv>
#include <cmath>
#include <cstring>

namespace hamcp {
namespace {

namespace json = boost::json;

// Bytes each character adds when escaped: 0 (copied as is), 1 ("\"", "\\",
// "\n", ...) or 5 ("\u00XX" for the other control characters).
constexpr std::array<unsigned char, 256> make_escape_extra() {
  std::array<unsigned char, 256> extra{};
  for (int c = 0; c < 0x20; ++c) extra[c] = 5;
  for (unsigned char c : {'"', '\\', '\n', '\r', '\t', '\b', '\f'}) extra[c] = 1;
  return extra;
}
constexpr std::array<unsigned char, 256> kEscapeExtra = make_escape_extra();

// Writes the escape of `c` (kEscapeExtra[c] != 0) at `p`; returns the end.
char* write_escape(char* p, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  *p++ = '\\';
  switch (c) {
    case '"':
      *p++ = '"';
      break;
    case '\\':
      *p++ = '\\';
      break;
    case '\n':
      *p++ = 'n';
      break;
    case '\r':
      *p++ = 'r';
      break;
    case '\t':
      *p++ = 't';
      break;
    case '\b':
      *p++ = 'b';
      break;
    case '\f':
      *p++ = 'f';
      break;
    default:
      *p++ = 'u';
      *p++ = '0';
      *p++ = '0';
      *p++ = kHex[c >> 4];
      *p++ = kHex[c & 0xF];
  }
  return p;
}

// Sized once, then written through a pointer: the text of a structured result
// is escaped into content[0].text on every tool call (issue 9, item 6), and
// appending piece by piece (a capacity check per quote) cost ~10 % of a call.
void append_string(std::string& out, json::string_view s) {
  std::size_t extra = 0;
  for (const char ch : s) extra += kEscapeExtra[static_cast<unsigned char>(ch)];
  const std::size_t at = out.size();
  out.resize(at + s.size() + extra + 2);
  char* p = out.data() + at;
  *p++ = '"';
  if (extra == 0) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  } else {
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (kEscapeExtra[c] == 0)
        *p++ = ch;
      else
        p = write_escape(p, c);
    }
  }
  *p = '"';
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
