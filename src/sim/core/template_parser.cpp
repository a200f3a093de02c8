// Tokens, operators and literals of a template expression (see template_parser.hpp).
#include "sim/core/template_parser.hpp"

#include <cmath>
#include <string>

#include "common/saturate_cast.hpp"

namespace hamcp::sim::tmpl {

json::value Parser::parse_all() {
  json::value v = expr();
  if (peek().kind != Token::End) fail("TemplateSyntaxError: unexpected '" + peek().text + "'");
  return v;
}

void Parser::lex() {
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

bool Parser::accept_op(const char* op) {
  if (peek().kind == Token::Op && peek().text == op) {
    ++pos_;
    return true;
  }
  return false;
}

bool Parser::accept_name(const char* n) {
  if (peek().kind == Token::Name && peek().text == n) {
    ++pos_;
    return true;
  }
  return false;
}

void Parser::expect_op(const char* op) {
  if (!accept_op(op)) fail(std::string("TemplateSyntaxError: expected '") + op + "', got '" + peek().text + "'");
}

std::optional<double> Parser::as_num(const json::value& v) {
  if (v.is_number()) return v.to_number<double>();
  if (v.is_string()) return numeric_state(v.get_string());
  if (v.is_bool()) return v.get_bool() ? 1.0 : 0.0;
  return std::nullopt;
}

json::value Parser::make_num(double d, bool integer) {
  if (integer) return saturate_cast<int64_t>(d);
  return d;
}

json::value Parser::or_expr() {
  json::value v = and_expr();
  while (accept_name("or")) {
    json::value r = and_expr();
    if (!truthy(v)) v = r;
  }
  return v;
}

json::value Parser::and_expr() {
  json::value v = not_expr();
  while (accept_name("and")) {
    json::value r = not_expr();
    if (truthy(v)) v = r;
  }
  return v;
}

json::value Parser::not_expr() {
  if (accept_name("not")) return !truthy(not_expr());
  return cmp();
}

json::value Parser::cmp() {
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

json::value Parser::add() {
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

json::value Parser::mul() {
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

json::value Parser::arith(const json::value& l, const json::value& r, char op) {
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

json::value Parser::unary() {
  if (accept_op("-")) {
    json::value v = unary();
    if (!v.is_number()) fail("TypeError: bad operand type for unary -: '" + type_name(v) + "'");
    return v.is_double() ? json::value(-v.get_double()) : json::value(-v.to_number<int64_t>());
  }
  return postfix();
}

json::value Parser::postfix() {
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

std::vector<json::value> Parser::args() {
  std::vector<json::value> out;
  expect_op("(");
  if (accept_op(")")) return out;
  for (;;) {
    out.push_back(expr());
    if (accept_op(")")) return out;
    expect_op(",");
  }
}

json::value Parser::primary() {
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

}  // namespace hamcp::sim::tmpl
