#include "tools/gate/template_guard.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "tools/gate/jinja_lexer.hpp"
#include "tools/gate/jinja_scope.hpp"

namespace hamcp::tools {

namespace {

using jinja::Token;
using jinja::TokenKind;

// Home Assistant's template functions (helpers/template and its extensions,
// 2026.2) whose first argument names an entity (or an entity, device or area
// by a lookup value): allowed with a literal first argument only, as a call
// (states('light.x')), a filter ('light.x' | states) or a test
// ('light.x' is is_state('on')).
constexpr std::array<std::string_view, 17> kByEntityId = {
    "states",           "is_state",  "state_attr",  "is_state_attr", "has_value",      "state_translated",
    "is_hidden_entity", "device_id", "device_name", "device_attr",   "is_device_attr", "area_id",
    "area_name",        "floor_id",  "floor_name",  "labels",        "config_entry_id"};

// Functions that list or reach entities other than by one literal id: refused
// in every form (call, filter, bare name).
constexpr std::array<std::string_view, 8> kWalkers = {"expand",         "area_entities",  "device_entities",
                                                      "label_entities", "floor_entities", "integration_entities",
                                                      "closest",        "distance"};

// Jinja's filters that apply another filter or test named by a string argument
// (map('states'), select('is_state', 'on'), selectattr('entity_id',
// 'is_state', 'on')), with that argument's place among the positional ones:
// the name must be a literal naming none of the functions above.
struct ByName {
  std::string_view filter;
  std::size_t arg;
};
constexpr std::array<ByName, 5> kByName = {
    {{"map", 0}, {"select", 0}, {"reject", 0}, {"selectattr", 1}, {"rejectattr", 1}}};

// Statements that pull in a template text the guard cannot see (custom_templates macros).
constexpr std::array<std::string_view, 4> kLoaders = {"include", "import", "from", "extends"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view word) {
  return std::find(names.begin(), names.end(), word) != names.end();
}

bool is_op(const Token* t, std::string_view op) { return t && t->kind == TokenKind::op && t->text == op; }
bool opens(const Token& t) { return is_op(&t, "(") || is_op(&t, "[") || is_op(&t, "{"); }
bool closes(const Token& t) { return is_op(&t, ")") || is_op(&t, "]") || is_op(&t, "}"); }
bool is_name(const Token* t, std::string_view name) { return t && t->kind == TokenKind::name && t->text == name; }

// A literal that can only name what it says: no escapes (Jinja would decode
// them), and either an entity id in HA's form (lowercase: HA lowercases ids on
// lookup, the visibility check compares them as written) or no '.' at all (an
// area, device or label name, which no entity id is).
bool plain_literal(const Token* t) {
  if (!t || t->kind != TokenKind::string) return false;
  const std::string_view s = t->text;
  if (s.find('\\') != std::string_view::npos) return false;
  const std::size_t dot = s.find('.');
  if (dot == std::string_view::npos) return true;
  if (dot == 0 || dot + 1 == s.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (i != dot && !(std::islower(c) || std::isdigit(c) || c == '_')) return false;
  }
  return !std::isdigit(static_cast<unsigned char>(s[0]));
}

bool lowercase_name(const Token* t) {
  return t && t->kind == TokenKind::name && std::none_of(t->text.begin(), t->text.end(), [](char c) {
           return std::isupper(static_cast<unsigned char>(c)) != 0;
         });
}

class Guard {
 public:
  explicit Guard(const std::vector<Token>& tokens) : t_(tokens), owner_(jinja::owners(tokens)) {}

  // Index of the first token reaching entities other than by a literal id; npos when none.
  std::size_t first_refused() const {
    for (std::size_t i = 0; i < t_.size(); ++i)
      if (refused(i)) return i;
    return std::string_view::npos;
  }

  // The scoping construct that left a name HA's at token i; empty when none.
  std::string why(std::size_t i) const {
    std::string name = "`";
    name.append(t_[i].text).push_back('`');
    std::string out = name;
    if (applies_by_name(i))
      return out.append(
          " applies a filter or test named by its argument: name it with a plain string, and not one that reads "
          "entities (states, is_state, state_attr, expand, area_entities...)");
    switch (owner_[i]) {
      case jinja::Owner::partial_if:
        return out.append(
            " may be Home Assistant's here: the template sets it in only some branches of an {% if %} before, and "
            "without that branch it keeps its outer value. Set it in every branch, an {% else %} included, or before "
            "the {% if %}");
      case jinja::Owner::macro_outer:
        return out.append(
            " may be Home Assistant's in this macro or call body: it is defined inside a {% for %}, {% filter %} or "
            "{% set %} block, where Jinja may give the outer variable another value when it is called. Define it at "
            "template level after the set, or pass the value as a parameter");
      case jinja::Owner::block_outer:
        return out.append(
            " may be Home Assistant's in this {% block %}: a block sees only its own variables and those set at "
            "template level before it (none when the template uses `self`, which can render it anywhere). Set it "
            "in the block, or at template level before it");
      case jinja::Owner::elsewhere:
        return out.append(" is Home Assistant's here: the template's own ")
            .append(name)
            .append(
                " is set only later, or in a block or {% if %} branch that has ended (for, with and macro bodies "
                "keep their sets)");
      default:
        return {};
    }
  }

 private:
  const Token* tok(std::size_t i) const { return i < t_.size() ? &t_[i] : nullptr; }
  const Token* before(std::size_t i, std::size_t back = 1) const { return i >= back ? &t_[i - back] : nullptr; }

  bool refused(std::size_t i) const {
    const Token& t = t_[i];
    if (t.kind != TokenKind::name) return false;
    if (is_op(before(i), ".")) return false;            // an attribute (trigger.to_state.states), not HA's global
    if (owner_[i] == jinja::Owner::user) return false;  // the template's own variable ({% set states = 3 %})
    if (before(i) && before(i)->kind == TokenKind::block_start && one_of(kLoaders, t.text)) return true;
    if (one_of(kWalkers, t.text)) return true;
    if (const ByName* by_name = applies_by_name(i)) return !harmless_name_argument(i, by_name->arg);
    if (t.text == "states" && literal_states_attribute(i)) return false;
    if (!one_of(kByEntityId, t.text)) return false;
    if (applied_to_left_operand(i)) return !left_operand_is_literal(i);
    return !literal_call(i);
  }

  // states.light.kitchen: one literal entity (states.light alone lists a domain).
  // Written without spaces and in lowercase (HA lowercases the id on lookup), so
  // the visibility check finds "light.kitchen" in the text.
  bool literal_states_attribute(std::size_t i) const {
    const Token* domain = tok(i + 2);
    const Token* object = tok(i + 4);
    if (!(is_op(tok(i + 1), ".") && lowercase_name(domain) && is_op(tok(i + 3), ".") && lowercase_name(object) &&
          !is_op(tok(i + 5), "[")))
      return false;
    return object->at + object->text.size() - t_[i].at == 6 + 1 + domain->text.size() + 1 + object->text.size();
  }

  // map, select, reject, selectattr or rejectattr applied as a filter (x | map(...), {% filter map(...) %}).
  const ByName* applies_by_name(std::size_t i) const {
    const bool filter = is_op(before(i), "|") ||
                        (is_name(before(i), "filter") && before(i, 2) && before(i, 2)->kind == TokenKind::block_start);
    if (!filter) return nullptr;
    const auto* found =
        std::find_if(kByName.begin(), kByName.end(), [&](const ByName& b) { return b.filter == t_[i].text; });
    return found == kByName.end() ? nullptr : found;
  }

  // The positional argument `arg` of the filter at i, if there is one, is one
  // plain string literal naming neither an entity reader nor a walker. None
  // (select, map(attribute='x')) is harmless too.
  bool harmless_name_argument(std::size_t i, std::size_t arg) const {
    if (!is_op(tok(i + 1), "(")) return true;
    std::size_t k = i + 2;
    for (std::size_t n = 0; n < arg; ++n) {  // skip to the start of positional argument `arg`
      for (int depth = 0; k < t_.size() && !(depth == 0 && (is_op(&t_[k], ",") || is_op(&t_[k], ")"))); ++k) {
        if (opens(t_[k])) ++depth;
        if (closes(t_[k])) --depth;
      }
      if (!is_op(tok(k), ",")) return true;  // fewer arguments
      ++k;
    }
    const Token* name = tok(k);
    if (!name || is_op(name, ")")) return true;
    if (name->kind == TokenKind::name && is_op(tok(k + 1), "=")) return true;  // keywords only from here
    if (name->kind != TokenKind::string || name->text.find('\\') != std::string_view::npos) return false;
    if (!(is_op(tok(k + 1), ",") || is_op(tok(k + 1), ")"))) return false;  // 'sta' 'tes' is one string
    return !one_of(kByEntityId, name->text) && !one_of(kWalkers, name->text);
  }

  // `x | name` (a filter) or `x is [not] name` (a test): x is the first argument.
  bool applied_to_left_operand(std::size_t i) const {
    if (is_op(before(i), "|")) return true;
    if (is_name(before(i), "is")) return true;
    return is_name(before(i), "not") && is_name(before(i, 2), "is");
  }

  // The filter's or test's left operand is one literal: the token before | or
  // is, itself not glued to a previous literal ('light.' 'x' is one string in Jinja).
  bool left_operand_is_literal(std::size_t i) const {
    std::size_t back = is_name(before(i), "not") ? 2 : 1;
    const Token* operand = before(i, back + 1);
    const Token* glued = before(i, back + 2);
    return plain_literal(operand) && !(glued && glued->kind == TokenKind::string);
  }

  // name('literal', ...) or name(): a call whose first argument is one plain literal.
  bool literal_call(std::size_t i) const {
    if (!is_op(tok(i + 1), "(")) return false;  // a bare name: an alias could call it with anything
    if (is_op(tok(i + 2), ")")) return true;
    return plain_literal(tok(i + 2)) && (is_op(tok(i + 3), ",") || is_op(tok(i + 3), ")"));
  }

  const std::vector<Token>& t_;
  const std::vector<jinja::Owner> owner_;  // jinja_scope.hpp
};

std::string snippet(std::string_view text, std::size_t at) {
  return std::string(text.substr(at, std::min<std::size_t>(40, text.size() - at)));
}

}  // namespace

std::optional<TemplateRefusal> unnamed_entity_access(std::string_view text) {
  const jinja::Lexed lexed = jinja::lex(text);
  const Guard guard(lexed.tokens);
  const std::size_t refused = guard.first_refused();
  std::size_t at = refused == std::string_view::npos ? std::string_view::npos : lexed.tokens[refused].at;
  if (lexed.broken_at < at) return TemplateRefusal{snippet(text, lexed.broken_at), {}};  // not read past
  if (at == std::string_view::npos) return std::nullopt;
  return TemplateRefusal{snippet(text, at), guard.why(refused)};
}

}  // namespace hamcp::tools
