// SEP-2243 Mcp-Param-* headers against the tools/call body (see param_headers.hpp).
#include "mcp/param_headers.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "common/ascii.hpp"

namespace hamcp::mcp::modern {
namespace {

constexpr std::size_t kMaxSchemaDepth = 16;  // annotations deeper than this are not looked for

void collect(const json::object& schema, std::vector<std::string>& path, std::vector<ParamHeader>& out,
             std::size_t depth) {
  if (depth > kMaxSchemaDepth) return;
  const json::value* props = schema.if_contains("properties");
  if (!props || !props->is_object()) return;
  for (const auto& [key, sub] : props->get_object()) {
    if (!sub.is_object()) continue;
    path.emplace_back(key);
    const json::object& property = sub.get_object();
    if (const json::value* name = property.if_contains("x-mcp-header"); name && name->is_string())
      out.push_back(ParamHeader{path, std::string(name->get_string())});
    collect(property, path, out, depth + 1);
    path.pop_back();
  }
}

const json::value* value_at(const json::object& arguments, const std::vector<std::string>& path) {
  const json::object* at = &arguments;
  const json::value* found = nullptr;
  for (const auto& key : path) {
    if (!at) return nullptr;
    found = at->if_contains(key);
    if (!found) return nullptr;
    at = found->if_object();
  }
  return found;
}

std::string dotted(const std::vector<std::string>& path) {
  std::string out = "arguments";
  for (const auto& key : path) out += "." + key;
  return out;
}

std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Whether the header's (decoded) text says the same as the body's value.
bool same_value(const std::string& text, const json::value& body) {
  if (body.is_string()) return text == body.get_string();
  if (body.is_bool()) return text == (body.get_bool() ? "true" : "false");
  if (body.is_int64()) {
    std::int64_t parsed = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (ec == std::errc() && end == text.data() + text.size()) return parsed == body.get_int64();
  }
  if (body.is_uint64()) {
    std::uint64_t parsed = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (ec == std::errc() && end == text.data() + text.size()) return parsed == body.get_uint64();
  }
  const auto parsed = parse_number(text);
  return parsed && body.is_number() && *parsed == body.to_number<double>();
}

std::optional<std::string> check_one(const HeaderLookup& header, const ParamHeader& declared,
                                     const json::object& arguments) {
  const std::string header_name = "Mcp-Param-" + declared.header_name;
  const json::value* body = value_at(arguments, declared.path);
  const bool has_body = body && !body->is_null() && !body->is_object() && !body->is_array();
  const auto raw = header(ascii_lower(header_name));
  if (!raw && !has_body) return std::nullopt;
  if (!raw)
    return "Header mismatch: " + header_name + " header is required when " + dotted(declared.path) +
           " is given (the tool's inputSchema mirrors it with x-mcp-header)";
  if (!has_body)
    return "Header mismatch: " + header_name + " header is sent but " + dotted(declared.path) +
           " is absent from the body; send both or neither";
  const auto decoded = decode_header_value(*raw);
  if (!decoded)
    return "Header mismatch: " + header_name +
           " header has a broken =?base64?...?= value (padded RFC 4648 base64 expected)";
  if (!same_value(*decoded, *body))
    return "Header mismatch: " + header_name + " header value '" + *decoded + "' does not match body " +
           dotted(declared.path) + " " + json::serialize(*body);
  return std::nullopt;
}

}  // namespace

std::vector<ParamHeader> param_headers_of(const json::object& input_schema) {
  std::vector<ParamHeader> out;
  std::vector<std::string> path;
  collect(input_schema, path, out, 0);
  return out;
}

std::optional<std::string> param_header_mismatch(const HeaderLookup& header, const std::vector<ParamHeader>& declared,
                                                 const json::object& arguments) {
  for (const auto& one : declared) {
    if (auto mismatch = check_one(header, one, arguments)) return mismatch;
  }
  return std::nullopt;
}

}  // namespace hamcp::mcp::modern
