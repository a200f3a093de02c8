#include "home/config_terms.hpp"

#include <set>

namespace hamcp::home {

namespace json = boost::json;

namespace {

bool is_id_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'; }

bool looks_like_entity_id(std::string_view s) {
  const auto dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == s.size() || s.size() > 255) return false;
  for (char c : s)
    if (!is_id_char(c)) return false;
  return s.find('.', dot + 1) == std::string_view::npos && !(s[0] >= '0' && s[0] <= '9');
}

bool is_template(std::string_view s) {
  return s.find("{{") != std::string_view::npos || s.find("{%") != std::string_view::npos;
}

struct TermWalker {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t limit;
  void add(std::string term) {
    if (out.size() < limit && seen.insert(term).second) out.push_back(std::move(term));
  }
  void walk(const json::value& v, std::string_view key) {
    if (const auto* s = v.if_string()) {
      if (key == "trigger" || key == "platform" || key == "condition") {
        add(std::string(key == "condition" ? "condition: " : "trigger: ") + std::string(*s));
      } else if (looks_like_entity_id(*s)) {
        add(std::string(*s));  // an entity id, or a service under action/service
      } else if (is_template(*s)) {
        for (auto& id : template_entity_ids(*s)) add(std::move(id));
      }
    } else if (const auto* o = v.if_object()) {
      for (const auto& kv : *o) {
        if (looks_like_entity_id(kv.key())) add(std::string(kv.key()));  // a scene's entities are keys
        walk(kv.value(), kv.key());
      }
    } else if (const auto* a = v.if_array()) {
      for (const auto& item : *a) walk(item, key);
    }
  }
};

}  // namespace

std::vector<std::string> template_entity_ids(std::string_view text) {
  std::vector<std::string> ids;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_id_char(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_id_char(text[end])) ++end;
    std::string_view word = text.substr(i, end - i);
    i = end;
    if (word.rfind("states.", 0) == 0) word.remove_prefix(7);  // states.sensor.x.state -> sensor.x
    if (const auto first = word.find('.'); first != std::string_view::npos) {
      if (const auto second = word.find('.', first + 1); second != std::string_view::npos)
        word = word.substr(0, second);
    }
    const bool variable = word.rfind("trigger.", 0) == 0 || word.rfind("this.", 0) == 0 ||
                          word.rfind("repeat.", 0) == 0 || word.rfind("wait.", 0) == 0;
    if (!variable && looks_like_entity_id(word)) ids.emplace_back(word);
  }
  return ids;
}

std::vector<std::string> config_terms(const json::value& config, std::size_t limit) {
  TermWalker w{{}, {}, limit};
  w.walk(config, {});
  return std::move(w.out);
}

}  // namespace hamcp::home
