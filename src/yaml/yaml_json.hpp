#pragma once
// YAML text <-> Boost.JSON values, on libyaml (Debian: libyaml-dev), for
// Home Assistant's blueprint and configuration YAML. HA's custom tags
// (!input, !secret, !include, ...) are kept, not resolved: a tagged scalar
// becomes a one-member object {"!input": "motion_sensor"}, and emit_yaml
// writes such an object back as the tagged scalar. Plain scalars resolve as
// HA's loader (PyYAML, YAML 1.1) resolves them: null/~, true/false/yes/no/
// on/off, integers, floats; quoted scalars stay strings. Anchors and aliases
// are expanded (bounded: an alias "bomb" is refused). Used by the simulator
// and the blueprint tool; no hamcp dependencies.

#include <boost/json/value.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hamcp::yaml {

// A parse failure with the 1-based line and column libyaml reports.
class YamlError : public std::runtime_error {
 public:
  YamlError(std::string message, std::size_t line, std::size_t column);
  std::size_t line() const noexcept { return line_; }
  std::size_t column() const noexcept { return column_; }

 private:
  std::size_t line_;
  std::size_t column_;
};

struct ParseLimits {
  std::size_t max_depth = 64;       // nested mappings/sequences
  std::size_t max_nodes = 200'000;  // after alias expansion
};

// Parses the first document of `text` (an empty document is null). Throws YamlError.
boost::json::value parse_yaml(std::string_view text, ParseLimits limits = {});

// Block-style YAML for `value`; tagged one-member objects are written as tags.
// Strings that would read back as another type ("on", "12", "") are quoted.
std::string emit_yaml(const boost::json::value& value);

// {"!input": "name"} -> "!input" (empty when `value` is not a tagged scalar).
std::string_view tag_of(const boost::json::value& value);

}  // namespace hamcp::yaml
