#include "tools/gate/jinja_lexer.hpp"

#include <array>
#include <cctype>

namespace hamcp::tools::jinja {

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Two-character operators Jinja knows (longest match first).
constexpr std::array<std::string_view, 6> kTwoCharOps = {"//", "**", "==", "!=", ">=", "<="};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Lexed run() {
    while (pos_ < text_.size() && out_.broken_at == std::string_view::npos) data();
    return std::move(out_);
  }

 private:
  bool at(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }
  void skip_control() {  // whitespace control after an opening delimiter
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
  }

  // Plain text up to the next {{, {% or {#.
  void data() {
    const std::size_t open = text_.find('{', pos_);
    if (open == std::string_view::npos || open + 1 >= text_.size()) {
      pos_ = text_.size();
      return;
    }
    pos_ = open + 1;
    const char kind = text_[pos_];
    if (kind == '#') return comment(open);
    if (kind != '{' && kind != '%') return;  // a lone brace in the text
    ++pos_;
    skip_control();
    if (kind == '%' && raw_block(open)) return;
    if (kind == '%') out_.tokens.push_back({TokenKind::block_start, text_.substr(open, 2), open});
    code(kind == '{' ? "}}" : "%}");
  }

  void comment(std::size_t open) {
    const std::size_t close = text_.find("#}", pos_);
    if (close == std::string_view::npos) {
      out_.broken_at = open;
      return;
    }
    pos_ = close + 2;
  }

  // {% raw %} ... {% endraw %}: Jinja does not evaluate the inside. True when
  // this block was one (and has been skipped).
  bool raw_block(std::size_t open) {
    std::size_t p = pos_;
    while (p < text_.size() && std::isspace(static_cast<unsigned char>(text_[p]))) ++p;
    if (text_.substr(p, 3) != "raw" || (p + 3 < text_.size() && name_char(text_[p + 3]))) return false;
    for (std::size_t end = text_.find("endraw", p + 3); end != std::string_view::npos;
         end = text_.find("endraw", end + 6)) {
      std::size_t before = end;  // "{%", optional -/+, spaces, then endraw
      while (before > 0 && std::isspace(static_cast<unsigned char>(text_[before - 1]))) --before;
      if (before > 0 && (text_[before - 1] == '-' || text_[before - 1] == '+')) --before;
      if (before < 2 || text_.substr(before - 2, 2) != "{%") continue;
      const std::size_t close = text_.find("%}", end + 6);
      if (close == std::string_view::npos) break;
      pos_ = close + 2;
      return true;
    }
    out_.broken_at = open;
    return true;
  }

  // The tokens of one {{ }} or {% %} up to its closing delimiter (braces balanced).
  void code(std::string_view closing) {
    int depth = 0;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
        continue;
      }
      if (depth == 0 && (c == '-' || c == '+') && text_.substr(pos_ + 1, 2) == closing) ++pos_;
      if (depth == 0 && at(closing)) {
        out_.tokens.push_back({TokenKind::end, text_.substr(pos_, 2), pos_});
        pos_ += 2;
        return;
      }
      if (c == '\'' || c == '"') {
        if (!string_literal(c)) return;
        continue;
      }
      if (name_start(c)) {
        name();
        continue;
      }
      if (digit(c)) {
        number();
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      operator_token();
    }
    out_.tokens.push_back({TokenKind::end, text_.substr(pos_, 0), pos_});  // unterminated: Jinja rejects it
  }

  bool string_literal(char quote) {
    const std::size_t start = pos_;
    for (std::size_t p = pos_ + 1; p < text_.size(); ++p) {
      if (text_[p] == '\\') {
        ++p;
        continue;
      }
      if (text_[p] == quote) {
        out_.tokens.push_back({TokenKind::string, text_.substr(start + 1, p - start - 1), start});
        pos_ = p + 1;
        return true;
      }
    }
    out_.broken_at = start;
    pos_ = text_.size();
    return false;
  }

  void name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
    out_.tokens.push_back({TokenKind::name, text_.substr(start, pos_ - start), start});
  }

  // 12, 1_000, 1.5, 1e-3 (a '.' not followed by a digit ends the number: 1.real).
  void number() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (digit(text_[pos_]) || text_[pos_] == '_')) ++pos_;
    if (pos_ + 1 < text_.size() && text_[pos_] == '.' && digit(text_[pos_ + 1])) {
      ++pos_;
      while (pos_ < text_.size() && (digit(text_[pos_]) || text_[pos_] == '_')) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      std::size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < text_.size() && digit(text_[p])) {
        pos_ = p;
        while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
      }
    }
    out_.tokens.push_back({TokenKind::number, text_.substr(start, pos_ - start), start});
  }

  void operator_token() {
    for (std::string_view op : kTwoCharOps)
      if (at(op)) {
        out_.tokens.push_back({TokenKind::op, text_.substr(pos_, 2), pos_});
        pos_ += 2;
        return;
      }
    out_.tokens.push_back({TokenKind::op, text_.substr(pos_, 1), pos_});
    ++pos_;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  Lexed out_;
};

}  // namespace

Lexed lex(std::string_view text) { return Lexer(text).run(); }

}  // namespace hamcp::tools::jinja
