#include "app/setup/config_text.hpp"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cstdio>

namespace hamcp::app::setup {
namespace {

namespace json = boost::json;

void indent(std::string& out, int depth) { out.append(static_cast<std::size_t>(depth) * 2, ' '); }

void write_pretty(const json::value& value, int depth, std::string& out) {
  if (const json::object* object = value.if_object(); object != nullptr && !object->empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& member : *object) {
      if (!first) out += ",\n";
      first = false;
      indent(out, depth + 1);
      out += json::serialize(json::string_view(member.key())) + ": ";
      write_pretty(member.value(), depth + 1, out);
    }
    out += "\n";
    indent(out, depth);
    out += "}";
  } else if (const json::array* array = value.if_array(); array != nullptr && !array->empty()) {
    out += "[\n";
    for (std::size_t i = 0; i < array->size(); ++i) {
      if (i != 0) out += ",\n";
      indent(out, depth + 1);
      write_pretty((*array)[i], depth + 1, out);
    }
    out += "\n";
    indent(out, depth);
    out += "]";
  } else {
    out += json::serialize(value);
  }
}

bool is_bare(char c, std::string_view extra) {
  const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return alnum || extra.find(c) != std::string_view::npos;
}

}  // namespace

std::string pretty_json(const json::value& value) {
  std::string out;
  write_pretty(value, 0, out);
  out += "\n";
  return out;
}

std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(byte));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string toml_key(std::string_view key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) { return is_bare(c, "_-"); });
  return bare ? std::string(key) : toml_string(key);
}

std::string toml_array(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + toml_string(items[i]);
  return out + "]";
}

std::string shell_command(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += ' ';
    const bool bare =
        !word.empty() && std::all_of(word.begin(), word.end(), [](char c) { return is_bare(c, "_./:=@%+,-"); });
    if (bare) {
      out += word;
      continue;
    }
    out += '\'';
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

bool url_scheme_is_http(std::string_view url) { return url.starts_with("http://"); }

}  // namespace hamcp::app::setup
