#include "ha/detail/attribute_keys.hpp"

#include <array>
#include <atomic>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace hamcp::ha::detail {
namespace json = boost::json;

namespace {

struct Table {
  std::mutex mutex;
  std::array<std::atomic<const AttributeKeys*>, kMaxKeyLists> lists{};  // written once each, under mutex
  std::atomic<std::uint32_t> count{0};
  std::unordered_multimap<std::size_t, std::uint16_t> by_hash;  // under mutex
};

// Never destroyed: Attributes in static objects may be read during exit.
Table& table() {
  static Table* const t = new Table();
  return *t;
}

std::size_t hash_keys(const json::object& o) {
  std::size_t h = o.size();
  for (const auto& kv : o) h = h * 1099511628211u ^ std::hash<std::string_view>{}(kv.key());
  return h;
}

}  // namespace

bool same_keys(const json::object& o, const std::vector<std::string>& keys) {
  if (o.size() != keys.size()) return false;
  std::size_t i = 0;
  for (const auto& kv : o)
    if (kv.key() != keys[i++]) return false;
  return true;
}

std::optional<std::uint16_t> intern_attribute_keys(const json::object& o) {
  if (o.empty() || o.size() > kMaxInternedKeys) return std::nullopt;
  const std::size_t hash = hash_keys(o);
  Table& t = table();
  const std::lock_guard lock(t.mutex);
  for (auto [it, end] = t.by_hash.equal_range(hash); it != end; ++it)
    if (same_keys(o, *t.lists[it->second].load(std::memory_order_relaxed))) return it->second;
  const std::uint32_t id = t.count.load(std::memory_order_relaxed);
  if (id == kMaxKeyLists) return std::nullopt;
  auto* keys = new AttributeKeys();
  keys->reserve(o.size());
  for (const auto& kv : o) keys->emplace_back(kv.key());
  t.lists[id].store(keys, std::memory_order_release);
  t.by_hash.emplace(hash, static_cast<std::uint16_t>(id));
  t.count.store(id + 1, std::memory_order_release);
  return static_cast<std::uint16_t>(id);
}

const AttributeKeys& attribute_keys(std::uint16_t id) {
  const AttributeKeys* keys = id < kMaxKeyLists ? table().lists[id].load(std::memory_order_acquire) : nullptr;
  if (!keys) throw std::logic_error("unknown attribute key list");
  return *keys;
}

std::size_t attribute_key_lists() { return table().count.load(std::memory_order_acquire); }

}  // namespace hamcp::ha::detail
