#include "sim/core/template.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/saturate_cast.hpp"
#include "sim/core/template_parser.hpp"

namespace hamcp::sim {
namespace tmpl {

// Marker values for the `states` namespace: states / states.light
const char* const kStatesKey = "\x01states";

std::string py_repr(const json::value& v) {
  if (v.is_string()) return "'" + std::string(v.get_string()) + "'";
  return py_str(v);
}

namespace {
std::string py_float(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e16) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.1f", d);
    return buf;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}
}  // namespace

std::string py_str(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "None";
    case json::kind::bool_:
      return v.get_bool() ? "True" : "False";
    case json::kind::int64:
      return std::to_string(v.get_int64());
    case json::kind::uint64:
      return std::to_string(v.get_uint64());
    case json::kind::double_:
      return py_float(v.get_double());
    case json::kind::string:
      return std::string(v.get_string());
    case json::kind::array: {
      std::string s = "[";
      bool first = true;
      for (const auto& x : v.get_array()) {
        if (!first) s += ", ";
        first = false;
        s += py_repr(x);
      }
      return s + "]";
    }
    case json::kind::object: {
      if (v.get_object().contains(kStatesKey)) return "<template TemplateStates>";
      std::string s = "{";
      bool first = true;
      for (const auto& kv : v.get_object()) {
        if (!first) s += ", ";
        first = false;
        s += "'" + std::string(kv.key()) + "': " + py_repr(kv.value());
      }
      return s + "}";
    }
  }
  return "";
}

bool truthy(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return false;
    case json::kind::bool_:
      return v.get_bool();
    case json::kind::int64:
      return v.get_int64() != 0;
    case json::kind::uint64:
      return v.get_uint64() != 0;
    case json::kind::double_:
      return v.get_double() != 0;
    case json::kind::string:
      return !v.get_string().empty();
    case json::kind::array:
      return !v.get_array().empty();
    case json::kind::object:
      return true;
  }
  return false;
}

}  // namespace tmpl

namespace {

using tmpl::py_str;

json::value parse_result(const std::string& text) {
  if (text == "True") return true;
  if (text == "False") return false;
  if (text == "None") return nullptr;
  auto n = numeric_state(text);
  if (n && text.find_first_of("eE") == std::string::npos && text.front() != '+' &&
      !(text.size() > 1 && text[0] == '0' && text[1] != '.')) {
    if (text.find('.') == std::string::npos) return saturate_cast<int64_t>(*n);
    return *n;
  }
  if (!text.empty() && (text.front() == '[' || text.front() == '{')) {
    // Python literal -> JSON: quotes and constants
    std::string j;
    bool in = false;
    for (char c : text) {
      if (c == '\'') {
        j += '"';
        in = !in;
        continue;
      }
      j += c;
    }
    for (auto [from, to] :
         {std::pair<std::string, std::string>{"True", "true"}, {"False", "false"}, {"None", "null"}}) {
      for (std::size_t p = 0; (p = j.find(from, p)) != std::string::npos;) j.replace(p, from.size(), to);
    }
    boost::system::error_code ec;
    auto v = json::parse(j, ec);
    if (!ec) return v;
  }
  return json::value(text);
}

}  // namespace

TemplateResult render_template(StateStore& store, const std::string& source, const json::object& variables) {
  std::lock_guard lock(store.mutex());
  TemplateResult r;
  std::size_t i = 0;
  bool single_expression = false;
  json::value single;
  int pieces = 0;
  while (i < source.size()) {
    std::size_t open = source.find("{", i);
    while (open != std::string::npos && open + 1 < source.size() && source[open + 1] != '{' &&
           source[open + 1] != '%' && source[open + 1] != '#')
      open = source.find("{", open + 1);
    if (open == std::string::npos || open + 1 >= source.size()) {
      r.text += source.substr(i);
      if (i < source.size()) ++pieces;
      break;
    }
    if (open > i) {
      r.text += source.substr(i, open - i);
      ++pieces;
    }
    char kind = source[open + 1];
    if (kind == '%')
      throw TemplateError("TemplateSyntaxError: statements ({% … %}) are not supported by the hamcp simulator");
    std::string close = kind == '#' ? "#}" : "}}";
    std::size_t end = source.find(close, open + 2);
    if (end == std::string::npos)
      throw TemplateError("TemplateSyntaxError: unexpected end of template, expected 'end of print statement'.");
    if (kind == '{') {
      tmpl::Parser p(store, source.substr(open + 2, end - open - 2), variables, r);
      json::value v = p.parse_all();
      r.text += py_str(v);
      single = v;
      ++pieces;
      single_expression = pieces == 1;
    }
    i = end + 2;
  }
  std::sort(r.entities.begin(), r.entities.end());
  r.entities.erase(std::unique(r.entities.begin(), r.entities.end()), r.entities.end());
  // HA strips the rendered text and parses it (parse_result) for render_template.
  std::string stripped = r.text;
  while (!stripped.empty() && std::isspace(static_cast<unsigned char>(stripped.back()))) stripped.pop_back();
  stripped.erase(0, std::min(stripped.size(), stripped.find_first_not_of(" \t\r\n")));
  r.value = parse_result(stripped);
  (void)single_expression;
  return r;
}

}  // namespace hamcp::sim
