#include "ha/snapshot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "ha/detail/ha_json.hpp"

namespace hamcp::ha {
namespace json = boost::json;

Attributes::Attributes(const json::object& attributes) {
  if (!attributes.empty()) {
    text_ = json::serialize(attributes);
    text_.shrink_to_fit();
  }
}

namespace {
// Our own serialization of what HA sent: it parses (with the depth limit of
// the frame it came in).
json::value parse_stored(std::string_view text, json::storage_ptr storage) {
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = detail::kHaJsonMaxDepth;
  json::value v = json::parse(text, ec, std::move(storage), options);
  if (ec) return json::value();
  return v;  // moved: `ec ? json::value() : v` copied every parsed value
}
}  // namespace

json::object Attributes::parse(json::storage_ptr storage) const {
  if (text_.empty()) return json::object(std::move(storage));
  json::value v = parse_stored(text_, storage);
  if (!v.is_object()) return json::object(std::move(storage));
  return std::move(v.as_object());
}

std::string Attributes::string_of(std::string_view key) const {
  if (text_.empty()) return {};
  const json::object o = parse();
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

json::object EntityState::to_json() const {
  json::object o;
  o["entity_id"] = entity_id;
  o["state"] = state;
  o["attributes"] = attributes.parse();
  o["last_changed"] = format_iso_time(last_changed);
  o["last_reported"] = format_iso_time(last_reported);
  o["last_updated"] = format_iso_time(last_updated);
  json::object ctx;
  ctx["id"] = context.id();
  ctx["parent_id"] = context.parent_id().empty() ? json::value(nullptr) : json::value(context.parent_id());
  ctx["user_id"] = context.user_id().empty() ? json::value(nullptr) : json::value(context.user_id());
  o["context"] = std::move(ctx);
  return o;
}

namespace {
std::string_view view_or_empty(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string_view(v->as_string()) : std::string_view();
}
std::string str_or_empty(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}
double time_or(const json::object& o, std::string_view key, double fallback) {
  const auto* v = o.if_contains(key);
  if (!v) return fallback;
  if (v->is_string()) return parse_iso_time(v->as_string()).value_or(fallback);
  if (v->is_number()) return v->to_number<double>();
  return fallback;
}
}  // namespace

std::optional<EntityState> EntityState::from_json(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return std::nullopt;
  EntityState s;
  s.entity_id = str_or_empty(*o, "entity_id");
  if (s.entity_id.empty()) return std::nullopt;
  s.state = str_or_empty(*o, "state");
  if (const auto* a = o->if_contains("attributes"); a && a->is_object()) s.attributes = Attributes(a->as_object());
  s.last_changed = time_or(*o, "last_changed", 0);
  s.last_updated = time_or(*o, "last_updated", s.last_changed);
  s.last_reported = time_or(*o, "last_reported", s.last_updated);
  if (const auto* c = o->if_contains("context"); c && c->is_object()) {
    const json::object& ctx = c->as_object();
    s.context = StateContext(view_or_empty(ctx, "id"), view_or_empty(ctx, "parent_id"), view_or_empty(ctx, "user_id"));
  }
  return s;
}

// ---------------- StateTable ----------------

namespace {
std::size_t shard_of(std::string_view id) { return std::hash<std::string_view>{}(id) % StateTable::kShards; }
const std::shared_ptr<const StateTable::Shard>& empty_shard() {
  static const auto empty = std::make_shared<const StateTable::Shard>();
  return empty;
}
}  // namespace

StateTable::StateTable() { shards_.fill(empty_shard()); }

EntityStatePtr StateTable::find(std::string_view id) const {
  const auto& shard = *shards_[shard_of(id)];
  auto it = shard.find(id);
  return it == shard.end() ? nullptr : it->second;
}

void StateTable::for_each(const std::function<void(const EntityStatePtr&)>& fn) const {
  for (const auto& shard : shards_) {
    for (const auto& [id, st] : *shard) fn(st);
  }
}

std::vector<std::string> StateTable::entity_ids() const {
  std::vector<std::string> ids;
  ids.reserve(size_);
  for (const auto& shard : shards_) {
    for (const auto& [id, st] : *shard) ids.emplace_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void StateTable::for_each_difference(const StateTable& before, const Difference& fn) const {
  static const EntityStatePtr absent;
  for (std::size_t i = 0; i < kShards; ++i) {
    const Shard& now = *shards_[i];
    const Shard& was = *before.shards_[i];
    if (&now == &was) continue;
    for (const auto& [id, st] : now) {
      const auto old = was.find(id);
      if (old == was.end())
        fn(id, absent, st);
      else if (old->second != st)
        fn(id, old->second, st);
    }
    for (const auto& [id, st] : was)
      if (!now.count(id)) fn(id, st, absent);
  }
}

StateTableBuilder::StateTableBuilder(const StateTable& base) : table_(base) {}

EntityStatePtr StateTableBuilder::find(std::string_view id) const { return table_.find(id); }

StateTable::Shard& StateTableBuilder::writable(std::size_t index) {
  if (!owned_[index]) {
    owned_[index] = std::make_shared<StateTable::Shard>(*table_.shards_[index]);
    table_.shards_[index] = owned_[index];
  }
  return *owned_[index];
}

void StateTableBuilder::put(EntityStatePtr state) {
  auto& shard = writable(shard_of(state->entity_id));
  // The key views the old state's entity_id: drop that entry before the old
  // state can go, then key the new entry by the new state's own string.
  if (shard.erase(state->entity_id) == 0) ++table_.size_;
  const std::string_view key = state->entity_id;
  shard.emplace(key, std::move(state));
}

bool StateTableBuilder::erase(const std::string& id) {
  const auto index = shard_of(id);
  if (!table_.shards_[index]->count(std::string_view(id))) return false;
  writable(index).erase(std::string_view(id));
  --table_.size_;
  return true;
}

void StateTableBuilder::clear() {
  table_ = StateTable();
  owned_ = {};
}

StateTable StateTableBuilder::build() {
  owned_ = {};  // later writes to this builder copy again
  return table_;
}

// ---------------- registries ----------------

std::string_view to_string(RegistryKind kind) noexcept {
  switch (kind) {
    case RegistryKind::entity:
      return "entity";
    case RegistryKind::device:
      return "device";
    case RegistryKind::area:
      return "area";
    case RegistryKind::floor:
      return "floor";
    case RegistryKind::label:
      return "label";
    case RegistryKind::category:
      return "category";
  }
  return "unknown";
}

std::string_view registry_key_field(RegistryKind kind) noexcept {
  switch (kind) {
    case RegistryKind::entity:
      return "entity_id";
    case RegistryKind::device:
      return "id";
    case RegistryKind::area:
      return "area_id";
    case RegistryKind::floor:
      return "floor_id";
    case RegistryKind::label:
      return "label_id";
    case RegistryKind::category:
      return "category_id";
  }
  return "id";
}

const Registry& Snapshot::registry(RegistryKind kind) const {
  static const Registry empty;
  const auto& r = registries[static_cast<std::size_t>(kind)];
  return r ? *r : empty;
}

}  // namespace hamcp::ha
