#pragma once
// ASCII case folding and blank trimming for protocol text (header names, schemes, domains, log
// levels, service names, rule lists): locale-independent, non-ASCII bytes unchanged.

#include <string>
#include <string_view>

namespace hamcp {

inline char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// `s` without leading and trailing spaces, tabs, CRs and LFs (HTTP's optional whitespace, and the
// line ends a config file written on Windows leaves).
inline std::string_view ascii_trim(std::string_view s) noexcept {
  constexpr std::string_view kBlanks = " \t\r\n";
  const auto first = s.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kBlanks) - first + 1);
}

}  // namespace hamcp
