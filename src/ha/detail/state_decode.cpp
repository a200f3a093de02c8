#include "ha/detail/state_decode.hpp"

#include <boost/json/array.hpp>
#include <memory>
#include <string>

#include "common/json_fields.hpp"

namespace hamcp::ha::detail {
namespace json = boost::json;

namespace {

std::string_view view(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

void apply_context(EntityState& s, const json::value& c) {
  if (c.is_string()) {
    s.context = StateContext(c.as_string(), {}, {});
  } else if (const auto* o = c.if_object()) {
    s.context = StateContext(view(*o, "id"), view(*o, "parent_id"), view(*o, "user_id"));
  }
}

double num(const json::value& v) { return v.is_number() ? v.to_number<double>() : 0.0; }

// subscribe_entities "a" entry: {"s","a","c","lc","lu"?}
// The attributes are kept packed (see ha::Attributes).
EntityState expand_compressed(const std::string& entity_id, json::object& c) {
  EntityState s;
  s.entity_id = entity_id;
  s.state = string_or_empty(c, "s");
  if (const auto* a = c.if_contains("a"); a && a->is_object()) s.attributes = Attributes(a->as_object());
  if (const auto* ctx = c.if_contains("c")) apply_context(s, *ctx);
  if (const auto* lc = c.if_contains("lc")) s.last_changed = num(*lc);
  s.last_updated = s.last_changed;
  if (const auto* lu = c.if_contains("lu")) s.last_updated = num(*lu);
  s.last_reported = s.last_updated;
  return s;
}

void apply_diff_plus(EntityState& s, const json::object& p) {
  if (const auto* st = p.if_contains("s"); st && st->is_string()) s.state = std::string(st->as_string());
  if (const auto* a = p.if_contains("a"); a && a->is_object()) {
    json::object attributes = s.attributes.parse();
    for (const auto& kv : a->as_object()) attributes[kv.key()] = kv.value();
    s.attributes = Attributes(attributes);
  }
  if (const auto* ctx = p.if_contains("c")) apply_context(s, *ctx);
  if (const auto* lc = p.if_contains("lc")) {
    s.last_changed = s.last_updated = num(*lc);
  } else if (const auto* lu = p.if_contains("lu")) {
    s.last_updated = num(*lu);
  }
  s.last_reported = s.last_updated;
}

// subscribe_entities "c" entry: {"+":{s?,a?,c?,lc?,lu?}, "-":{"a":[keys]}}
void apply_compressed_diff(EntityState& s, const json::object& diff) {
  if (const auto* plus = diff.if_contains("+"); plus && plus->is_object()) apply_diff_plus(s, plus->as_object());
  if (const auto* minus = diff.if_contains("-"); minus && minus->is_object()) {
    if (const auto* a = minus->as_object().if_contains("a"); a && a->is_array()) {
      json::object attributes = s.attributes.parse();
      for (const auto& key : a->as_array()) {
        if (key.is_string()) attributes.erase(key.as_string());
      }
      s.attributes = Attributes(attributes);
    }
  }
}

}  // namespace

void apply_entities_event(StateTableBuilder& b, json::object& ev, bool first, ChangeSet& cs) {
  if (auto* a = ev.if_contains("a"); a && a->is_object()) {
    for (auto& kv : a->as_object()) {
      if (!kv.value().is_object()) continue;
      std::string id(kv.key());
      const bool existed = !first && b.find(id) != nullptr;
      b.put(std::make_shared<const EntityState>(expand_compressed(id, kv.value().as_object())));
      kv.value() = nullptr;  // drop this entity's DOM now (freed at once unless it lives in a MessageArena)
      if (!first) (existed ? cs.states_changed : cs.states_added).push_back(std::move(id));
    }
  }
  if (const auto* c = ev.if_contains("c"); c && c->is_object()) {
    for (const auto& kv : c->as_object()) {
      if (!kv.value().is_object()) continue;
      auto old = b.find(kv.key());
      if (!old) continue;
      auto updated = std::make_shared<EntityState>(*old);
      apply_compressed_diff(*updated, kv.value().as_object());
      b.put(std::move(updated));
      cs.states_changed.emplace_back(kv.key());
    }
  }
  if (const auto* r = ev.if_contains("r"); r && r->is_array()) {
    for (const auto& id : r->as_array()) {
      if (id.is_string() && b.erase(std::string(id.as_string()))) cs.states_removed.emplace_back(id.as_string());
    }
  }
}

void replace_with_state_list(StateTableBuilder& b, const StateTable& old, const json::array& list, ChangeSet& cs) {
  b.clear();
  for (const auto& item : list) {
    auto parsed = EntityState::from_json(item);
    if (!parsed) continue;
    auto prev = old.find(parsed->entity_id);
    if (!prev)
      cs.states_added.push_back(parsed->entity_id);
    else if (prev->last_updated != parsed->last_updated || prev->state != parsed->state ||
             prev->attributes != parsed->attributes)
      cs.states_changed.push_back(parsed->entity_id);
    b.put(std::make_shared<const EntityState>(std::move(*parsed)));
  }
  old.for_each([&](const EntityStatePtr& s) {
    if (!b.find(s->entity_id)) cs.states_removed.push_back(s->entity_id);
  });
}

}  // namespace hamcp::ha::detail
