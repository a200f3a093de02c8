#include "sim/core/state_store.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>

#include "sim/core/json_writer.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim {
namespace {

constexpr std::size_t kHistoryCap = 1000;   // recorded points per entity
constexpr std::size_t kLogbookCap = 50000;  // entries overall

json::value opt(const std::optional<std::string>& v) { return v ? json::value(*v) : json::value(nullptr); }

void rebase(Timestamp& t, double shift) { t += shift; }

}  // namespace

std::optional<double> numeric_state(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

json::object context_json(const Context& c) {
  return {{"id", c.id}, {"parent_id", opt(c.parent_id)}, {"user_id", opt(c.user_id)}};
}

json::object state_json(const EntityState& s) {
  return {{"entity_id", s.entity_id},
          {"state", s.state},
          {"attributes", s.attributes},
          {"last_changed", iso_time(s.last_changed)},
          {"last_reported", iso_time(s.last_reported)},
          {"last_updated", iso_time(s.last_updated)},
          {"context", context_json(s.context)}};
}

json::object compressed_state_json(const EntityState& s) {
  json::object o{{"s", s.state}, {"a", s.attributes}};
  if (!s.context.parent_id && !s.context.user_id)
    o["c"] = s.context.id;
  else
    o["c"] = context_json(s.context);
  o["lc"] = s.last_changed;
  if (s.last_updated != s.last_changed) o["lu"] = s.last_updated;
  return o;
}

json::object event_json(const Event& e) {
  return {{"event_type", e.event_type},
          {"data", e.data},
          {"origin", e.origin},
          {"time_fired", iso_time(e.time_fired)},
          {"context", context_json(e.context)}};
}

json::object state_diff_json(const EntityState& o, const EntityState& n) {
  json::object add;
  json::object diff;
  if (o.state != n.state) add["s"] = n.state;
  if (o.last_changed != n.last_changed)
    add["lc"] = n.last_changed;
  else if (o.last_updated != n.last_updated)
    add["lu"] = n.last_updated;
  if (o.context.parent_id != n.context.parent_id) add["c"] = json::object{{"parent_id", opt(n.context.parent_id)}};
  if (o.context.user_id != n.context.user_id) {
    if (add.contains("c"))
      add["c"].as_object()["user_id"] = opt(n.context.user_id);
    else
      add["c"] = json::object{{"user_id", opt(n.context.user_id)}};
  }
  if (o.context.id != n.context.id) {
    if (add.contains("c"))
      add["c"].as_object()["id"] = n.context.id;
    else
      add["c"] = n.context.id;
  }
  if (o.attributes != n.attributes) {
    json::object changed;
    for (const auto& kv : n.attributes) {
      const json::value* before = o.attributes.if_contains(kv.key());
      if (!before || *before != kv.value()) changed[kv.key()] = kv.value();
    }
    if (!changed.empty()) add["a"] = std::move(changed);
    json::array removed;
    for (const auto& kv : o.attributes)
      if (!n.attributes.contains(kv.key())) removed.emplace_back(kv.key());
    if (!removed.empty()) diff["-"] = json::object{{"a", std::move(removed)}};
  }
  diff["+"] = std::move(add);
  return diff;
}

StateStore::StateStore(Home home, bool rebase_to_now) : home_(std::move(home)) {
  started_at_ = now_timestamp();
  double shift = rebase_to_now ? started_at_ - kHomeEpoch : 0.0;
  user_id_ = "5e0c3b2ad0a44e0bb4f6ad52b1c2f9a1";
  for (auto& s : home_.states) {
    rebase(s.last_changed, shift);
    rebase(s.last_updated, shift);
    rebase(s.last_reported, shift);
    // Measurement sensors report every few minutes in a real home; their
    // older values are synthesized by history().
    const auto* sc = s.attributes.if_contains("state_class");
    if (rebase_to_now && sc && sc->is_string() && sc->get_string() == "measurement" && numeric_state(s.state)) {
      double age = 60.0 + static_cast<double>(std::hash<std::string>{}(s.entity_id) % 3000);
      s.last_changed = s.last_updated = s.last_reported = started_at_ - age;
    }
  }
  for (auto& e : home_.entities) {
    rebase(e.created_at, shift);
    rebase(e.modified_at, shift);
  }
  for (auto& d : home_.devices) {
    rebase(d.created_at, shift);
    rebase(d.modified_at, shift);
  }
  for (auto& a : home_.areas) {
    rebase(a.created_at, shift);
    rebase(a.modified_at, shift);
  }
  for (auto& f : home_.floors) {
    rebase(f.created_at, shift);
    rebase(f.modified_at, shift);
  }
  for (auto& l : home_.labels) {
    rebase(l.created_at, shift);
    rebase(l.modified_at, shift);
  }
  for (auto& c : home_.categories) {
    rebase(c.created_at, shift);
    rebase(c.modified_at, shift);
  }
  order_.reserve(home_.states.size());
  states_.reserve(home_.states.size());
  for (auto& s : home_.states) {
    auto snap = std::make_shared<StoredState>();
    static_cast<EntityState&>(*snap) = std::move(s);
    order_.push_back(snap->entity_id);
    history_[snap->entity_id].push_back(snap);
    states_[snap->entity_id] = std::move(snap);
  }
  home_.states.clear();  // the snapshots are the truth from now on
}

StatePtr StateStore::get(std::string_view entity_id) const {
  std::lock_guard lock(mutex_);
  auto it = states_.find(std::string(entity_id));
  return it == states_.end() ? nullptr : it->second;
}

std::vector<StatePtr> StateStore::all() const {
  std::lock_guard lock(mutex_);
  std::vector<StatePtr> out;
  out.reserve(order_.size());
  for (const auto& id : order_) {
    auto it = states_.find(id);
    if (it != states_.end()) out.push_back(it->second);
  }
  return out;
}

std::size_t StateStore::size() const {
  std::lock_guard lock(mutex_);
  return states_.size();
}

std::string StateStore::state_json_cached(const StatePtr& s) const {
  std::lock_guard lock(mutex_);
  if (s->json_cache.empty()) s->json_cache = to_json(state_json(*s));
  return s->json_cache;
}

std::string StateStore::compressed_json_cached(const StatePtr& s) const {
  std::lock_guard lock(mutex_);
  if (s->compressed_cache.empty()) s->compressed_cache = to_json(compressed_state_json(*s));
  return s->compressed_cache;
}

std::string StateStore::states_array_json() const {
  std::lock_guard lock(mutex_);
  std::string out;
  std::size_t estimate = 2;
  for (const auto& id : order_) {
    auto it = states_.find(id);
    if (it == states_.end()) continue;
    if (it->second->json_cache.empty()) it->second->json_cache = to_json(state_json(*it->second));
    estimate += it->second->json_cache.size() + 1;
  }
  out.reserve(estimate);
  out += '[';
  bool first = true;
  for (const auto& id : order_) {
    auto it = states_.find(id);
    if (it == states_.end()) continue;
    if (!first) out += ',';
    first = false;
    out += it->second->json_cache;
  }
  out += ']';
  return out;
}

Context StateStore::new_context(std::optional<std::string> parent_id, std::optional<std::string> user_id) {
  std::lock_guard lock(mutex_);
  static const char* alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  uint64_t ms = static_cast<uint64_t>(now_timestamp() * 1000);
  std::string id(26, '0');
  for (int i = 9; i >= 0; --i) {
    id[i] = alphabet[ms & 31];
    ms >>= 5;
  }
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t a = rng() ^ (++ulid_counter_), b = rng();
  for (int i = 0; i < 8; ++i) id[10 + i] = alphabet[(a >> (i * 5)) & 31];
  for (int i = 0; i < 8; ++i) id[18 + i] = alphabet[(b >> (i * 5)) & 31];
  return Context{id, std::move(parent_id), std::move(user_id)};
}

StatePtr StateStore::set_state(const std::string& entity_id, std::string state, json::object attributes,
                               const Context& context, bool force_update) {
  std::lock_guard lock(mutex_);
  Timestamp now = now_timestamp();
  StatePtr old;
  if (auto it = states_.find(entity_id); it != states_.end()) old = it->second;
  bool same_state = old && old->state == state;
  bool same_attrs = old && old->attributes == attributes;
  if (old && same_state && same_attrs && !force_update) {
    // HA only bumps last_reported (and fires state_reported) here.
    auto snap = std::make_shared<StoredState>();
    static_cast<EntityState&>(*snap) = static_cast<const EntityState&>(*old);
    snap->last_reported = now;
    states_[entity_id] = snap;
    return snap;
  }
  auto snap = std::make_shared<StoredState>();
  snap->entity_id = entity_id;
  snap->state = std::move(state);
  snap->attributes = std::move(attributes);
  snap->last_changed = (old && same_state) ? old->last_changed : now;
  snap->last_updated = now;
  snap->last_reported = now;
  snap->context = context;
  if (!old) order_.push_back(entity_id);
  states_[entity_id] = snap;
  record(old, snap);
  json::object data{{"entity_id", entity_id},
                    {"old_state", old ? json::value(state_json(*old)) : json::value(nullptr)},
                    {"new_state", state_json(*snap)}};
  fire("state_changed", std::move(data), context, "LOCAL", old, snap);
  return snap;
}

bool StateStore::remove_state(const std::string& entity_id, const Context& context) {
  std::lock_guard lock(mutex_);
  auto it = states_.find(entity_id);
  if (it == states_.end()) return false;
  StatePtr old = it->second;
  states_.erase(it);
  order_.erase(std::remove(order_.begin(), order_.end(), entity_id), order_.end());
  json::object data{{"entity_id", entity_id}, {"old_state", state_json(*old)}, {"new_state", nullptr}};
  fire("state_changed", std::move(data), context, "LOCAL", old, nullptr);
  return true;
}

void StateStore::record(const StatePtr& old_state, const StatePtr& s) {
  auto& h = history_[s->entity_id];
  h.push_back(s);
  if (h.size() > kHistoryCap) h.erase(h.begin(), h.begin() + static_cast<long>(h.size() - kHistoryCap));
  bool state_changed = !old_state || old_state->state != s->state;
  if (!state_changed || s->attributes.contains("unit_of_measurement")) return;  // HA's logbook skips continuous sensors
  LogbookEntry e;
  e.when = s->last_changed;
  e.entity_id = s->entity_id;
  if (const auto* n = s->attributes.if_contains("friendly_name"); n && n->is_string()) e.name = n->get_string();
  e.state = s->state;
  e.domain = std::string(domain_of(s->entity_id));
  e.context = s->context;
  add_logbook(std::move(e));
}

void StateStore::add_logbook(LogbookEntry entry) {
  std::lock_guard lock(mutex_);
  logbook_.push_back(std::move(entry));
  if (logbook_.size() > kLogbookCap) logbook_.erase(logbook_.begin(), logbook_.begin() + kLogbookCap / 10);
}

std::vector<StatePtr> StateStore::history(const std::string& entity_id, Timestamp start, Timestamp end) const {
  std::lock_guard lock(mutex_);
  std::vector<StatePtr> out;
  auto it = history_.find(entity_id);
  if (it == history_.end()) return out;
  const auto& h = it->second;
  // Plausible older data for numeric measurement sensors: hourly points back
  // from the first recorded one (deterministic per entity and hour), so a
  // 24 h history of a temperature sensor is a curve, not one point.
  const StatePtr& first = h.front();
  auto value = numeric_state(first->state);
  const auto* sc = first->attributes.if_contains("state_class");
  if (value && sc && sc->is_string() && sc->get_string() == "measurement") {
    Timestamp t0 = std::max(start, first->last_changed - 86400.0 * 10);
    Timestamp hour = std::floor(t0 / 3600.0) * 3600.0 + 3600.0;
    std::hash<std::string> hasher;
    for (; hour < first->last_changed && hour <= end; hour += 3600.0) {
      uint64_t seed = hasher(entity_id) ^ static_cast<uint64_t>(hour);
      double wobble = std::sin(hour / 86400.0 * 2 * M_PI) * std::max(0.5, std::fabs(*value) * 0.05) +
                      static_cast<double>(seed % 100) / 100.0 - 0.5;
      auto p = std::make_shared<StoredState>();
      static_cast<EntityState&>(*p) = static_cast<const EntityState&>(*first);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1f", *value + wobble);
      p->state = buf;
      p->last_changed = p->last_updated = p->last_reported = hour;
      out.push_back(std::move(p));
    }
  }
  // The state at `start` (last point before it) and every point in the window.
  StatePtr before;
  for (const auto& p : h) {
    if (p->last_updated < start)
      before = p;
    else if (p->last_updated <= end)
      out.push_back(p);
  }
  if (before && (out.empty() || out.front()->last_updated > start)) out.insert(out.begin(), before);
  return out;
}

std::vector<LogbookEntry> StateStore::logbook(Timestamp start, Timestamp end) const {
  std::lock_guard lock(mutex_);
  std::vector<LogbookEntry> out;
  for (const auto& e : logbook_)
    if (e.when >= start && e.when <= end) out.push_back(e);
  return out;
}

EntityRegistryEntry* StateStore::entity_entry(std::string_view entity_id) {
  for (auto& e : home_.entities)
    if (e.entity_id == entity_id) return &e;
  return nullptr;
}

Device* StateStore::device(std::string_view id) {
  for (auto& d : home_.devices)
    if (d.id == id) return &d;
  return nullptr;
}

Area* StateStore::area(std::string_view id) {
  for (auto& a : home_.areas)
    if (a.area_id == id) return &a;
  return nullptr;
}

void StateStore::rename_entity(const std::string& old_id, const std::string& new_id, const Context& context) {
  std::lock_guard lock(mutex_);
  if (auto* e = entity_entry(old_id)) e->entity_id = new_id;
  StatePtr old = get(old_id);
  if (!old) return;
  remove_state(old_id, context);
  set_state(new_id, old->state, old->attributes, context, true);
  if (auto it = history_.find(old_id); it != history_.end()) {
    auto& target = history_[new_id];
    target.insert(target.begin(), it->second.begin(), it->second.end());
    history_.erase(old_id);
  }
}

}  // namespace hamcp::sim
