// ha::Registry: a registry list packed item by item (see snapshot.hpp), its
// index by key field and the lookups. Building runs on one thread
// (Registry::Builder); a finished Registry is immutable and shared.
#include <boost/json/monotonic_resource.hpp>
#include <functional>
#include <map>
#include <vector>

#include "ha/detail/attribute_keys.hpp"
#include "ha/detail/json_items.hpp"
#include "ha/snapshot.hpp"

namespace hamcp::ha {
namespace json = boost::json;

namespace {

std::size_t key_hash(std::string_view key) noexcept { return std::hash<std::string_view>{}(key); }

}  // namespace

RegistryItem Registry::find(std::string_view key, json::storage_ptr storage) const {
  const auto position = index_.find(key_hash(key), [&](std::uint32_t i) { return items_[i].key() == key; });
  if (!position) return {};
  json::value v = item(*position, std::move(storage));
  return v.is_object() ? RegistryItem(std::move(v.as_object())) : RegistryItem();
}

bool Registry::visit(std::string_view key, const MemberVisitor& fn) const {
  const auto position = index_.find(key_hash(key), [&](std::uint32_t i) { return items_[i].key() == key; });
  if (!position || items_[*position].shape == kNoShape) return false;
  const Stored& stored = items_[*position];
  std::string_view in = stored.bytes();
  std::string scratch;  // hex strings decoded
  for (const auto& name : shapes_[stored.shape]) fn(PackedMember(name, detail::take_value(in), pool_, scratch));
  return true;
}

json::value Registry::item(std::size_t i, json::storage_ptr storage) const {
  const Stored& stored = items_.at(i);
  std::string_view in = stored.bytes();
  if (stored.shape == kNoShape) return detail::unpack_value(in, pool_, storage);
  const auto& keys = shapes_[stored.shape];
  json::object o(storage);
  o.reserve(keys.size());
  for (const auto& key : keys) o.emplace(key, detail::unpack_value(in, pool_, storage));
  return o;
}

void Registry::for_each(const std::function<void(const json::value&)>& fn) const {
  for (std::size_t i = 0; i < items_.size(); ++i) {
    unsigned char buffer[4096];
    json::monotonic_resource arena(buffer, sizeof buffer);
    const json::value v = item(i, &arena);
    fn(v);
  }
}

void Registry::for_each_key(const std::function<void(std::string_view key)>& fn) const {
  for (const Stored& stored : items_)
    if (stored.key_at != kNoKey) fn(stored.key());
}

// Fills one registry item by item, then freezes it. The scratch buffers are
// reused from item to item: a 100k-entry list costs no allocation per item
// beyond what the registry keeps.
class Registry::Builder {
 public:
  Builder(RegistryKind kind, bool available, std::size_t expected)
      : registry_(std::make_shared<Registry>()), field_(registry_key_field(kind)) {
    registry_->available = available;
    registry_->items_.reserve(expected);
    registry_->index_.reserve(expected, [](std::uint32_t) { return std::size_t{0}; });  // empty: nothing to rehash
  }

  void add(const json::value& item) {
    scratch_.clear();
    inline_strings_.clear();
    detail::PackedWriter writer{registry_->pool_, scratch_, inline_strings_};
    Stored stored;
    if (const auto* o = item.if_object()) {
      for (const auto& kv : *o) {
        // The key field is written as plain text so the index can view it in place.
        if (stored.key_at == kNoKey && kv.key() == field_ && kv.value().is_string()) {
          const std::string_view key = kv.value().get_string();
          stored.key_at = static_cast<std::uint32_t>(writer.plain_string(key));
          stored.key_size = static_cast<std::uint32_t>(key.size());
        } else {
          writer.value(kv.value());
        }
      }
      stored.shape = shape_of(*o);
    } else {
      writer.value(item);
    }
    const std::string_view bytes = registry_->bytes_.append(scratch_);
    stored.data = bytes.data();
    stored.size = static_cast<std::uint32_t>(bytes.size());
    for (const auto& [at, size] : inline_strings_) registry_->pool_.remember(bytes.substr(at, size));
    registry_->items_.push_back(stored);
    if (stored.key_at != kNoKey) index(static_cast<std::uint32_t>(registry_->items_.size() - 1));
  }

  RegistryPtr finish() {
    registry_->pool_.freeze();
    registry_->items_.shrink_to_fit();  // a list read from text grew by doubling
    return std::move(registry_);
  }

 private:
  // Entries of one registry nearly all have the same keys in the same order:
  // compare with the previous item's shape first (no allocation), and build
  // the key list for the map only when the shape changes.
  std::uint32_t shape_of(const json::object& o) {
    if (last_shape_ != kNoShape && detail::same_keys(o, registry_->shapes_[last_shape_])) return last_shape_;
    std::vector<std::string> keys;
    keys.reserve(o.size());
    for (const auto& kv : o) keys.emplace_back(kv.key());
    auto [it, fresh] = shape_ids_.try_emplace(std::move(keys), static_cast<std::uint32_t>(registry_->shapes_.size()));
    if (fresh) registry_->shapes_.push_back(it->first);
    last_shape_ = it->second;
    return last_shape_;
  }

  // The first item with a key wins (as with HA's list order before).
  void index(std::uint32_t position) {
    const auto& items = registry_->items_;
    const std::string_view key = items[position].key();
    const std::size_t hash = key_hash(key);
    if (registry_->index_.find(hash, [&](std::uint32_t i) { return items[i].key() == key; })) return;
    key_hashes_.resize(items.size());
    key_hashes_[position] = hash;
    registry_->index_.insert(position, hash, [&](std::uint32_t i) { return key_hashes_[i]; });
  }

  std::shared_ptr<Registry> registry_;
  std::string_view field_;
  std::map<std::vector<std::string>, std::uint32_t> shape_ids_;
  std::uint32_t last_shape_ = kNoShape;
  // Each indexed item's key hash, by position, for the index's rehashes: a
  // list read from text has no size up front, so the index grows by doubling,
  // and hashing every key again read each item's bytes back from all over
  // the registry's chunks (~30 % of decoding a 100k-entity list). Freed with
  // the builder (8 bytes an item).
  std::vector<std::size_t> key_hashes_;
  std::string scratch_;
  std::vector<std::pair<std::size_t, std::size_t>> inline_strings_;
};

RegistryPtr Registry::make(RegistryKind kind, json::array items, bool available) {
  Builder builder(kind, available, items.size());
  for (auto& item : items) {
    builder.add(item);
    item = nullptr;  // free this item's DOM now: the whole list never exists twice
  }
  return builder.finish();
}

RegistryPtr Registry::make_from_text(RegistryKind kind, std::string_view list, boost::system::error_code& ec) {
  Builder builder(kind, true, 0);
  if (!detail::for_each_item(
          list, [&](json::value& item) { builder.add(item); }, ec))
    return nullptr;
  return builder.finish();
}

}  // namespace hamcp::ha
