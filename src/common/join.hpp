#pragma once
// One way to list names in a message: "a, b, c". `project` turns an element into text (for ranges
// whose elements are not strings, such as JSON arrays).

#include <functional>
#include <ranges>
#include <string>
#include <string_view>

namespace hamcp {

template <std::ranges::input_range Range, class Project = std::identity>
std::string join(const Range& parts, std::string_view separator, Project project = {}) {
  std::string out;
  bool first = true;
  for (const auto& part : parts) {
    if (!first) out += separator;
    out += std::string_view(std::invoke(project, part));
    first = false;
  }
  return out;
}

}  // namespace hamcp
