#include "tools/gate/jinja_scope.hpp"

#include <string_view>
#include <unordered_set>
#include <utility>

namespace hamcp::tools::jinja {

namespace {

bool is_op(const Token& t, std::string_view op) { return t.kind == TokenKind::op && t.text == op; }
bool is_name(const Token& t, std::string_view name) { return t.kind == TokenKind::name && t.text == name; }
bool opens(const Token& t) { return is_op(t, "(") || is_op(t, "[") || is_op(t, "{"); }
bool closes(const Token& t) { return is_op(t, ")") || is_op(t, "]") || is_op(t, "}"); }

// Sets of names: a template with thousands of sets stays linear.
using Names = std::vector<std::string_view>;
using NameSet = std::unordered_set<std::string_view>;
bool contains(const NameSet& names, std::string_view name) { return names.count(name) > 0; }

struct Block {
  Block() = default;
  explicit Block(std::string_view kind_, bool inherits_ = true, const Names& names_ = {}, Names on_close_ = {})
      : kind(kind_), inherits(inherits_), names(names_.begin(), names_.end()), on_close(std::move(on_close_)) {}

  std::string_view kind;        // "for", "if", "macro"... ("": the template)
  bool inherits = true;         // sees the enclosing blocks' user names
  bool reads_template = false;  // a {% block %}: sees the template level's names instead (template_level)
  NameSet names;                // user names stored in it so far (in an if: in the current branch)
  Names on_close;               // stored in the enclosing block at its end
  NameSet maybe;                // stored in some branches only of an if that ended in it
  // An if's finished branches: the names each of them stored, those some stored.
  NameSet every;
  NameSet some;
  bool branched = false;  // an elif or else was seen
  bool has_else = false;
};

class Scopes {
 public:
  explicit Scopes(const std::vector<Token>& tokens) : t_(tokens), user_(tokens.size(), Owner::ha) {
    for (std::size_t k = 0; k < t_.size() && !self_; ++k)
      self_ = is_name(t_[k], "self") && !(k > 0 && is_op(t_[k - 1], "."));
  }

  std::vector<Owner> run() {
    for (std::size_t i = 0; i < t_.size();) {
      const bool statement = t_[i].kind == TokenKind::block_start;
      const std::size_t begin = statement ? i + 1 : i;
      std::size_t end = begin;
      while (end < t_.size() && t_[end].kind != TokenKind::end) ++end;
      if (statement && begin < end && t_[begin].kind == TokenKind::name)
        this->statement(begin, end);
      else
        loads(begin, end, true);
      i = end + 1;
    }
    for (std::size_t k = 0; k < t_.size(); ++k)  // "set later or elsewhere" of a name never set: HA's
      if (user_[k] == Owner::elsewhere && !contains(stored_, t_[k].text)) user_[k] = Owner::ha;
    return std::move(user_);
  }

 private:
  bool visible(std::string_view name) const {
    for (auto block = stack_.rbegin(); block != stack_.rend(); ++block) {
      if (contains(block->names, name)) return true;
      if (block->reads_template) return template_level(name, &Block::names);
      if (!block->inherits) return false;
    }
    return false;
  }

  // A {% block %} renders with the template's context: the names stored at
  // template level so far (a template-level if is no frame of its own), or
  // some only when `which` is Block::maybe.
  bool template_level(std::string_view name, NameSet Block::*which) const {
    for (std::size_t j = 0; j < stack_.size() && (j == 0 || stack_[j].kind == "if"); ++j)
      if (contains(stack_[j].*which, name)) return true;
    return false;
  }

  // Why a load of `name` is not the user's here (elsewhere: maybe nowhere, see run()).
  Owner why_not(std::string_view name) const {
    bool crossed = false;  // past a macro or call body that sees no outer names
    for (auto block = stack_.rbegin(); block != stack_.rend(); ++block) {
      if (crossed && contains(block->names, name)) return Owner::macro_outer;
      if (!crossed && contains(block->maybe, name)) return Owner::partial_if;
      if (block->inherits) continue;
      if (!crossed && block->kind == "block") return outside_block(name, block->reads_template);
      if (!crossed && block->kind != "macro" && block->kind != "call") break;
      crossed = true;  // then any enclosing block's earlier set is one the body could not see
    }
    return Owner::elsewhere;
  }

  // Why a load in a {% block %} body is not the user's: set in only some
  // branches of a template-level if, or stored only where the block cannot see
  // it (an enclosing for, with or macro; the template level when `self` may
  // render the block anywhere).
  Owner outside_block(std::string_view name, bool reads_template) const {
    if (reads_template && template_level(name, &Block::maybe)) return Owner::partial_if;
    for (const Block& block : stack_)
      if (contains(block.names, name)) return Owner::block_outer;
    return Owner::elsewhere;
  }

  void store(std::size_t k) {
    user_[k] = Owner::user;
    stored_.insert(t_[k].text);
  }

  // A macro or call body sees the enclosing frame's names only when that frame
  // runs once per run of the code defining the body: the template, a macro,
  // call or block body, with nothing but {% if %}s and {% with %}s between
  // (jinja_scope.hpp).
  bool function_level() const {
    for (auto block = stack_.rbegin(); block != stack_.rend(); ++block) {
      if (block->kind == "if" || block->kind == "with") continue;
      return block->kind.empty() || block->kind == "macro" || block->kind == "call" || block->kind == "block";
    }
    return false;
  }

  // A filter (after |) or a test (after `is`, `is not`): never a variable.
  bool filter_or_test(std::size_t k) const {
    if (k == 0) return false;
    const Token& prev = t_[k - 1];
    if (is_op(prev, "|") || is_name(prev, "is")) return true;
    return is_name(prev, "not") && k >= 2 && is_name(t_[k - 2], "is");
  }

  // The names of [b, e) as an expression: `x=` stores (keyword arguments,
  // parameters, targets); other names are the user's when `scoped` and one of
  // theirs is in effect. Attributes, filters and tests are left alone.
  void loads(std::size_t b, std::size_t e, bool scoped) {
    for (std::size_t k = b; k < e; ++k) {
      if (t_[k].kind != TokenKind::name || (k > 0 && is_op(t_[k - 1], ".")) || filter_or_test(k)) continue;
      if (k + 1 < e && is_op(t_[k + 1], "="))
        store(k);
      else if (scoped)
        user_[k] = visible(t_[k].text) ? Owner::user : why_not(t_[k].text);
    }
  }

  // Marks and returns the names of [b, e) that stand for themselves (not an
  // attribute, not the object of one): the targets of a set or a for.
  std::vector<std::string_view> targets(std::size_t b, std::size_t e) {
    std::vector<std::string_view> out;
    for (std::size_t k = b; k < e; ++k) {
      if (t_[k].kind != TokenKind::name || (k > 0 && is_op(t_[k - 1], "."))) continue;
      if (k + 1 < e && is_op(t_[k + 1], ".")) continue;
      store(k);
      out.push_back(t_[k].text);
    }
    return out;
  }

  // Marks and returns the parameters in the parentheses opening at `open`
  // (names right after "(" or "," at their depth); `close` gets the ")".
  std::vector<std::string_view> params(std::size_t open, std::size_t e, std::size_t& close) {
    std::vector<std::string_view> out;
    int depth = 0;
    for (close = open; close < e; ++close) {
      if (opens(t_[close])) ++depth;
      if (closes(t_[close]) && --depth == 0) break;
      const bool first = close > open && (is_op(t_[close - 1], "(") || is_op(t_[close - 1], ","));
      if (depth == 1 && first && t_[close].kind == TokenKind::name) {
        store(close);
        out.push_back(t_[close].text);
      }
    }
    return out;
  }

  // The first token of [b, e) at bracket depth 0 satisfying `is`; e when none.
  template <class Pred>
  std::size_t find_top(std::size_t b, std::size_t e, Pred is) const {
    int depth = 0;
    for (std::size_t k = b; k < e; ++k) {
      if (depth == 0 && is(t_[k])) return k;
      if (opens(t_[k])) ++depth;
      if (closes(t_[k])) --depth;
    }
    return e;
  }

  void statement(std::size_t b, std::size_t e) {
    const std::string_view keyword = t_[b].text;
    if (keyword.substr(0, 3) == "end") {
      for (std::size_t k = b + 1; k < e; ++k)  // {% endblock name %}
        if (t_[k].kind == TokenKind::name) user_[k] = Owner::user;
      close();
    } else if (keyword == "set") {
      set_statement(b + 1, e);
    } else if (keyword == "for") {
      for_statement(b + 1, e);
    } else if (keyword == "elif" || keyword == "else") {
      end_branch(stack_.back(), keyword == "else");  // what the previous branch (or the loop) stored is not in effect
      loads(b + 1, e, true);
    } else if (keyword == "macro" || keyword == "call") {
      callable_statement(keyword, b + 1, e);
    } else if (keyword == "block") {
      block_statement(b + 1, e);
    } else if (keyword == "filter") {
      stack_.emplace_back(keyword);  // its names are filters
    } else {
      loads(b + 1, e, true);
      if (keyword == "if" || keyword == "with" || keyword == "autoescape") with_statement(keyword, b + 1, e);
    }
  }

  // At elif or else (else_ too) and endif: a branch of an if ends; a for's
  // else (a loop that ran no iteration) sees nothing the loop stored.
  static void end_branch(Block& block, bool else_) {
    if (block.kind == "if") {
      if (!block.branched)
        block.every = block.names;
      else
        std::erase_if(block.every, [&](std::string_view n) { return !contains(block.names, n); });
      block.some.insert(block.names.begin(), block.names.end());
      block.branched = true;
      block.has_else = block.has_else || else_;
    }
    block.names.clear();
  }

  // An if leaves in the enclosing block what every branch stored when one of
  // them surely ran (there is an else); what only some stored may be HA's.
  void close() {
    if (stack_.size() < 2) return;
    Block done = std::move(stack_.back());
    stack_.pop_back();
    Block& outer = stack_.back();
    outer.names.insert(done.on_close.begin(), done.on_close.end());
    if (done.kind != "if") return;
    end_branch(done, false);
    if (done.has_else) outer.names.insert(done.every.begin(), done.every.end());
    for (const NameSet* names : {&done.some, &done.maybe})
      for (std::string_view n : *names)
        if (!(done.has_else && contains(done.every, n))) outer.maybe.insert(n);
  }

  // {% set a, b = expr %} stores after the expression; {% set a | f %}...{% endset %} at its end.
  void set_statement(std::size_t b, std::size_t e) {
    const std::size_t eq = find_top(b, e, [](const Token& t) { return is_op(t, "="); });
    if (eq == e) {
      const std::size_t bar = find_top(b, e, [](const Token& t) { return is_op(t, "|"); });
      std::vector<std::string_view> names = targets(b, bar);
      loads(bar, e, true);
      stack_.emplace_back("set", true, Names{}, std::move(names));
      return;
    }
    loads(b, eq, true);  // ns.x = ...: ns is read
    std::vector<std::string_view> names = targets(b, eq);
    loads(eq + 1, e, true);
    stack_.back().names.insert(names.begin(), names.end());
  }

  // {% for a, b in iterable [if cond] %}: the iterable reads the outer names.
  void for_statement(std::size_t b, std::size_t e) {
    const std::size_t in = find_top(b, e, [](const Token& t) { return is_name(t, "in"); });
    std::vector<std::string_view> names = targets(b, in);
    loads(in < e ? in + 1 : e, e, true);
    stack_.emplace_back("for", true, std::move(names));
  }

  // {% with a = x %}, {% if %}, {% autoescape %}: a block seeing the outer names.
  void with_statement(std::string_view keyword, std::size_t b, std::size_t e) {
    Block block(keyword);
    int depth = 0;  // targets stand at depth 0: f(x=1) is a keyword argument
    for (std::size_t k = b; k < e; ++k) {
      if (opens(t_[k])) ++depth;
      if (closes(t_[k])) --depth;
      if (depth == 0 && keyword == "with" && user_[k] == Owner::user && k + 1 < e && is_op(t_[k + 1], "="))
        block.names.insert(t_[k].text);
    }
    stack_.push_back(std::move(block));
  }

  // {% block name [scoped] %}: a body run with the template's context, so it
  // sees the template level's names (a scoped block: the enclosing ones, as
  // a with); none when the template uses `self` (self.name() renders the
  // block anywhere, before a set as well).
  void block_statement(std::size_t b, std::size_t e) {
    bool scoped = false;
    for (std::size_t k = b; k < e; ++k) {
      if (t_[k].kind != TokenKind::name) continue;
      if (k == b) store(k);  // the block's name
      scoped = scoped || (k > b && t_[k].text == "scoped");
    }
    Block block("block", scoped && !self_);
    block.reads_template = !scoped && !self_;
    stack_.push_back(std::move(block));
  }

  // {% macro name(params) %} and {% call(params) macro(args) %}: a body that
  // starts with its parameters and sees the names stored before it only when
  // function_level(); a macro's name is stored at endmacro. Default values
  // are evaluated in the body when it is called, before its first statement:
  // they see the parameters and what the body sees.
  void callable_statement(std::string_view keyword, std::size_t b, std::size_t e) {
    Block block(keyword, function_level());
    std::size_t open = b;
    if (keyword == "macro" && b < e && t_[b].kind == TokenKind::name) {
      store(b);
      block.on_close.push_back(t_[b].text);
      open = b + 1;
    }
    std::size_t close = open;
    const bool has_params = open < e && is_op(t_[open], "(");
    if (has_params) {
      const Names parameters = params(open, e, close);
      block.names.insert(parameters.begin(), parameters.end());
    }
    if (keyword == "call") loads(close, e, true);  // the called macro and its arguments
    stack_.push_back(std::move(block));
    if (has_params) loads(open, close, true);  // the defaults
  }

  const std::vector<Token>& t_;
  std::vector<Owner> user_;
  NameSet stored_;     // every name the template stores somewhere
  bool self_ = false;  // the template reads `self` (Jinja's reference to its blocks)
  std::vector<Block> stack_ = std::vector<Block>(1);
};

}  // namespace

std::vector<Owner> owners(const std::vector<Token>& tokens) { return Scopes(tokens).run(); }

}  // namespace hamcp::tools::jinja
