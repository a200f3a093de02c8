#pragma once
// An open-addressing hash set of 32-bit ids whose keys live elsewhere (an
// entity's id in its packed document, a token's text in the vocabulary). A
// node map keyed by a copy of each key cost ~100 bytes per entry and a key
// copy per lookup; this costs 8 bytes per bucket (the id and 32 bits of its
// key's hash) and compares keys only on a hash match.
//
// The caller supplies the hash of the key it looks up and, where keys must be
// compared or rehashed, how to get an id's key: the table stores no keys.
// Not thread-safe: its owner serialises it (IndexStore's lock; a Registry is built by
// one thread and only read afterwards).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace hamcp::common {

class IdTable {
 public:
  std::size_t size() const noexcept { return size_; }
  std::size_t heap_bytes() const noexcept { return buckets_.capacity() * sizeof(Bucket); }

  // The id whose key equals the looked-up one: same_key(id) compares it.
  template <typename SameKey>
  std::optional<std::uint32_t> find(std::size_t hash, SameKey&& same_key) const {
    if (buckets_.empty()) return std::nullopt;
    const auto h = static_cast<std::uint32_t>(hash);
    for (std::size_t i = hash & mask(), probes = 0; probes < buckets_.size(); i = (i + 1) & mask(), ++probes) {
      const Bucket& b = buckets_[i];
      if (b.id == kEmpty) return std::nullopt;
      if (b.id != kGone && b.hash == h && same_key(b.id)) return b.id;
    }
    return std::nullopt;
  }

  // Adds an id whose key is not in the table yet; hash_of(id) gives any
  // stored id's key hash when the table grows.
  template <typename HashOf>
  void insert(std::uint32_t id, std::size_t hash, HashOf&& hash_of) {
    if ((size_ + gone_ + 1) * 4 > buckets_.size() * 3) grow(size_ + 1, hash_of);
    place(id, static_cast<std::uint32_t>(hash), hash);
    ++size_;
  }

  // Removes the id with that key hash; false when it is not stored.
  bool erase(std::uint32_t id, std::size_t hash) {
    if (buckets_.empty()) return false;
    for (std::size_t i = hash & mask(), probes = 0; probes < buckets_.size(); i = (i + 1) & mask(), ++probes) {
      Bucket& b = buckets_[i];
      if (b.id == kEmpty) return false;
      if (b.id == id) {
        b.id = kGone;
        --size_;
        ++gone_;
        return true;
      }
    }
    return false;
  }

  // Room for n ids without growing.
  template <typename HashOf>
  void reserve(std::size_t n, HashOf&& hash_of) {
    if (n * 4 > buckets_.size() * 3) grow(n, hash_of);
  }

  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const Bucket& b : buckets_)
      if (b.id != kEmpty && b.id != kGone) fn(b.id);
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xffffffffu;
  static constexpr std::uint32_t kGone = 0xfffffffeu;  // erased: probing continues past it
  struct Bucket {
    std::uint32_t id = kEmpty;
    std::uint32_t hash = 0;
  };

  std::size_t mask() const noexcept { return buckets_.size() - 1; }

  void place(std::uint32_t id, std::uint32_t h, std::size_t hash) {
    std::size_t i = hash & mask();
    while (buckets_[i].id != kEmpty && buckets_[i].id != kGone) i = (i + 1) & mask();
    if (buckets_[i].id == kGone) --gone_;
    buckets_[i] = Bucket{id, h};
  }

  // Rehashes into a power-of-two table at most 3/4 full with n ids (tombstones dropped).
  template <typename HashOf>
  void grow(std::size_t n, HashOf&& hash_of) {
    std::size_t cap = 16;
    while (n * 4 > cap * 3) cap *= 2;
    std::vector<Bucket> old(cap);
    old.swap(buckets_);
    gone_ = 0;
    for (const Bucket& b : old)
      if (b.id != kEmpty && b.id != kGone) {
        const std::size_t hash = hash_of(b.id);
        place(b.id, static_cast<std::uint32_t>(hash), hash);
      }
  }

  std::vector<Bucket> buckets_;
  std::size_t size_ = 0;
  std::size_t gone_ = 0;
};

}  // namespace hamcp::common
