#include "ha/snapshot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "common/json_fields.hpp"
#include "ha/detail/attribute_keys.hpp"
#include "ha/detail/ha_json.hpp"

namespace hamcp::ha {
namespace json = boost::json;

namespace {

// The encoding after the size prefix: a 2-byte key list code (0: the keys
// are stored with the values, as one packed object; else the interned list's
// id + 1), then the packed values in the list's order.
constexpr std::size_t kPrefix = sizeof(std::uint32_t);
constexpr std::size_t kCode = sizeof(std::uint16_t);

const detail::StringPool& no_pool() {
  static const detail::StringPool pool;  // attributes pool no strings
  return pool;
}

}  // namespace

Attributes::Attributes(const json::object& attributes) {
  if (attributes.empty()) return;
  thread_local std::string out;
  thread_local std::vector<std::pair<std::size_t, std::size_t>> inline_strings;
  out.assign(kPrefix + kCode, '\0');
  inline_strings.clear();
  detail::StringPool pool;  // empty: nothing is pooled (a lookup finds nothing)
  detail::PackedWriter writer{pool, out, inline_strings};
  const auto keys = detail::intern_attribute_keys(attributes);
  const std::uint16_t code = keys ? static_cast<std::uint16_t>(*keys + 1) : 0;
  if (keys)
    writer.values_of(attributes);
  else
    writer.value(attributes);
  const auto size = static_cast<std::uint32_t>(out.size() - kPrefix);
  std::memcpy(out.data(), &size, kPrefix);
  std::memcpy(out.data() + kPrefix, &code, kCode);
  data_ = std::make_unique_for_overwrite<char[]>(out.size());
  std::memcpy(data_.get(), out.data(), out.size());
}

Attributes::Attributes(const Attributes& other) {
  const std::string_view b = other.block();
  if (b.empty()) return;
  data_ = std::make_unique_for_overwrite<char[]>(b.size());
  std::memcpy(data_.get(), b.data(), b.size());
}

Attributes& Attributes::operator=(const Attributes& other) {
  if (this != &other) *this = Attributes(other);
  return *this;
}

std::string_view Attributes::block() const noexcept {
  if (!data_) return {};
  std::uint32_t size = 0;
  std::memcpy(&size, data_.get(), kPrefix);
  return {data_.get(), kPrefix + size};
}

json::object Attributes::parse(json::storage_ptr storage) const {
  json::object o(storage);
  std::string_view in = block();
  if (in.empty()) return o;
  in.remove_prefix(kPrefix);
  std::uint16_t code = 0;
  std::memcpy(&code, in.data(), kCode);
  in.remove_prefix(kCode);
  if (code == 0) {
    json::value v = detail::unpack_value(in, no_pool(), storage);
    if (v.is_object()) o = std::move(v.as_object());
    return o;
  }
  const detail::AttributeKeys& keys = detail::attribute_keys(static_cast<std::uint16_t>(code - 1));
  o.reserve(keys.size());
  for (const auto& key : keys) o.emplace(key, detail::unpack_value(in, no_pool(), storage));
  return o;
}

// Read in place: a caller after one string (a name) decodes no other value.
std::string Attributes::string_of(std::string_view key) const {
  std::string out;
  bool seen = false;  // the first member with the key counts, as in parse()'s object
  visit([&](const PackedMember& m) {
    if (seen || m.key() != key) return;
    seen = true;
    out = m.string();
  });
  return out;
}

void Attributes::visit(const MemberVisitor& fn) const {
  std::string_view in = block();
  if (in.empty()) return;
  in.remove_prefix(kPrefix);
  std::uint16_t code = 0;
  std::memcpy(&code, in.data(), kCode);
  in.remove_prefix(kCode);
  std::string scratch, key_scratch;  // hex strings decoded
  if (code == 0) {
    detail::for_each_member(in, no_pool(), key_scratch, [&](std::string_view key, std::string_view value) {
      fn(PackedMember(key, value, no_pool(), scratch));
    });
    return;
  }
  for (const auto& key : detail::attribute_keys(static_cast<std::uint16_t>(code - 1)))
    fn(PackedMember(key, detail::take_value(in), no_pool(), scratch));
}

std::string Attributes::text() const { return data_ ? json::serialize(parse()) : std::string("{}"); }

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
  s.entity_id = string_or_empty(*o, "entity_id");
  if (s.entity_id.empty()) return std::nullopt;
  s.state = string_or_empty(*o, "state");
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
bool id_less(const EntityStatePtr& s, std::string_view id) { return s->entity_id < id; }
// Where id is or would go in a sorted shard.
template <typename Shard>
auto position(Shard& shard, std::string_view id) {
  return std::lower_bound(shard.begin(), shard.end(), id, id_less);
}
}  // namespace

StateTable::StateTable() { shards_.fill(empty_shard()); }

EntityStatePtr StateTable::find(std::string_view id) const {
  const auto& shard = *shards_[shard_of(id)];
  const auto it = position(shard, id);
  return it != shard.end() && (*it)->entity_id == id ? *it : nullptr;
}

void StateTable::for_each(const std::function<void(const EntityStatePtr&)>& fn) const {
  for (const auto& shard : shards_) {
    for (const auto& st : *shard) fn(st);
  }
}

std::vector<std::string> StateTable::entity_ids() const {
  std::vector<std::string> ids;
  ids.reserve(size_);
  for (const auto& shard : shards_) {
    for (const auto& st : *shard) ids.emplace_back(st->entity_id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Both shards are sorted by id: one merge walk.
void StateTable::for_each_difference(const StateTable& before, const Difference& fn) const {
  static const EntityStatePtr absent;
  for (std::size_t i = 0; i < kShards; ++i) {
    const Shard& now = *shards_[i];
    const Shard& was = *before.shards_[i];
    if (&now == &was) continue;
    auto n = now.begin();
    auto w = was.begin();
    while (n != now.end() || w != was.end()) {
      if (w == was.end() || (n != now.end() && (*n)->entity_id < (*w)->entity_id)) {
        fn((*n)->entity_id, absent, *n);
        ++n;
      } else if (n == now.end() || (*w)->entity_id < (*n)->entity_id) {
        fn((*w)->entity_id, *w, absent);
        ++w;
      } else {
        if (*n != *w) fn((*n)->entity_id, *w, *n);
        ++n;
        ++w;
      }
    }
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
  const auto it = position(shard, state->entity_id);
  if (it != shard.end() && (*it)->entity_id == state->entity_id) {
    *it = std::move(state);
    return;
  }
  shard.insert(it, std::move(state));
  ++table_.size_;
}

bool StateTableBuilder::erase(const std::string& id) {
  const auto index = shard_of(id);
  const auto& shard = *table_.shards_[index];
  const auto found = position(shard, id);
  if (found == shard.end() || (*found)->entity_id != id) return false;
  auto& mine = writable(index);
  mine.erase(position(mine, id));
  --table_.size_;
  return true;
}

void StateTableBuilder::clear() {
  table_ = StateTable();
  owned_ = {};
}

StateTable StateTableBuilder::build() {
  for (auto& shard : owned_)
    if (shard) shard->shrink_to_fit();  // the inserts' doubling slack (a shard is copied exactly on its next write)
  owned_ = {};                          // later writes to this builder copy again
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
