#include "search/normalize.hpp"

#include <array>

namespace hamcp::search {
namespace {

constexpr char32_t kSeparator = U' ';
constexpr char32_t kDrop = 0;  // code point vanishes (combining marks, soft hyphen)

// U+00C0..U+00FF. Digits are placeholders for multi-letter expansions:
// '1' = ae, '3' = th, '4' = ss; ' ' = separator (× and ÷).
constexpr std::string_view kLatin1 =
    "aaaaaa1ceeeeiiiidnooooo ouuuuy34"
    "aaaaaa1ceeeeiiiidnooooo ouuuuy3y";
static_assert(kLatin1.size() == 64);

// U+0100..U+017F. '5' = ij, '2' = oe.
constexpr std::string_view kLatinExtA =
    "aaaaaa"
    "cccccccc"
    "dddd"
    "eeeeeeeeee"
    "gggggggg"
    "hhhh"
    "iiiiiiiiii"
    "55"
    "jj"
    "kkk"
    "llllllllll"
    "nnnnnnnnn"
    "oooooo"
    "22"
    "rrrrrr"
    "ssssssss"
    "tttttt"
    "uuuuuuuuuuuu"
    "ww"
    "yyy"
    "zzzzzz"
    "s";
static_assert(kLatinExtA.size() == 128);

void append_placeholder(char c, std::u32string& out) {
  switch (c) {
    case '1':
      out += U"ae";
      break;
    case '2':
      out += U"oe";
      break;
    case '5':
      out += U"ij";
      break;
    case '3':
      out += U"th";
      break;
    case '4':
      out += U"ss";
      break;
    default:
      out.push_back(static_cast<char32_t>(static_cast<unsigned char>(c)));
  }
}

char32_t fold_greek(char32_t c) {
  switch (c) {
    case 0x0386:
    case 0x03AC:
      return 0x03B1;  // alpha
    case 0x0388:
    case 0x03AD:
      return 0x03B5;  // epsilon
    case 0x0389:
    case 0x03AE:
      return 0x03B7;  // eta
    case 0x038A:
    case 0x03AF:
    case 0x0390:
    case 0x03AA:
    case 0x03CA:
      return 0x03B9;  // iota
    case 0x038C:
    case 0x03CC:
      return 0x03BF;  // omicron
    case 0x038E:
    case 0x03CD:
    case 0x03B0:
    case 0x03AB:
    case 0x03CB:
      return 0x03C5;  // upsilon
    case 0x038F:
    case 0x03CE:
      return 0x03C9;  // omega
    case 0x03C2:
      return 0x03C3;  // final sigma
    case 0x037E:
    case 0x0387:
      return kSeparator;  // Greek question mark, ano teleia
    default:
      break;
  }
  if (c >= 0x0391 && c <= 0x03A9) return c + 0x20;
  return c;
}

char32_t fold_cyrillic(char32_t c) {
  if (c >= 0x0400 && c <= 0x040F)
    c += 0x50;
  else if (c >= 0x0410 && c <= 0x042F)
    c += 0x20;
  if (c == 0x0451 || c == 0x0450) return 0x0435;  // ё, ѐ -> е
  return c;
}

bool is_separator_range(char32_t c) {
  return (c >= 0x2000 && c <= 0x2BFF) ||  // punctuation, currency, letterlike, arrows, math, box, dingbats
         (c >= 0x3000 && c <= 0x303F) ||  // CJK punctuation (ideographic space)
         (c >= 0xE000 && c <= 0xF8FF) ||  // private use
         (c >= 0xFFF0 && c <= 0xFFFF) ||  // specials, replacement char
         (c >= 0x1F000 && c <= 0x1FAFF);  // emoji and pictographs
}

// Appends the folded form of one code point.
void fold_code_point(char32_t c, std::u32string& out) {
  if (c < 0x80) {
    if (c >= 'A' && c <= 'Z')
      out.push_back(c + 32);
    else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      out.push_back(c);
    else
      out.push_back(kSeparator);
    return;
  }
  if (c >= 0xC0 && c <= 0xFF) {
    char m = kLatin1[c - 0xC0];
    if (m == ' ')
      out.push_back(kSeparator);
    else
      append_placeholder(m, out);
    return;
  }
  if (c >= 0x100 && c <= 0x17F) {
    append_placeholder(kLatinExtA[c - 0x100], out);
    return;
  }
  if (c >= 0x80 && c <= 0xBF) {
    switch (c) {
      case 0xAA:
        out.push_back(U'a');
        return;  // ª
      case 0xBA:
        out.push_back(U'o');
        return;  // º
      case 0xB5:
        out.push_back(0x03BC);
        return;  // micro sign -> Greek mu
      case 0xB2:
        out.push_back(U'2');
        return;
      case 0xB3:
        out.push_back(U'3');
        return;
      case 0xB9:
        out.push_back(U'1');
        return;
      case 0xAD:
        return;  // soft hyphen joins
      default:
        out.push_back(kSeparator);
        return;
    }
  }
  if (c >= 0x0300 && c <= 0x036F) return;  // combining diacritics (NFD input)
  if (c >= 0xFE00 && c <= 0xFE0F) return;  // variation selectors
  if (c >= 0x0370 && c <= 0x03FF) {
    out.push_back(fold_greek(c));
    return;
  }
  if (c >= 0x0400 && c <= 0x045F) {
    out.push_back(fold_cyrillic(c));
    return;
  }
  if (c >= 0xFF01 && c <= 0xFF5E) {
    fold_code_point(c - 0xFEE0, out);
    return;
  }  // fullwidth ASCII
  if (is_separator_range(c)) {
    out.push_back(kSeparator);
    return;
  }
  out.push_back(c);
}

// Decodes one UTF-8 sequence at s[i]; advances i. Invalid input yields U+FFFD
// and consumes one byte, so decoding always terminates.
char32_t decode_one(std::string_view s, size_t& i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int len = 0;
  char32_t cp = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
  } else {
    ++i;
    return 0xFFFD;
  }
  if (i + len > s.size()) {
    ++i;
    return 0xFFFD;
  }
  for (int k = 1; k < len; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  // Reject overlong forms, surrogates and out-of-range values.
  static constexpr std::array<char32_t, 5> kMin{0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return 0xFFFD;
  }
  i += len;
  return cp;
}

// ASCII folded (fold_code_point's first branch) by table: letters lower-cased,
// digits kept, everything else a separator.
constexpr std::array<char32_t, 128> kAsciiFold = [] {
  std::array<char32_t, 128> t{};
  for (char32_t c = 0; c < 128; ++c) {
    if (c >= 'A' && c <= 'Z')
      t[c] = c + 32;
    else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      t[c] = c;
    else
      t[c] = kSeparator;
  }
  return t;
}();

}  // namespace

void fold_into(std::string_view utf8, std::u32string& out) {
  out.clear();
  for (size_t i = 0; i < utf8.size();) {
    // ASCII, most of every name: no decoding, and a separator is appended
    // only where the general path below would keep it.
    if (const auto b = static_cast<unsigned char>(utf8[i]); b < 0x80) {
      ++i;
      const char32_t c = kAsciiFold[b];
      if (c != kSeparator || (!out.empty() && out.back() != kSeparator)) out.push_back(c);
      continue;
    }
    const size_t before = out.size();
    fold_code_point(decode_one(utf8, i), out);
    // Separator runs collapse to one, none leads; dropped code points vanish.
    if (out.size() != before + 1) continue;
    const char32_t c = out.back();
    if (c == kDrop || (c == kSeparator && (before == 0 || out[before - 1] == kSeparator))) out.pop_back();
  }
  if (!out.empty() && out.back() == kSeparator) out.pop_back();
}

std::u32string fold(std::string_view utf8) {
  std::u32string out;
  out.reserve(utf8.size());
  fold_into(utf8, out);
  return out;
}

std::vector<std::u32string> split_tokens(std::u32string_view folded) {
  std::vector<std::u32string> tokens;
  size_t start = 0;
  while (start < folded.size()) {
    size_t end = folded.find(kSeparator, start);
    if (end == std::u32string_view::npos) end = folded.size();
    if (end > start) tokens.emplace_back(folded.substr(start, end - start));
    start = end + 1;
  }
  return tokens;
}

std::vector<std::u32string> tokenize(std::string_view utf8) { return split_tokens(fold(utf8)); }

std::string to_utf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (c >> 18)));
      out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

std::string fold_key(std::string_view utf8) { return to_utf8(fold(utf8)); }

std::string_view object_id(std::string_view entity_id) {
  auto dot = entity_id.find('.');
  return dot == std::string_view::npos ? entity_id : entity_id.substr(dot + 1);
}

std::string_view domain_of(std::string_view entity_id) {
  auto dot = entity_id.find('.');
  return dot == std::string_view::npos ? std::string_view{} : entity_id.substr(0, dot);
}

}  // namespace hamcp::search
