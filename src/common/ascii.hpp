#pragma once
// ASCII case folding for protocol text (header names, schemes, domains, log
// levels, service names): locale-independent, non-ASCII bytes unchanged.

#include <string>
#include <string_view>

namespace hamcp {

inline char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace hamcp
