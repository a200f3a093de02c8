#include "tools/gate/visibility.hpp"

#include <fnmatch.h>

#include <boost/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "common/ascii.hpp"
#include "common/json_fields.hpp"

namespace hamcp::tools {
namespace json = boost::json;

namespace {

// How long exposure to Assist read from HA is trusted before a tool call reads it again.
constexpr std::chrono::seconds kExposureFreshFor{10};

enum class RuleKind { entity_glob, domain, area, label };
struct Rule {
  RuleKind kind;
  std::string value;  // lower-cased
};

Rule parse_rule(std::string_view text) {
  const std::string_view t = ascii_trim(text);
  const auto prefixed = [&](std::string_view prefix) { return t.substr(0, prefix.size()) == prefix; };
  Rule rule{RuleKind::entity_glob, {}};
  if (prefixed("domain:"))
    rule = {RuleKind::domain, ascii_lower(t.substr(7))};
  else if (prefixed("area:"))
    rule = {RuleKind::area, ascii_lower(t.substr(5))};
  else if (prefixed("label:"))
    rule = {RuleKind::label, ascii_lower(t.substr(6))};
  else if (prefixed("entity:"))
    rule = {RuleKind::entity_glob, ascii_lower(t.substr(7))};
  else if (t.find_first_of(".*?[") != std::string_view::npos)
    rule = {RuleKind::entity_glob, ascii_lower(t)};
  else
    rule = {RuleKind::domain, ascii_lower(t)};
  rule.value = std::string(ascii_trim(rule.value));
  if (rule.value.empty())
    throw std::invalid_argument("entity rule '" + std::string(text) +
                                "' names nothing: use an entity-id glob (light.*), a domain (lock), area:<id or "
                                "name> or label:<id or name>");
  return rule;
}

std::vector<Rule> parse_rules(const std::vector<std::string>& texts) {
  std::vector<Rule> rules;
  for (const auto& t : texts)
    if (!ascii_trim(t).empty()) rules.push_back(parse_rule(t));
  return rules;
}

std::vector<std::string> strs(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  if (const json::value* v = o.if_contains(key); v && v->is_array())
    for (const auto& item : v->get_array())
      if (item.is_string()) out.emplace_back(item.get_string());
  return out;
}

// What the rules look at for one entity, from the registries.
struct Facts {
  std::string area_id, device_id;
  std::vector<std::string> labels;  // entity's and its device's label ids
};

struct Names {
  std::unordered_map<std::string, std::string> area_name, area_floor, label_name;
  std::unordered_map<std::string, Facts> devices;  // device id -> its area and labels
};

Names registry_names(const ha::Snapshot& snap) {
  Names n;
  snap.registry(ha::RegistryKind::area).for_each([&](const json::value& v) {
    if (!v.is_object()) return;
    const std::string id = string_or_empty(v.get_object(), "area_id");
    n.area_name[id] = ascii_lower(string_or_empty(v.get_object(), "name"));
    n.area_floor[id] = string_or_empty(v.get_object(), "floor_id");
  });
  snap.registry(ha::RegistryKind::label).for_each([&](const json::value& v) {
    if (v.is_object())
      n.label_name[string_or_empty(v.get_object(), "label_id")] = ascii_lower(string_or_empty(v.get_object(), "name"));
  });
  snap.registry(ha::RegistryKind::device).for_each([&](const json::value& v) {
    if (!v.is_object()) return;
    Facts f{string_or_empty(v.get_object(), "area_id"), {}, strs(v.get_object(), "labels")};
    n.devices[string_or_empty(v.get_object(), "id")] = std::move(f);
  });
  return n;
}

std::unordered_map<std::string, Facts> entity_facts(const ha::Snapshot& snap, const Names& names) {
  std::unordered_map<std::string, Facts> facts;
  snap.registry(ha::RegistryKind::entity).for_each([&](const json::value& v) {
    if (!v.is_object()) return;
    const json::object& o = v.get_object();
    Facts f{string_or_empty(o, "area_id"), string_or_empty(o, "device_id"), strs(o, "labels")};
    if (auto d = names.devices.find(f.device_id); d != names.devices.end()) {
      if (f.area_id.empty()) f.area_id = d->second.area_id;  // an entity without its own area is in its device's
      f.labels.insert(f.labels.end(), d->second.labels.begin(), d->second.labels.end());
    }
    facts[string_or_empty(o, "entity_id")] = std::move(f);
  });
  snap.states.for_each([&](const ha::EntityStatePtr& s) { facts.try_emplace(s->entity_id); });
  return facts;
}

bool matches(const Rule& rule, const std::string& entity_id, const Facts& f, const Names& names) {
  const auto named = [](const std::unordered_map<std::string, std::string>& map, const std::string& id,
                        const std::string& wanted) {
    if (id.empty()) return false;
    if (ascii_lower(id) == wanted) return true;
    const auto it = map.find(id);
    return it != map.end() && it->second == wanted;
  };
  switch (rule.kind) {
    case RuleKind::entity_glob:
      return fnmatch(rule.value.c_str(), entity_id.c_str(), 0) == 0;
    case RuleKind::domain:
      return entity_id.substr(0, entity_id.find('.')) == rule.value;
    case RuleKind::area:
      return named(names.area_name, f.area_id, rule.value);
    case RuleKind::label:
      for (const auto& label : f.labels)
        if (named(names.label_name, label, rule.value)) return true;
      return false;
  }
  return false;
}

bool any_match(const std::vector<Rule>& rules, const std::string& id, const Facts& f, const Names& names) {
  for (const auto& r : rules)
    if (matches(r, id, f, names)) return true;
  return false;
}

// An entity id's character in any case: HA lower-cases the ids it is given
// (hass.states.get, cv.entity_id), so LIGHT.Kitchen names light.kitchen.
bool id_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// Calls fn(begin, length) for every "word.word" in a text (entity-id shaped, any case).
template <class Fn>
void for_each_dotted_word(std::string_view text, Fn fn) {
  for (std::size_t dot = text.find('.'); dot != std::string_view::npos; dot = text.find('.', dot + 1)) {
    std::size_t begin = dot;
    while (begin > 0 && id_char(text[begin - 1])) --begin;
    std::size_t end = dot + 1;
    while (end < text.size() && id_char(text[end])) ++end;
    if (begin == dot || end == dot + 1) continue;
    if (fn(begin, end - begin)) return;
  }
}

}  // namespace

void validate_rules(const VisibilityRules& rules) {
  parse_rules(rules.allow);
  parse_rules(rules.deny);
}

bool HiddenSet::scope_holds_hidden(std::string_view kind, std::string_view id) const {
  return scopes_.count(std::string(kind) + ":" + std::string(id)) > 0;
}

std::optional<std::string> HiddenSet::first_in(std::string_view text) const {
  std::optional<std::string> found;
  if (ids_.empty()) return found;
  for_each_dotted_word(text, [&](std::size_t at, std::size_t n) {
    std::string word = ascii_lower(text.substr(at, n));
    if (ids_.count(word) == 0) return false;
    found = std::move(word);
    return true;
  });
  return found;
}

bool HiddenSet::mask_in(std::string& text) const {
  if (ids_.empty() || text.find('.') == std::string::npos) return false;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for_each_dotted_word(text, [&](std::size_t at, std::size_t n) {
    if (ids_.count(ascii_lower(std::string_view(text).substr(at, n)))) spans.emplace_back(at, n);
    return false;
  });
  for (auto it = spans.rbegin(); it != spans.rend(); ++it) text.replace(it->first, it->second, kHiddenMark);
  return !spans.empty();
}

Visibility::Visibility(VisibilityRules rules) : rules_(std::move(rules)) { validate_rules(rules_); }

bool Visibility::exposure_stale() const {
  if (!rules_.exposed_only) return false;
  const std::lock_guard lock(mutex_);
  return !exposure_read_ || std::chrono::steady_clock::now() - *exposure_read_ > kExposureFreshFor;
}

void Visibility::set_exposure(std::optional<std::unordered_set<std::string>> exposed) {
  const std::lock_guard lock(mutex_);
  exposed_ = exposed ? std::move(*exposed) : std::unordered_set<std::string>{};
  exposure_read_ = std::chrono::steady_clock::now();
  ++exposure_generation_;
}

void Visibility::invalidate_exposure() {
  const std::lock_guard lock(mutex_);
  exposure_read_.reset();
}

HiddenSetPtr Visibility::hidden(const ha::SnapshotPtr& snapshot) {
  if (!active() || !snapshot) return std::make_shared<const HiddenSet>();
  const std::lock_guard lock(mutex_);
  if (cache_holds(*snapshot)) {
    cached_states_ = snapshot->states;  // later checks walk only what changes after this one
    return cached_;
  }
  HiddenSetPtr fresh = compute(*snapshot);
  if (!cached_ || !(*cached_ == *fresh)) cached_ = std::move(fresh);  // the same set keeps its identity
  cached_generation_ = exposure_generation_;
  cached_registries_ = snapshot->registries;
  cached_states_ = snapshot->states;
  return cached_;
}

bool Visibility::cache_holds(const ha::Snapshot& snapshot) const {
  if (!cached_ || cached_generation_ != exposure_generation_ || cached_registries_ != snapshot.registries) return false;
  // An entity with a state but no registry entry can be hidden (by id or
  // domain): the set changes when one comes or goes, not when a state changes.
  bool ids_changed = false;
  snapshot.states.for_each_difference(cached_states_, [&](std::string_view, const auto& was, const auto& is) {
    if (!was || !is) ids_changed = true;
  });
  return !ids_changed;
}

// Called with mutex_ held (reads exposed_).
HiddenSetPtr Visibility::compute(const ha::Snapshot& snapshot) const {
  const std::vector<Rule> allow = parse_rules(rules_.allow);
  const std::vector<Rule> deny = parse_rules(rules_.deny);
  const Names names = registry_names(snapshot);
  auto set = std::make_shared<HiddenSet>();
  for (const auto& [id, f] : entity_facts(snapshot, names)) {
    const bool allowed = allow.empty() || any_match(allow, id, f, names);
    const bool exposed = !rules_.exposed_only || exposed_.count(id) > 0;
    if (allowed && exposed && !any_match(deny, id, f, names)) continue;
    set->ids_.insert(id);
    if (!f.area_id.empty()) {
      set->scopes_.insert("area:" + f.area_id);
      if (auto floor = names.area_floor.find(f.area_id); floor != names.area_floor.end() && !floor->second.empty())
        set->scopes_.insert("floor:" + floor->second);
    }
    if (!f.device_id.empty()) set->scopes_.insert("device:" + f.device_id);
    for (const auto& label : f.labels) set->scopes_.insert("label:" + label);
  }
  return set;
}

}  // namespace hamcp::tools
