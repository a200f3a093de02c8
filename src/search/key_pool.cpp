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

namespace {
std::size_t list_hash(const KeyId* keys, std::size_t n) {
  return std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(keys), n * sizeof(KeyId)));
}
}  // namespace

const KeyId* KeyLists::acquire(const KeyId* keys, std::size_t n) {
  if (n == 0) return nullptr;
  const std::size_t h = list_hash(keys, n);
  auto same = [&](std::uint32_t id) {
    const List& l = lists_[id];
    return l.size == n && std::equal(keys, keys + n, l.keys.get());
  };
  if (auto id = ids_.find(h, same)) {
    ++lists_[*id].holders;
    return lists_[*id].keys.get();
  }
  std::uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<std::uint32_t>(lists_.size());
    lists_.emplace_back();
  }
  List& l = lists_[id];
  l.keys = std::make_unique<KeyId[]>(n);
  std::copy(keys, keys + n, l.keys.get());
  l.size = static_cast<std::uint32_t>(n);
  l.holders = 1;
  ids_.insert(id, h, [&](std::uint32_t other) { return list_hash(lists_[other].keys.get(), lists_[other].size); });
  return l.keys.get();
}

void KeyLists::release(const KeyId* list, std::size_t n) {
  if (!list) return;
  const std::size_t h = list_hash(list, n);
  auto id = ids_.find(h, [&](std::uint32_t other) { return lists_[other].keys.get() == list; });
  if (!id || --lists_[*id].holders > 0) return;
  ids_.erase(*id, h);
  lists_[*id] = List{};
  free_.push_back(*id);
}

std::size_t KeyLists::heap_bytes() const {
  std::size_t bytes = ids_.heap_bytes() + lists_.capacity() * sizeof(List) + free_.capacity() * sizeof(std::uint32_t);
  for (const auto& l : lists_) bytes += l.size * sizeof(KeyId);
  return bytes;
}

FilterKeys& FilterKeys::operator=(FilterKeys&& other) noexcept {
  if (this == &other) return *this;
  domain = other.domain;
  state = other.state;
  device_class = other.device_class;
  areas = other.areas;
  floors = other.floors;
  labels = other.labels;
  lists = other.lists;
  other.domain = other.state = other.device_class = kNoKey;
  other.areas = other.floors = other.labels = 0;
  other.lists = nullptr;
  return *this;
}

void FilterKeys::set_lists(KeyLists& shared, const std::vector<KeyId>& all, std::uint8_t area_count,
                           std::uint8_t floor_count) {
  const KeyId* held = lists;
  const std::size_t held_size = list_size();
  lists = shared.acquire(all.data(), all.size());  // before releasing: an unchanged list stays stored
  shared.release(held, held_size);
  areas = area_count;
  floors = floor_count;
  labels = static_cast<std::uint8_t>(all.size() - area_count - floor_count);
}

void FilterKeys::release(KeyPool& pool, KeyLists& shared) {
  for (KeyId k : {domain, state, device_class}) pool.release(k);
  for (std::size_t i = 0; i < list_size(); ++i) pool.release(lists[i]);
  shared.release(lists, list_size());
  domain = state = device_class = kNoKey;
  areas = floors = labels = 0;
  lists = nullptr;
}

}  // namespace hamcp::search
