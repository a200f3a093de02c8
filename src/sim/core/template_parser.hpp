#pragma once
// The expression evaluator behind render_template (template.hpp): a lexer and
// a recursive-descent parser that evaluates while it parses. Its parts:
// template_parser.cpp (tokens, operators, literals), template_functions.cpp
// (HA's functions, filters and state objects), template.cpp (Python-style
// printing of values and the {{ … }} scanner). Internal to the simulator.

#include <optional>
#include <string>
#include <vector>

#include "sim/core/template.hpp"

namespace hamcp::sim::tmpl {

// The `states` namespace as a value: an object holding only this key.
extern const char* const kStatesKey;

std::string py_str(const json::value& v);
std::string py_repr(const json::value& v);
bool truthy(const json::value& v);

struct Token {
  enum Kind { Name, Number, String, Op, End } kind;
  std::string text;
  double number = 0;
  bool integer = false;
};

// One {{ … }} expression; parse_all() evaluates it against the store.
class Parser {
 public:
  Parser(StateStore& store, const std::string& src, const json::object& vars, TemplateResult& info)
      : store_(store), src_(src), vars_(vars), info_(info) {
    lex();
  }

  json::value parse_all();

 private:
  [[noreturn]] void fail(const std::string& m) { throw TemplateError(m); }

  void lex();
  const Token& peek() const { return toks_[pos_]; }
  bool accept_op(const char* op);
  bool accept_name(const char* n);
  void expect_op(const char* op);
  static std::optional<double> as_num(const json::value& v);
  static json::value make_num(double d, bool integer);
  json::value expr() { return or_expr(); }
  json::value or_expr();
  json::value and_expr();
  json::value not_expr();
  json::value cmp();
  json::value add();
  json::value mul();
  json::value arith(const json::value& l, const json::value& r, char op);
  static std::string type_name(const json::value& v);
  json::value unary();
  json::value state_object(const std::string& entity_id);
  json::value member(const json::value& v, const std::string& name);
  json::value postfix();
  std::vector<json::value> args();
  static std::string str_arg(const std::vector<json::value>& a, std::size_t i);
  json::value to_float(const json::value& v, const std::vector<json::value>& a, const char* what);
  json::value filter(const json::value& v);
  std::string entity_arg(const json::value& v);
  const Area* area_of(const std::string& ref);
  void need_args(const std::string& f, const std::vector<json::value>& a, std::size_t n);

  // states(), state_attr(), is_state(), is_state_attr(), has_value(); nothing for other names.
  std::optional<json::value> state_function(const std::string& f, const std::vector<json::value>& a);

  // area_*, floor_*, label_entities(), device_id(); nothing for other names.
  std::optional<json::value> registry_function(const std::string& f, const std::vector<json::value>& a);
  json::value call(const std::string& f);
  json::value primary();
  StateStore& store_;
  std::string src_;
  const json::object& vars_;
  TemplateResult& info_;
  std::vector<Token> toks_;
  std::size_t pos_ = 0;
};

}  // namespace hamcp::sim::tmpl
