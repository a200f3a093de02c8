#include "sim/core/template.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "common/saturate_cast.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim {
namespace {

// Marker values for the `states` namespace: states / states.light
const char* kStatesKey = "\x01states";

std::string py_str(const json::value& v);

std::string py_repr(const json::value& v) {
  if (v.is_string()) return "'" + std::string(v.get_string()) + "'";
  return py_str(v);
}

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

struct Token {
  enum Kind { Name, Number, String, Op, End } kind;
  std::string text;
  double number = 0;
  bool integer = false;
};

class Parser {
 public:
  Parser(StateStore& store, const std::string& src, const json::object& vars, TemplateResult& info)
      : store_(store), src_(src), vars_(vars), info_(info) {
    lex();
  }

  json::value parse_all() {
    json::value v = expr();
    if (peek().kind != Token::End) fail("TemplateSyntaxError: unexpected '" + peek().text + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& m) { throw TemplateError(m); }

  void lex() {
    std::size_t i = 0;
    while (i < src_.size()) {
      char c = src_[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        std::size_t j = i;
        while (j < src_.size() && (std::isdigit(static_cast<unsigned char>(src_[j])) || src_[j] == '.')) ++j;
        Token t{Token::Number, src_.substr(i, j - i)};
        t.number = std::stod(t.text);
        t.integer = t.text.find('.') == std::string::npos;
        toks_.push_back(t);
        i = j;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[j])) || src_[j] == '_')) ++j;
        toks_.push_back({Token::Name, src_.substr(i, j - i)});
        i = j;
      } else if (c == '\'' || c == '"') {
        std::size_t j = i + 1;
        std::string s;
        while (j < src_.size() && src_[j] != c) {
          if (src_[j] == '\\' && j + 1 < src_.size()) ++j;
          s += src_[j++];
        }
        if (j >= src_.size()) fail("TemplateSyntaxError: unexpected end of template, expected end of string");
        toks_.push_back({Token::String, s});
        i = j + 1;
      } else {
        static const char* two[] = {"==", "!=", "<=", ">=", "//"};
        std::string op(1, c);
        for (const char* t : two)
          if (src_.compare(i, 2, t) == 0) op = t;
        if (std::string("()[],.|+-*/<>%~").find(c) == std::string::npos && op.size() == 1)
          fail(std::string("TemplateSyntaxError: unexpected char '") + c + "'");
        toks_.push_back({Token::Op, op});
        i += op.size();
      }
    }
    toks_.push_back({Token::End, "end of template"});
  }

  const Token& peek() const { return toks_[pos_]; }
  bool accept_op(const char* op) {
    if (peek().kind == Token::Op && peek().text == op) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool accept_name(const char* n) {
    if (peek().kind == Token::Name && peek().text == n) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect_op(const char* op) {
    if (!accept_op(op)) fail(std::string("TemplateSyntaxError: expected '") + op + "', got '" + peek().text + "'");
  }

  static std::optional<double> as_num(const json::value& v) {
    if (v.is_number()) return v.to_number<double>();
    if (v.is_string()) return numeric_state(v.get_string());
    if (v.is_bool()) return v.get_bool() ? 1.0 : 0.0;
    return std::nullopt;
  }
  static json::value make_num(double d, bool integer) {
    if (integer) return saturate_cast<int64_t>(d);
    return d;
  }

  json::value expr() { return or_expr(); }
  json::value or_expr() {
    json::value v = and_expr();
    while (accept_name("or")) {
      json::value r = and_expr();
      if (!truthy(v)) v = r;
    }
    return v;
  }
  json::value and_expr() {
    json::value v = not_expr();
    while (accept_name("and")) {
      json::value r = not_expr();
      if (truthy(v)) v = r;
    }
    return v;
  }
  json::value not_expr() {
    if (accept_name("not")) return !truthy(not_expr());
    return cmp();
  }
  json::value cmp() {
    json::value l = add();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (accept_op(op)) {
        json::value r = add();
        std::string o = op;
        if (o == "==" || o == "!=") {
          bool eq;
          auto a = as_num(l), b = as_num(r);
          if (l.is_number() && r.is_number())
            eq = *a == *b;
          else
            eq = l == r;
          return o == "==" ? eq : !eq;
        }
        auto a = as_num(l), b = as_num(r);
        if (l.is_string() && r.is_string()) {
          int c = std::string(l.get_string()).compare(std::string(r.get_string()));
          return o == "<" ? c < 0 : o == ">" ? c > 0 : o == "<=" ? c <= 0 : c >= 0;
        }
        if (!a || !b || l.is_string() || r.is_string())
          fail("TypeError: '" + o + "' not supported between instances of these types");
        return o == "<" ? *a < *b : o == ">" ? *a > *b : o == "<=" ? *a <= *b : *a >= *b;
      }
    }
    if (accept_name("in")) {
      json::value r = add();
      if (r.is_array()) return std::find(r.get_array().begin(), r.get_array().end(), l) != r.get_array().end();
      if (r.is_string() && l.is_string())
        return std::string(r.get_string()).find(std::string(l.get_string())) != std::string::npos;
      fail("TypeError: argument of type is not iterable");
    }
    return l;
  }
  json::value add() {
    json::value l = mul();
    for (;;) {
      if (accept_op("+")) {
        json::value r = mul();
        if (l.is_string() && r.is_string())
          l = std::string(l.get_string()) + std::string(r.get_string());
        else if (l.is_array() && r.is_array()) {
          json::array a = l.get_array();
          for (auto& x : r.get_array()) a.push_back(x);
          l = a;
        } else
          l = arith(l, r, '+');
      } else if (accept_op("-")) {
        l = arith(l, mul(), '-');
      } else if (accept_op("~")) {
        l = py_str(l) + py_str(mul());
      } else {
        return l;
      }
    }
  }
  json::value mul() {
    json::value l = unary();
    for (;;) {
      if (accept_op("*"))
        l = arith(l, unary(), '*');
      else if (accept_op("//"))
        l = arith(l, unary(), 'd');
      else if (accept_op("/"))
        l = arith(l, unary(), '/');
      else if (accept_op("%"))
        l = arith(l, unary(), '%');
      else
        return l;
    }
  }
  json::value arith(const json::value& l, const json::value& r, char op) {
    if (!l.is_number() || !r.is_number())
      fail(std::string("TypeError: unsupported operand type(s) for ") + op + ": '" + type_name(l) + "' and '" +
           type_name(r) + "'");
    double a = l.to_number<double>(), b = r.to_number<double>();
    bool ints = !l.is_double() && !r.is_double();
    switch (op) {
      case '+':
        return make_num(a + b, ints);
      case '-':
        return make_num(a - b, ints);
      case '*':
        return make_num(a * b, ints);
      case '/':
        if (b == 0) fail("ZeroDivisionError: division by zero");
        return a / b;
      case 'd':
        if (b == 0) fail("ZeroDivisionError: integer division or modulo by zero");
        return make_num(std::floor(a / b), ints);
      case '%':
        if (b == 0) fail("ZeroDivisionError: integer division or modulo by zero");
        return make_num(std::fmod(a, b), ints);
    }
    return nullptr;
  }
  static std::string type_name(const json::value& v) {
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
  json::value unary() {
    if (accept_op("-")) {
      json::value v = unary();
      if (!v.is_number()) fail("TypeError: bad operand type for unary -: '" + type_name(v) + "'");
      return v.is_double() ? json::value(-v.get_double()) : json::value(-v.to_number<int64_t>());
    }
    return postfix();
  }

  json::value state_object(const std::string& entity_id) {
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

  json::value member(const json::value& v, const std::string& name) {
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

  json::value postfix() {
    json::value v = primary();
    for (;;) {
      if (accept_op(".")) {
        if (peek().kind != Token::Name) fail("TemplateSyntaxError: expected name after '.'");
        std::string name = toks_[pos_++].text;
        v = member(v, name);
      } else if (accept_op("[")) {
        json::value key = expr();
        expect_op("]");
        if (v.is_array() && key.is_number()) {
          auto idx = key.to_number<int64_t>();
          const auto& a = v.get_array();
          if (idx < 0) idx += static_cast<int64_t>(a.size());
          if (idx < 0 || idx >= static_cast<int64_t>(a.size()))
            fail("UndefinedError: list object has no element " + py_str(key));
          v = a[static_cast<std::size_t>(idx)];
        } else if (key.is_string()) {
          v = member(v, std::string(key.get_string()));
        } else {
          fail("TypeError: invalid index");
        }
      } else if (accept_op("|")) {
        v = filter(v);
      } else {
        return v;
      }
    }
  }

  std::vector<json::value> args() {
    std::vector<json::value> out;
    expect_op("(");
    if (accept_op(")")) return out;
    for (;;) {
      out.push_back(expr());
      if (accept_op(")")) return out;
      expect_op(",");
    }
  }

  static std::string str_arg(const std::vector<json::value>& a, std::size_t i) {
    if (i < a.size() && a[i].is_string()) return std::string(a[i].get_string());
    return i < a.size() ? py_str(a[i]) : std::string();
  }

  json::value to_float(const json::value& v, const std::vector<json::value>& a, const char* what) {
    auto n = as_num(v);
    if (!n || v.is_null()) {
      if (!a.empty()) return a[0];
      fail(std::string("ValueError: Template error: ") + what + " got invalid input '" + py_str(v) +
           "' when rendering template, but no default was specified");
    }
    return *n;
  }

  json::value filter(const json::value& v) {
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

  std::string entity_arg(const json::value& v) {
    if (v.is_string()) return std::string(v.get_string());
    if (v.is_object() && v.get_object().contains("entity_id"))
      return std::string(v.get_object().at("entity_id").get_string());
    return py_str(v);
  }

  const Area* area_of(const std::string& ref) {
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

  void need_args(const std::string& f, const std::vector<json::value>& a, std::size_t n) {
    if (a.size() < n)
      fail("TypeError: " + f + "() missing " + std::to_string(n - a.size()) + " required positional argument");
  }

  // states(), state_attr(), is_state(), is_state_attr(), has_value(); nothing for other names.
  std::optional<json::value> state_function(const std::string& f, const std::vector<json::value>& a) {
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
  std::optional<json::value> registry_function(const std::string& f, const std::vector<json::value>& a) {
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

  json::value call(const std::string& f) {
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

  json::value primary() {
    const Token t = peek();
    if (t.kind == Token::Number) {
      ++pos_;
      return t.integer ? json::value(saturate_cast<int64_t>(t.number)) : json::value(t.number);
    }
    if (t.kind == Token::String) {
      ++pos_;
      return json::value(t.text);
    }
    if (t.kind == Token::Op && t.text == "(") {
      ++pos_;
      json::value v = expr();
      expect_op(")");
      return v;
    }
    if (t.kind == Token::Op && t.text == "[") {
      ++pos_;
      json::array a;
      if (accept_op("]")) return a;
      for (;;) {
        a.push_back(expr());
        if (accept_op("]")) return a;
        expect_op(",");
      }
    }
    if (t.kind == Token::Name) {
      ++pos_;
      const std::string& n = t.text;
      if (n == "true" || n == "True") return true;
      if (n == "false" || n == "False") return false;
      if (n == "none" || n == "None") return nullptr;
      if (peek().kind == Token::Op && peek().text == "(") return call(n);
      if (n == "states") {
        return json::object{{kStatesKey, nullptr}};
      }
      if (const auto* v = vars_.if_contains(n)) return *v;
      fail("UndefinedError: '" + n + "' is undefined");
    }
    fail("TemplateSyntaxError: unexpected '" + t.text + "'");
  }

  StateStore& store_;
  std::string src_;
  const json::object& vars_;
  TemplateResult& info_;
  std::vector<Token> toks_;
  std::size_t pos_ = 0;
};

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
      Parser p(store, source.substr(open + 2, end - open - 2), variables, r);
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
