#pragma once
// A small Jinja lexer for the template guard (template_guard.hpp): splits a
// template into the tokens of its code — what stands inside {{ }} and {% %} —
// and skips what Jinja never evaluates: plain text, {# comments #} and
// {% raw %}...{% endraw %} blocks. String literals are one token each, so a
// word inside a string is never taken for code. Follows Jinja's own lexer
// where it matters here: default delimiters, whitespace control (-, +),
// backslash escapes in strings, and braces balanced inside an expression
// ({{ {'a': {'b': 1}} }} ends at the last }}).

#include <string>
#include <string_view>
#include <vector>

namespace hamcp::tools::jinja {

enum class TokenKind {
  name,         // an identifier: states, light, is, not...
  string,       // a string literal; `text` holds its raw content between the quotes
  number,       // 12, 1.5, 1e3
  op,           // an operator or punctuation: . | ( ) [ ] , ~ + == ...
  block_start,  // the first token of a {% %} block follows
  end,          // the end of a {{ }} or {% %} (or of the template inside one)
};

struct Token {
  TokenKind kind;
  std::string_view text;  // a view into the template
  std::size_t at;         // offset of the token in the template
};

struct Lexed {
  std::vector<Token> tokens;
  // Offset of something Jinja would reject and we cannot read past safely (an
  // unterminated string, comment or raw block); npos when none.
  std::size_t broken_at = std::string_view::npos;
};

// The code tokens of `text` (views into it: keep `text` alive).
Lexed lex(std::string_view text);

}  // namespace hamcp::tools::jinja
