#include "json/json_text.hpp"

#include <array>
#include <boost/json.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/byte_lanes.hpp"

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

// Eight bytes at a time (issue 9, item 6: the text of a structured result is
// escaped into content[0].text on every tool call, ~9 % of a call byte by
// byte): the lanes holding '"', '\\' or a control character.
std::uint64_t special_lanes(std::uint64_t w) {
  return lanes::control(w) | lanes::equal(w, '"') | lanes::equal(w, '\\');
}

// Bytes the escapes of `s` add.
std::size_t escape_extra(json::string_view s) {
  const char* p = s.data();
  std::size_t i = 0, extra = 0;
  if constexpr (lanes::kLanesInOrder) {
    for (; i + 8 <= s.size(); i += 8) {
      const std::uint64_t w = lanes::load(p + i);
      if (lanes::control(w) != 0) {  // rare: \n and \u00XX add different amounts
        for (std::size_t k = i; k < i + 8; ++k) extra += kEscapeExtra[static_cast<unsigned char>(p[k])];
      } else {
        extra += lanes::count(special_lanes(w));  // '"' and '\\' add one each
      }
    }
  }
  for (; i < s.size(); ++i) extra += kEscapeExtra[static_cast<unsigned char>(p[i])];
  return extra;
}

// Writes the escape of a special byte: the usual '"' and '\\' inline.
char* write_special(char* out, unsigned char c) {
  if (c == '"' || c == '\\') {
    out[0] = '\\';
    out[1] = static_cast<char>(c);
    return out + 2;
  }
  return write_escape(out, c);
}

// Room for the escaped text plus this much: whole words are stored and the
// cursor moved past their plain bytes only.
constexpr std::size_t kSlack = 8;

// Writes `s` escaped at `out` (room: the escaped size + kSlack), adding at most
// `budget` bytes of escapes; returns the end, or nullptr when `budget` is not
// enough. A word is loaded once, however many special bytes it holds (JSON
// text escaped into a string has a quote every few bytes).
char* write_escaped(char* out, json::string_view s, std::size_t budget) {
  const char* p = s.data();
  std::size_t i = 0;
  auto special = [&](unsigned char c) -> bool {
    const std::size_t cost = kEscapeExtra[c];
    if (cost > budget) return false;
    budget -= cost;
    out = write_special(out, c);
    return true;
  };
  if constexpr (lanes::kLanesInOrder) {
    for (; i + 8 <= s.size(); i += 8) {
      const std::uint64_t w = lanes::load(p + i);
      std::uint64_t specials = special_lanes(w);
      std::size_t from = 0;  // bytes of this word already written
      while (specials != 0) {
        const std::size_t at = lanes::first(specials);
        const std::uint64_t rest = w >> (8 * from);
        std::memcpy(out, &rest, 8);
        out += at - from;
        if (!special(static_cast<unsigned char>(p[i + at]))) return nullptr;
        from = at + 1;
        specials &= specials - 1;
      }
      if (from < 8) {
        const std::uint64_t rest = w >> (8 * from);
        std::memcpy(out, &rest, 8);
        out += 8 - from;
      }
    }
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (kEscapeExtra[c] == 0)
      *out++ = p[i];
    else if (!special(c))
      return nullptr;
  }
  return out;
}

// Strings of this size and more, up to kOnePassMax, are written in one pass
// into room for one escape byte per byte ('"', '\\', '\n': all but \u00XX):
// a JSON text escaped into a string has a quote every few bytes, and counting
// them first cost a second pass. Shorter strings (names, most values) are
// usually plain: measured first, they are copied whole. Longer ones are
// measured first so that a big text does not reserve twice its size.
constexpr std::size_t kOnePassMin = 64;
constexpr std::size_t kOnePassMax = 4096;

// Writes `s` escaped after what `out` holds, `extra` being the bytes its
// escapes add (escape_extra).
void append_measured(std::string& out, json::string_view s, std::size_t extra) {
  const std::size_t at = out.size();
  const std::size_t end = at + s.size() + extra + 2;
  out.resize(extra == 0 ? end : end + kSlack);
  char* p = out.data() + at;
  *p++ = '"';
  if (extra == 0)
    std::memcpy(p, s.data(), s.size());
  else
    write_escaped(p, s, extra);  // exactly `extra` bytes of escapes: it ends where the quote goes
  out[end - 1] = '"';
  out.resize(end);
}

// Sized once, then written through a pointer (appending piece by piece, a
// capacity check per quote, cost ~10 % of a call).
void append_string(std::string& out, json::string_view s) {
  if (s.size() >= kOnePassMin && s.size() <= kOnePassMax) {
    const std::size_t at = out.size();
    out.resize(at + 2 * s.size() + 2 + kSlack);
    char* p = out.data() + at;
    *p++ = '"';
    if (char* end = write_escaped(p, s, s.size())) {
      *end = '"';
      out.resize(static_cast<std::size_t>(end + 1 - out.data()));
      return;
    }
    out.resize(at);  // \u00XX escapes beyond the room: measured after all
  }
  append_measured(out, s, escape_extra(s));
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
