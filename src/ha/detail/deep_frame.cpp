#include "ha/detail/deep_frame.hpp"

#include <string>

#include "ha/detail/ha_json.hpp"

namespace hamcp::ha::detail {

namespace json = boost::json;

namespace {

// Tracks whether a character of JSON text is inside a string literal. The
// scans below only need brackets and commas outside strings: they never
// recurse, so no nesting depth can exhaust the stack.
struct StringTracker {
  bool in_string = false;
  bool escaped = false;
  // True when c is structural (outside any string, and not a quote).
  bool structural(char c) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      return false;
    }
    if (c == '"') {
      in_string = true;
      return false;
    }
    return true;
  }
};

// The message with every container below its top level replaced by null:
// {"id":3,"type":"result","result":{...}} -> {"id":3,"type":"result","result":null}.
std::string flatten_below_top(std::string_view message) {
  std::string out;
  out.reserve(64);
  StringTracker strings;
  int depth = 0;
  for (const char c : message) {
    const bool structural = strings.structural(c);
    const bool opens = structural && (c == '{' || c == '[');
    const bool closes = structural && (c == '}' || c == ']');
    if (opens && depth == 1) out += "null";
    if (opens) ++depth;
    if (depth <= 1) out += c;
    if (closes) --depth;
  }
  return out;
}

std::optional<json::object> top_level_scalars(std::string_view message) {
  boost::system::error_code ec;
  json::value v = parse_ha_json(flatten_below_top(message), ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

// The elements of a JSON array text, or nullopt when the brackets never close.
std::optional<std::vector<std::string_view>> array_elements(std::string_view text) {
  std::vector<std::string_view> elements;
  StringTracker strings;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!strings.structural(c)) continue;
    if (c == '{' || c == '[') {
      if (++depth == 1) start = i + 1;
      continue;
    }
    if (c == ',' && depth == 1) {
      elements.push_back(text.substr(start, i - start));
      start = i + 1;
      continue;
    }
    if (c != '}' && c != ']') continue;
    if (depth == 1) elements.push_back(text.substr(start, i - start));
    if (--depth > 0) continue;
    if (text.find_first_not_of(" \t\n\r", i + 1) != std::string_view::npos) return std::nullopt;  // text after it
    if (elements.size() == 1 && elements.front().find_first_not_of(" \t\n\r") == std::string_view::npos) {
      elements.clear();  // []
    }
    return elements;
  }
  return std::nullopt;
}

}  // namespace

std::optional<DeepFrame> salvage_deep_frame(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\n\r");
  if (first == std::string_view::npos) return std::nullopt;
  DeepFrame frame;
  if (text[first] == '{') {
    auto scalars = top_level_scalars(text);
    if (!scalars) return std::nullopt;
    frame.too_deep.push_back(std::move(*scalars));
    return frame;
  }
  if (text[first] != '[') return std::nullopt;
  auto elements = array_elements(text);
  if (!elements) return std::nullopt;
  for (const std::string_view element : *elements) {
    boost::system::error_code ec;
    json::value v = parse_ha_json(element, ec);
    if (!ec) {
      frame.whole.push_back(std::move(v));
      continue;
    }
    if (ec != json::error::too_deep) return std::nullopt;
    auto scalars = top_level_scalars(element);
    if (!scalars) return std::nullopt;
    frame.too_deep.push_back(std::move(*scalars));
  }
  return frame;
}

}  // namespace hamcp::ha::detail
