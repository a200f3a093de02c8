#include "search/key_pool.hpp"

#include <algorithm>
#include <functional>

namespace hamcp::search {
namespace {
std::size_t hash_of(std::string_view s) { return std::hash<std::string_view>{}(s); }
}  // namespace

KeyId KeyPool::acquire(std::string_view key) {
  if (key.empty()) return kNoKey;
  const std::size_t h = hash_of(key);
  if (auto id = ids_.find(h, [&](KeyId k) { return texts_[k] == key; })) {
    ++holders_[*id];
    return *id;
  }
  KeyId id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
    texts_[id] = std::string(key);
    holders_[id] = 1;
  } else {
    id = static_cast<KeyId>(texts_.size());
    texts_.emplace_back(key);
    holders_.push_back(1);
  }
  ids_.insert(id, h, [&](KeyId k) { return hash_of(texts_[k]); });
  return id;
}

void KeyPool::release(KeyId id) {
  if (id >= texts_.size() || holders_[id] == 0) return;  // kNoKey, or not held
  if (--holders_[id] > 0) return;
  ids_.erase(id, hash_of(texts_[id]));
  texts_[id].clear();
  texts_[id].shrink_to_fit();
  free_.push_back(id);
}

KeyId KeyPool::find(std::string_view key) const {
  auto id = ids_.find(hash_of(key), [&](KeyId k) { return texts_[k] == key; });
  return id ? *id : kAbsentKey;
}

std::size_t KeyPool::heap_bytes() const {
  std::size_t bytes = ids_.heap_bytes() + texts_.capacity() * sizeof(std::string) +
                      holders_.capacity() * sizeof(std::uint32_t) + free_.capacity() * sizeof(KeyId);
  for (const auto& t : texts_) bytes += t.capacity() > 15 ? t.capacity() + 1 : 0;
  return bytes;
}

void FilterKeys::set_lists(const std::vector<KeyId>& all, std::uint8_t area_count, std::uint8_t floor_count) {
  areas = area_count;
  floors = floor_count;
  labels = static_cast<std::uint8_t>(all.size() - area_count - floor_count);
  lists.reset();
  if (all.empty()) return;
  lists = std::make_unique<KeyId[]>(all.size());
  std::copy(all.begin(), all.end(), lists.get());
}

void FilterKeys::release(KeyPool& pool) {
  for (KeyId k : {domain, state, device_class}) pool.release(k);
  for (std::size_t i = 0; i < list_size(); ++i) pool.release(lists[i]);
  domain = state = device_class = kNoKey;
  areas = floors = labels = 0;
  lists.reset();
}

}  // namespace hamcp::search
