#include "tools/gate/entity_filter.hpp"

#include <boost/json.hpp>
#include <vector>

#include "common/ascii.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {
namespace json = boost::json;

namespace {

// Members whose value says which entity the whole object is about.
bool is_entity_key(std::string_view key) { return key == "entity_id" || key == "entity"; }

// A value the parent should drop (it is, or is about, a hidden entity).
enum class Verdict { keep, drop };

Verdict hide_in(json::value& v, const HiddenSet& hidden, bool& changed);

Verdict hide_in_string(json::string& s, const HiddenSet& hidden, bool& changed) {
  if (s.find('.') == json::string::npos) return Verdict::keep;
  if (hidden.contains(s)) {
    s = kHiddenMark;
    changed = true;
    return Verdict::drop;
  }
  std::string text(s);
  if (!hidden.mask_in(text)) return Verdict::keep;
  s = text;
  changed = true;
  return Verdict::keep;
}

Verdict hide_in_object(json::object& o, const HiddenSet& hidden, bool& changed) {
  bool about_hidden = false;
  for (auto it = o.begin(); it != o.end();) {
    if (hidden.contains(it->key())) {
      it = o.erase(it);
      changed = true;
      continue;
    }
    const Verdict verdict = hide_in(it->value(), hidden, changed);
    if (verdict == Verdict::drop && is_entity_key(it->key())) about_hidden = true;
    if (verdict == Verdict::drop && it->value().is_object()) {
      it = o.erase(it);  // a nested object about a hidden entity
      continue;
    }
    ++it;
  }
  return about_hidden ? Verdict::drop : Verdict::keep;
}

Verdict hide_in(json::value& v, const HiddenSet& hidden, bool& changed) {
  if (json::string* s = v.if_string()) return hide_in_string(*s, hidden, changed);
  if (json::object* o = v.if_object()) return hide_in_object(*o, hidden, changed);
  if (json::array* a = v.if_array()) {
    for (auto it = a->begin(); it != a->end();) {
      if (hide_in(*it, hidden, changed) == Verdict::drop) {
        it = a->erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
  }
  return Verdict::keep;
}

std::string member_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::optional<std::string> hidden_in_text(std::string_view text, const HiddenSet& hidden) {
  if (text.find(kHiddenMark) != std::string_view::npos) return std::string(kHiddenMark);
  return hidden.first_in(text);
}

std::vector<std::string> ids_of(const json::value* v) {
  std::vector<std::string> out;
  if (!v) return out;
  if (const json::string* s = v->if_string()) {
    std::string_view rest = *s;  // HA also takes "a, b" lists
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      std::string_view one = rest.substr(0, comma);
      while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
      while (!one.empty() && one.back() == ' ') one.remove_suffix(1);
      if (!one.empty()) out.emplace_back(one);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
  } else if (const json::array* a = v->if_array()) {
    for (const auto& item : *a)
      if (item.is_string()) out.emplace_back(item.get_string());
  }
  return out;
}

// The scopes a target (or service data) names; what it refuses, if anything.
std::optional<std::string> hidden_in_target(const json::object& target, const HiddenSet& hidden) {
  for (const std::string& id : ids_of(target.if_contains("entity_id")))
    if (id == "all" || hidden.contains(ascii_lower(id)))  // HA lower-cases a call's ids (cv.entity_id)
      return id == "all" ? "entity_id all" : "a hidden entity";
  static constexpr std::pair<std::string_view, std::string_view> kScopes[] = {
      {"area_id", "area"}, {"device_id", "device"}, {"label_id", "label"}, {"floor_id", "floor"}};
  for (const auto& [key, kind] : kScopes)
    for (const std::string& id : ids_of(target.if_contains(key)))
      if (hidden.scope_holds_hidden(kind, id)) return std::string(kind) + " " + id;
  return std::nullopt;
}

}  // namespace

bool hide_entities(json::value& root, const HiddenSet& hidden) {
  if (hidden.empty()) return false;
  bool changed = false;
  if (hide_in(root, hidden, changed) == Verdict::drop && root.is_object())
    root = entity_hidden_error("", "an entity").to_json();
  return changed;
}

std::optional<HiddenMention> hidden_named_in(const json::value& value, const HiddenSet& hidden) {
  std::vector<std::pair<const json::value*, std::string>> todo{{&value, ""}};
  while (!todo.empty()) {
    auto [v, path] = std::move(todo.back());
    todo.pop_back();
    if (const json::string* s = v->if_string()) {
      if (auto id = hidden_in_text(*s, hidden)) return HiddenMention{path, *id};
    } else if (const json::array* a = v->if_array()) {
      for (std::size_t i = 0; i < a->size(); ++i) todo.emplace_back(&(*a)[i], path + "[" + std::to_string(i) + "]");
    } else if (const json::object* o = v->if_object()) {
      for (const auto& kv : *o) {
        if (auto id = hidden_in_text(kv.key(), hidden)) return HiddenMention{member_path(path, kv.key()), *id};
        todo.emplace_back(&kv.value(), member_path(path, kv.key()));
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> hidden_service_target(const ha::ServiceCall& call, const HiddenSet& hidden) {
  if (hidden.empty()) return std::nullopt;
  if (auto found = hidden_in_target(call.target, hidden)) return found;
  if (auto found = hidden_in_target(call.data, hidden)) return found;
  return std::nullopt;
}

ToolError entity_hidden_error(std::string_view field, std::string_view what) {
  json::object extra;
  if (!field.empty()) extra.emplace("field", field);
  extra.emplace("sent", false);
  std::string message = field.empty() ? std::string("This") : "'" + std::string(field) + "'";
  message.append(" names ").append(what);
  message.append(
      " that hamcp's entity visibility rules hide (or a group of entities holding one). Nothing was sent to Home "
      "Assistant.");
  return ToolError{"entity_hidden", std::move(message),
                   "Act only on entities ha_search shows. The rules are set by --entities-allow, --entities-deny and "
                   "--entities-exposed-only (ENTITIES_ALLOW, ENTITIES_DENY, ENTITIES_EXPOSED_ONLY).",
                   std::move(extra)};
}

}  // namespace hamcp::tools
