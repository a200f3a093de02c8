// The template guard's cost per rendered template while a visibility filter is
// active (tools/gate/template_guard.hpp): unnamed_entity_access() on two
// templates it accepts, a short one and ~7 KB of sets, loops, ifs and macros.
// Prints the median of 21 rounds of 2,000 calls each, in microseconds per call.
// Uses only unnamed_entity_access(), so the same source builds against another
// revision's three guard files as the yardstick (bench/RESULTS-ha.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tools/gate/template_guard.hpp"

namespace {

std::string big_template() {
  std::string out;
  for (int i = 0; i < 40; ++i) {
    const std::string n = std::to_string(i);
    out += "{% set t" + n + " = states('sensor.t" + n +
           "') | float(0) %}{% for x in [1, 2, 3] %}{% if x > 1 %}{{ x * t" + n +
           " }}{% endif %}{% endfor %}{% macro m" + n + "(v) %}{{ v | round(1) }}{% endmacro %}{{ m" + n + "(t" + n +
           ") }}\n";
  }
  return out;
}

double median_us(const std::string& text, int& refused) {
  std::vector<double> rounds;
  for (int r = 0; r < 21; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < 2000; ++k) refused += hamcp::tools::unnamed_entity_access(text).has_value() ? 1 : 0;
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    rounds.push_back(took.count() / 2000);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[rounds.size() / 2];
}

}  // namespace

int main() {
  const std::string small =
      "{% if is_state('light.kitchen', 'on') %}{{ state_attr('light.kitchen', 'brightness') | int }}{% else %}off"
      "{% endif %}";
  const std::string big = big_template();
  for (const std::string* text : {&small, &big}) {
    int refused = 0;
    const double us = median_us(*text, refused);
    std::printf("%zu bytes: median %.2f us per call (refused %d)\n", text->size(), us, refused);
  }
  return 0;
}
