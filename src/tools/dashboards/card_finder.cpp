#include "tools/dashboards/card_finder.hpp"

#include <cctype>

#include "common/ascii.hpp"
#include "common/json_fields.hpp"

namespace hamcp::tools::dashboards {

namespace {

bool mentions(const json::value& v, std::string_view text) {
  if (v.is_string()) return v.get_string() == text;
  if (v.is_array()) {
    for (const auto& x : v.get_array())
      if (mentions(x, text)) return true;
  }
  if (v.is_object()) {
    for (const auto& kv : v.get_object()) {
      if (kv.key() == "cards" || kv.key() == "card") continue;  // nested cards are matched on their own
      if (mentions(kv.value(), text)) return true;
    }
  }
  return false;
}

bool contains_text(const json::value& v, const std::string& lowered) {
  if (v.is_string()) return ascii_lower(v.get_string()).find(lowered) != std::string::npos;
  if (v.is_array()) {
    for (const auto& x : v.get_array())
      if (contains_text(x, lowered)) return true;
  }
  if (v.is_object()) {
    for (const auto& kv : v.get_object())
      if (kv.key() != "cards" && kv.key() != "card" && contains_text(kv.value(), lowered)) return true;
  }
  return false;
}

bool matches(const json::object& card, const CardQuery& q) {
  if (!q.entity_id.empty() && !mentions(card, q.entity_id)) return false;
  if (!q.card_type.empty()) {
    const std::string type = string_or_empty(card, "type");
    if (type != q.card_type && type != "custom:" + q.card_type) return false;
  }
  if (!q.heading.empty()) {
    const std::string want = ascii_lower(q.heading);
    const std::string words = ascii_lower(string_or_empty(card, "heading") + " " + string_or_empty(card, "title"));
    if (words.find(want) == std::string::npos) return false;
  }
  return q.text.empty() || contains_text(card, ascii_lower(q.text));
}

struct Walk {
  const CardQuery& query;
  std::size_t limit;
  json::array found;
  std::size_t total = 0;

  void cards(const json::value* list, const std::string& path) {
    if (!list || !list->is_array()) return;
    const json::array& a = list->get_array();
    for (std::size_t i = 0; i < a.size(); ++i) card(a[i], path + "/" + std::to_string(i));
  }
  void card(const json::value& v, const std::string& path) {
    if (!v.is_object()) return;
    const json::object& c = v.get_object();
    if (matches(c, query)) {
      ++total;
      if (found.size() < limit) found.emplace_back(json::object{{"path", to_card_path(path)}, {"card", c}});
    }
    cards(c.if_contains("cards"), path + "/cards");
    if (const json::value* inner = c.if_contains("card")) card(*inner, path + "/card");
  }
};

}  // namespace

CardMatches find_cards(const json::value& config, const CardQuery& query, std::size_t limit) {
  Walk walk{query, limit, {}};
  const json::value* views = config.is_object() ? config.get_object().if_contains("views") : nullptr;
  if (views && views->is_array()) {
    const json::array& vs = views->get_array();
    for (std::size_t i = 0; i < vs.size(); ++i) {
      if (!vs[i].is_object()) continue;
      const std::string base = "/views/" + std::to_string(i);
      const json::object& view = vs[i].get_object();
      walk.cards(view.if_contains("cards"), base + "/cards");
      walk.cards(view.if_contains("badges"), base + "/badges");
      if (const json::value* sections = view.if_contains("sections"); sections && sections->is_array())
        for (std::size_t s = 0; s < sections->get_array().size(); ++s) {
          const json::value& section = sections->get_array()[s];
          if (section.is_object())
            walk.cards(section.get_object().if_contains("cards"), base + "/sections/" + std::to_string(s) + "/cards");
        }
    }
  }
  return {std::move(walk.found), walk.total};
}

std::optional<std::size_t> find_view(const json::value& config, std::string_view view) {
  const json::value* views = config.is_object() ? config.get_object().if_contains("views") : nullptr;
  if (!views || !views->is_array()) return std::nullopt;
  const json::array& vs = views->get_array();
  for (std::size_t i = 0; i < vs.size(); ++i)
    if (vs[i].is_object() && string_or_empty(vs[i].get_object(), "path") == view) return i;
  if (!view.empty() && view.find_first_not_of("0123456789") == std::string_view::npos) {
    const std::size_t i = std::stoul(std::string(view));
    if (i < vs.size()) return i;
  }
  return std::nullopt;
}

json::array view_names(const json::value& config) {
  json::array out;
  const json::value* views = config.is_object() ? config.get_object().if_contains("views") : nullptr;
  if (!views || !views->is_array()) return out;
  for (std::size_t i = 0; i < views->get_array().size(); ++i) {
    const json::value& v = views->get_array()[i];
    json::object one{{"index", i}};
    if (v.is_object())
      for (const char* k : {"path", "title", "type"})
        if (const json::value* x = v.get_object().if_contains(k)) one[k] = *x;
    out.emplace_back(std::move(one));
  }
  return out;
}

}  // namespace hamcp::tools::dashboards
