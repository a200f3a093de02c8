// HA's template functions, filters and state objects (see template_parser.hpp).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "common/saturate_cast.hpp"
#include "sim/core/template_parser.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim::tmpl {

std::string Parser::type_name(const json::value& v) {
  switch (v.kind()) {
    case json::kind::string:
      return "str";
    case json::kind::int64:
    case json::kind::uint64:
      return "int";
    case json::kind::double_:
      return "float";
    case json::kind::null:
      return "NoneType";
    case json::kind::bool_:
      return "bool";
    case json::kind::array:
      return "list";
    default:
      return "dict";
  }
}

json::value Parser::state_object(const std::string& entity_id) {
  info_.entities.push_back(entity_id);
  StatePtr s = store_.get(entity_id);
  if (!s) return nullptr;
  json::object o = state_json(*s);
  const auto* fn = s->attributes.if_contains("friendly_name");
  o["name"] = fn && fn->is_string() ? json::value(*fn) : json::value(entity_id.substr(entity_id.find('.') + 1));
  o["domain"] = std::string(domain_of(entity_id));
  o["object_id"] = entity_id.substr(entity_id.find('.') + 1);
  return o;
}

json::value Parser::member(const json::value& v, const std::string& name) {
  if (v.is_object()) {
    const auto& o = v.get_object();
    if (o.contains(kStatesKey)) {
      const json::value& dom = o.at(kStatesKey);
      if (dom.is_null()) return json::object{{kStatesKey, name}};
      return state_object(std::string(dom.get_string()) + "." + name);
    }
    if (const auto* x = o.if_contains(name)) return *x;
    return nullptr;  // jinja: undefined attribute renders empty; None is close enough
  }
  if (v.is_null()) fail("UndefinedError: 'None' has no attribute '" + name + "'");
  fail("UndefinedError: '" + type_name(v) + " object' has no attribute '" + name + "'");
}

std::string Parser::str_arg(const std::vector<json::value>& a, std::size_t i) {
  if (i < a.size() && a[i].is_string()) return std::string(a[i].get_string());
  return i < a.size() ? py_str(a[i]) : std::string();
}

json::value Parser::to_float(const json::value& v, const std::vector<json::value>& a, const char* what) {
  auto n = as_num(v);
  if (!n || v.is_null()) {
    if (!a.empty()) return a[0];
    fail(std::string("ValueError: Template error: ") + what + " got invalid input '" + py_str(v) +
         "' when rendering template, but no default was specified");
  }
  return *n;
}

json::value Parser::filter(const json::value& v) {
  if (peek().kind != Token::Name) fail("TemplateSyntaxError: expected filter name");
  std::string f = toks_[pos_++].text;
  std::vector<json::value> a;
  if (peek().kind == Token::Op && peek().text == "(") a = args();
  if (f == "float") return to_float(v, a, "float");
  if (f == "int") {
    json::value x = to_float(v, a, "int");
    return x.is_number() ? json::value(saturate_cast<int64_t>(x.to_number<double>())) : x;
  }
  if (f == "round") {
    auto n = as_num(v);
    if (!n) fail("ValueError: Template error: round got invalid input '" + py_str(v) + "'");
    const int digits = a.empty() ? 0 : std::clamp(saturate_cast<int>(a[0].to_number<double>()), -308, 400);
    // More digits than a double holds: Python's round() returns the value as it is.
    if (digits > 15) return *n;
    double p = std::pow(10.0, digits);
    return std::round(*n * p) / p;
  }
  if (f == "lower" || f == "upper" || f == "title" || f == "trim" || f == "string") {
    std::string s = py_str(v);
    if (f == "lower") std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    if (f == "upper") std::transform(s.begin(), s.end(), s.begin(), ::toupper);
    if (f == "title") {
      bool start = true;
      for (auto& c : s) {
        c = start ? static_cast<char>(std::toupper(c)) : static_cast<char>(std::tolower(c));
        start = !std::isalnum(static_cast<unsigned char>(c));
      }
    }
    if (f == "trim") {
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
      s.erase(0, s.find_first_not_of(" \t\n"));
    }
    return json::value(s);
  }
  if (f == "length" || f == "count") {
    if (v.is_array()) return static_cast<int64_t>(v.get_array().size());
    if (v.is_string()) return static_cast<int64_t>(v.get_string().size());
    if (v.is_object()) return static_cast<int64_t>(v.get_object().size());
    fail("TypeError: object of type '" + type_name(v) + "' has no len()");
  }
  if (f == "default" || f == "d") return v.is_null() ? (a.empty() ? json::value("") : a[0]) : v;
  if (f == "abs") {
    auto n = as_num(v);
    if (!n) fail("TypeError: bad operand type for abs()");
    return v.is_double() ? json::value(std::fabs(*n)) : json::value(saturate_cast<int64_t>(std::fabs(*n)));
  }
  if (f == "join") {
    if (!v.is_array()) return json::value(py_str(v));
    std::string sep = str_arg(a, 0), s;
    bool first = true;
    for (const auto& x : v.get_array()) {
      if (!first) s += sep;
      first = false;
      s += py_str(x);
    }
    return json::value(s);
  }
  if (f == "list") {
    if (v.is_array()) return v;
    json::array out;
    if (v.is_string())
      for (char c : std::string(v.get_string())) out.emplace_back(std::string(1, c));
    return out;
  }
  fail("TemplateAssertionError: No filter named '" + f + "'.");
}

std::string Parser::entity_arg(const json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_object() && v.get_object().contains("entity_id"))
    return std::string(v.get_object().at("entity_id").get_string());
  return py_str(v);
}

const Area* Parser::area_of(const std::string& ref) {
  const Home& h = store_.home();
  for (const auto& a : h.areas)
    if (a.area_id == ref || a.name == ref) return &a;
  for (const auto& e : h.entities)
    if (e.entity_id == ref) {
      std::optional<std::string> area = e.area_id;
      if (!area && e.device_id)
        for (const auto& d : h.devices)
          if (d.id == *e.device_id) area = d.area_id;
      if (area)
        for (const auto& a : h.areas)
          if (a.area_id == *area) return &a;
    }
  for (const auto& d : h.devices)
    if (d.id == ref && d.area_id)
      for (const auto& a : h.areas)
        if (a.area_id == *d.area_id) return &a;
  return nullptr;
}

void Parser::need_args(const std::string& f, const std::vector<json::value>& a, std::size_t n) {
  if (a.size() < n)
    fail("TypeError: " + f + "() missing " + std::to_string(n - a.size()) + " required positional argument");
}

// states(), state_attr(), is_state(), is_state_attr(), has_value(); nothing for other names.
std::optional<json::value> Parser::state_function(const std::string& f, const std::vector<json::value>& a) {
  if (f == "states") {
    need_args(f, a, 1);
    std::string id = entity_arg(a[0]);
    info_.entities.push_back(id);
    StatePtr s = store_.get(id);
    return s ? json::value(s->state) : json::value("unknown");
  }
  if (f == "state_attr") {
    need_args(f, a, 2);
    std::string id = entity_arg(a[0]);
    info_.entities.push_back(id);
    StatePtr s = store_.get(id);
    if (!s) return nullptr;
    const auto* v = s->attributes.if_contains(str_arg(a, 1));
    return v ? *v : json::value(nullptr);
  }
  if (f == "is_state") {
    need_args(f, a, 2);
    std::string id = entity_arg(a[0]);
    info_.entities.push_back(id);
    StatePtr s = store_.get(id);
    if (!s) return false;
    if (a[1].is_array()) {
      for (const auto& x : a[1].get_array())
        if (x.is_string() && x.get_string() == s->state) return true;
      return false;
    }
    return s->state == str_arg(a, 1);
  }
  if (f == "is_state_attr") {
    need_args(f, a, 3);
    std::string id = entity_arg(a[0]);
    info_.entities.push_back(id);
    StatePtr s = store_.get(id);
    if (!s) return false;
    const auto* v = s->attributes.if_contains(str_arg(a, 1));
    return v && *v == a[2];
  }
  if (f == "has_value") {
    need_args(f, a, 1);
    std::string id = entity_arg(a[0]);
    info_.entities.push_back(id);
    StatePtr s = store_.get(id);
    return s && s->state != "unknown" && s->state != "unavailable";
  }
  return std::nullopt;
}

// area_*, floor_*, label_entities(), device_id(); nothing for other names.
std::optional<json::value> Parser::registry_function(const std::string& f, const std::vector<json::value>& a) {
  if (f == "area_name" || f == "area_id") {
    need_args(f, a, 1);
    const Area* ar = area_of(str_arg(a, 0));
    if (!ar) return nullptr;
    return f == "area_name" ? json::value(ar->name) : json::value(ar->area_id);
  }
  if (f == "floor_name" || f == "floor_id") {
    need_args(f, a, 1);
    std::string ref = str_arg(a, 0);
    std::optional<std::string> floor;
    for (const auto& fl : store_.home().floors)
      if (fl.floor_id == ref || fl.name == ref) floor = fl.floor_id;
    if (!floor)
      if (const Area* ar = area_of(ref)) floor = ar->floor_id;
    if (!floor) return nullptr;
    for (const auto& fl : store_.home().floors)
      if (fl.floor_id == *floor) return f == "floor_name" ? json::value(fl.name) : json::value(fl.floor_id);
    return nullptr;
  }
  if (f == "area_entities" || f == "label_entities") {
    need_args(f, a, 1);
    std::string ref = str_arg(a, 0);
    json::array out;
    const Home& h = store_.home();
    if (f == "label_entities") {
      for (const auto& e : h.entities)
        if (std::find(e.labels.begin(), e.labels.end(), ref) != e.labels.end()) out.emplace_back(e.entity_id);
      return out;
    }
    const Area* ar = area_of(ref);
    if (!ar) return out;
    std::set<std::string> devs;
    for (const auto& d : h.devices)
      if (d.area_id == ar->area_id) devs.insert(d.id);
    for (const auto& e : h.entities)
      if (e.area_id ? *e.area_id == ar->area_id : (e.device_id && devs.count(*e.device_id)))
        out.emplace_back(e.entity_id);
    return out;
  }
  if (f == "device_id") {
    need_args(f, a, 1);
    std::string id = str_arg(a, 0);
    for (const auto& e : store_.home().entities)
      if (e.entity_id == id) return e.device_id ? json::value(*e.device_id) : json::value(nullptr);
    return nullptr;
  }
  return std::nullopt;
}

json::value Parser::call(const std::string& f) {
  auto a = args();
  if (auto v = state_function(f, a)) return *v;
  if (auto v = registry_function(f, a)) return *v;
  if (f == "now" || f == "utcnow") {
    info_.time = true;
    return json::value(iso_time(now_timestamp()));
  }
  if (f == "as_timestamp") {
    need_args(f, a, 1);
    if (a[0].is_number()) return a[0];
    auto t = parse_iso_time(str_arg(a, 0));
    if (!t) {
      if (a.size() > 1) return a[1];
      fail("ValueError: Template error: as_timestamp got invalid input '" + py_str(a[0]) +
           "' when rendering template, but no default was specified");
    }
    return *t;
  }
  if (f == "float" || f == "int") {
    need_args(f, a, 1);
    std::vector<json::value> rest(a.begin() + 1, a.end());
    json::value x = to_float(a[0], rest, f.c_str());
    if (f == "int" && x.is_number()) return saturate_cast<int64_t>(x.to_number<double>());
    return x;
  }
  fail("UndefinedError: '" + f + "' is undefined");
}

}  // namespace hamcp::sim::tmpl
