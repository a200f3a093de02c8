#include "tools/gate/template_guard.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>

namespace hamcp::tools {

namespace {

// Functions whose first argument is an entity id: allowed with a literal id only.
constexpr std::array<std::string_view, 10> kByEntityId = {"states",    "is_state",        "state_attr", "is_state_attr",
                                                          "has_value", "device_id",       "area_id",    "area_name",
                                                          "floor_id",  "state_translated"};

// Functions that list or reach entities other than by a literal id.
constexpr std::array<std::string_view, 8> kWalkers = {"expand",         "area_entities",  "device_entities",
                                                      "label_entities", "floor_entities", "integration_entities",
                                                      "closest",        "distance"};

std::string snippet(std::string_view text, std::size_t at) {
  return std::string(text.substr(at, std::min<std::size_t>(40, text.size() - at)));
}

bool word_start(std::string_view text, std::size_t at) {
  if (at == 0) return true;
  const char before = text[at - 1];
  return !(std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '.');
}

// "states", "is_state"... called with a first argument that is not one quoted entity id.
std::optional<std::string> non_literal_call(std::string_view text) {
  static const std::regex kLiteralCall(R"(^\(\s*(['"])[a-z_][a-z0-9_]*\.[a-z0-9_]+\1\s*[,)])");
  for (std::string_view name : kByEntityId)
    for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      if (!word_start(text, at)) continue;
      std::size_t after = at + name.size();
      while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
      if (after >= text.size() || text[after] != '(') continue;  // not a call ("states" alone: below)
      const std::string rest(text.substr(after, 200));
      if (!std::regex_search(rest, kLiteralCall)) return snippet(text, at);
    }
  return std::nullopt;
}

// "states" not called: states.domain.object_id is a literal read; states,
// states.domain, states[...] walk entities.
std::optional<std::string> states_object_walk(std::string_view text) {
  static const std::regex kLiteralAttr(R"(^states\.[a-z_][a-z0-9_]*\.[a-z0-9_]+)");
  for (std::size_t at = text.find("states"); at != std::string_view::npos; at = text.find("states", at + 1)) {
    if (!word_start(text, at)) continue;
    std::size_t after = at + 6;
    if (after < text.size() && (std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_')) continue;
    std::size_t next = after;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
    if (next < text.size() && text[next] == '(') continue;  // a call: non_literal_call judges it
    const std::string rest(text.substr(at, 200));
    if (!std::regex_search(rest, kLiteralAttr)) return snippet(text, at);
  }
  return std::nullopt;
}

std::optional<std::string> walker_call(std::string_view text) {
  for (std::string_view name : kWalkers)
    for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      if (!word_start(text, at)) continue;
      std::size_t after = at + name.size();
      while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
      if (after < text.size() && text[after] == '(') return snippet(text, at);
    }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> unnamed_entity_access(std::string_view text) {
  if (auto found = non_literal_call(text)) return found;
  if (auto found = states_object_walk(text)) return found;
  return walker_call(text);
}

}  // namespace hamcp::tools
