#include "ha/detail/json_items.hpp"

#include <array>
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/error.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>
#include <cstdint>
#include <cstring>
#include <optional>

#include "common/byte_lanes.hpp"
#include "ha/detail/ha_json.hpp"

namespace hamcp::ha::detail {
namespace json = boost::json;

namespace {

// The text being walked and where the walk is.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  // The next non-space character (0 at the end), not consumed.
  char peek() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool take(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool at_end() { return peek() == '\0'; }

  // One complete JSON value from here, parsed into storage.
  std::optional<json::value> value(json::storage_ptr storage, boost::system::error_code& ec) {
    json::parse_options options;
    options.max_depth = kHaJsonMaxDepth;
    json::parser parser(storage, options);  // its temporary stack
    parser.reset(std::move(storage));       // the value's nodes: without this, each key and string is a malloc
    const std::string_view rest = text_.substr(pos_);
    const std::size_t used = parser.write_some(rest.data(), rest.size(), ec);
    if (ec) return std::nullopt;  // write_some: an error, or one complete value
    pos_ += used;
    return parser.release();  // keeps the arena storage (assigning would copy it to the heap)
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  std::string_view text_;
  std::size_t pos_ = 0;
};

// After an element: ',' and another one follows, or the closing bracket.
// Returns 1 for more, 0 at the close, -1 on anything else.
int after_element(Cursor& cursor, char close) {
  if (cursor.take(',')) return 1;
  if (cursor.take(close)) return 0;
  return -1;
}

bool fail(boost::system::error_code& ec) {
  ec = json::error::syntax;
  return false;
}

// The walk of one container; element() parses one element (and its key).
template <class Element>
bool walk(std::string_view text, char open, char close, boost::system::error_code& ec, Element element) {
  Cursor cursor(text);
  if (!cursor.take(open)) return fail(ec);
  if (!cursor.take(close)) {
    // Each element's DOM lives in this arena; it is released after the
    // visit, so memory stays at the size of the largest element.
    std::array<unsigned char, 16 * 1024> buffer{};
    for (;;) {
      json::monotonic_resource arena(buffer.data(), buffer.size());
      if (!element(cursor, json::storage_ptr(&arena))) return false;
      const int more = after_element(cursor, close);
      if (more < 0) return fail(ec);
      if (more == 0) break;
    }
  }
  if (!cursor.at_end()) return fail(ec);
  return true;
}

}  // namespace

bool for_each_item(std::string_view text, const ItemVisitor& visit, boost::system::error_code& ec) {
  ec = {};
  return walk(text, '[', ']', ec, [&](Cursor& cursor, const json::storage_ptr& sp) {
    auto item = cursor.value(sp, ec);
    if (!item) return false;
    visit(*item);
    return true;
  });
}

bool for_each_member(std::string_view text, const MemberVisitor& visit, boost::system::error_code& ec) {
  ec = {};
  return walk(text, '{', '}', ec, [&](Cursor& cursor, const json::storage_ptr& sp) {
    auto key = cursor.value(sp, ec);
    if (!key) return false;
    if (!key->is_string() || !cursor.take(':')) return fail(ec);
    auto value = cursor.value(sp, ec);
    if (!value) return false;
    visit(key->as_string(), *value);
    return true;
  });
}

}  // namespace hamcp::ha::detail

namespace hamcp::ha::detail {

namespace {

// A handler that keeps nothing: the parser only validates.
struct NullHandler {
  using error_code = boost::system::error_code;
  static constexpr std::size_t max_array_size = -1;
  static constexpr std::size_t max_object_size = -1;
  static constexpr std::size_t max_string_size = -1;
  static constexpr std::size_t max_key_size = -1;
  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_array_begin(error_code&) { return true; }
  bool on_array_end(std::size_t, error_code&) { return true; }
  bool on_object_begin(error_code&) { return true; }
  bool on_object_end(std::size_t, error_code&) { return true; }
  bool on_string_part(json::string_view, std::size_t, error_code&) { return true; }
  bool on_string(json::string_view, std::size_t, error_code&) { return true; }
  bool on_key_part(json::string_view, std::size_t, error_code&) { return true; }
  bool on_key(json::string_view, std::size_t, error_code&) { return true; }
  bool on_number_part(json::string_view, error_code&) { return true; }
  bool on_int64(std::int64_t, json::string_view, error_code&) { return true; }
  bool on_uint64(std::uint64_t, json::string_view, error_code&) { return true; }
  bool on_double(double, json::string_view, error_code&) { return true; }
  bool on_bool(bool, error_code&) { return true; }
  bool on_null(error_code&) { return true; }
  bool on_comment_part(json::string_view, error_code&) { return true; }
  bool on_comment(json::string_view, error_code&) { return true; }
};

}  // namespace

std::optional<std::size_t> json_value_length(std::string_view text) {
  json::parse_options options;
  options.max_depth = kHaJsonMaxDepth;
  json::basic_parser<NullHandler> parser(options);
  boost::system::error_code ec;
  // The parser stops after one complete value, whatever follows it.
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (ec || !parser.done()) return std::nullopt;
  return used;
}

namespace {

// Past the string whose opening quote is at text[at]; npos if it never closes.
// Most of a registry list's bytes are inside strings: eight at a time are
// skipped while none is a quote or a backslash.
std::size_t past_string(std::string_view text, std::size_t at) {
  const char* p = text.data();
  std::size_t i = at + 1;
  while (i < text.size()) {
    if (i + 8 <= text.size()) {
      const std::uint64_t w = lanes::load(p + i);
      if ((lanes::equal(w, '"') | lanes::equal(w, '\\')) == 0) {
        i += 8;
        continue;
      }
    }
    const char c = p[i];
    if (c == '"') return i + 1;
    i += c == '\\' ? 2 : 1;  // after a backslash: the escaped character, whatever it is (a quote included)
  }
  return std::string_view::npos;
}

bool ends_scalar(char c) { return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::optional<std::size_t> json_value_extent(std::string_view text) {
  std::size_t unused = 0;
  return json_value_extent(text, unused);
}

std::optional<std::size_t> json_value_extent(std::string_view text, std::size_t& last_value_at) {
  last_value_at = 0;
  if (text.empty()) return std::nullopt;
  const char first = text.front();
  if (first == '"') {
    const std::size_t end = past_string(text, 0);
    if (end == std::string_view::npos) return std::nullopt;
    return end;
  }
  if (first != '{' && first != '[') {
    std::size_t i = 0;
    while (i < text.size() && !ends_scalar(text[i])) ++i;
    return i;
  }
  std::size_t depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = past_string(text, i);
      if (i == std::string_view::npos) return std::nullopt;
      --i;  // the loop's ++i steps past the closing quote
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    } else if (c == ':' && depth == 1) {
      last_value_at = i + 1;
    }
  }
  return std::nullopt;
}

}  // namespace hamcp::ha::detail
