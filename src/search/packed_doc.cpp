#include "search/packed_doc.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace hamcp::search {
namespace {

// A text is a length byte and its bytes (255: a four-byte length follows), or
// 250 and the index of an equal text packed before it (a device is often named
// like its entity), or 251 and 16 bytes for a 32-digit lowercase hex id (device
// ids) at half size. A list is its count (one byte; 255: four bytes follow)
// and its texts.
constexpr unsigned char kLong = 255, kRepeat = 250, kHexId = 251;
constexpr std::size_t kMaxRefs = 64;  // texts a repeat can point back to

bool is_hex_id(std::string_view s) {
  return s.size() == 32 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}
int hex_value(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void text(std::string_view s) {
    if (repeat(s)) return;
    remember(s);
    length(s.size(), kRepeat);
    out_.append(s);
  }
  // A text that is often a 32-digit hex id (a device id): packed at half size then.
  void id(std::string_view s) {
    if (!is_hex_id(s)) return text(s);
    if (repeat(s)) return;
    out_.push_back(static_cast<char>(kHexId));  // not remembered: the reader decodes it into scratch space
    for (std::size_t i = 0; i < 32; i += 2)
      out_.push_back(static_cast<char>(hex_value(s[i]) * 16 + hex_value(s[i + 1])));
  }
  void list(const std::vector<std::string>& v) {
    length(v.size(), kLong);
    for (const auto& s : v) text(s);
  }

 private:
  // One byte below `limit`, else kLong and four bytes.
  void length(std::size_t n, unsigned char limit) {
    if (n < limit) {
      out_.push_back(static_cast<char>(n));
      return;
    }
    out_.push_back(static_cast<char>(kLong));
    const auto n32 = static_cast<std::uint32_t>(n);
    out_.append(reinterpret_cast<const char*>(&n32), sizeof n32);
  }
  void remember(std::string_view s) {
    if (seen_count_ < kMaxRefs) seen_[seen_count_++] = s;
  }
  bool repeat(std::string_view s) {
    if (s.empty()) return false;
    for (std::size_t i = 0; i < seen_count_; ++i)
      if (seen_[i] == s) {
        out_.push_back(static_cast<char>(kRepeat));
        out_.push_back(static_cast<char>(i));
        return true;
      }
    return false;
  }

  std::string& out_;
  std::array<std::string_view, kMaxRefs> seen_{};  // views of the caller's strings
  std::size_t seen_count_ = 0;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : at_(bytes.data()) {}
  // A hex id is decoded into `scratch`, which must outlive the returned view.
  std::string_view text(std::string& scratch) {
    const auto tag = static_cast<unsigned char>(*at_++);
    if (tag == kRepeat) {
      const Ref r = seen_[static_cast<unsigned char>(*at_++)];
      return std::string_view(r.at, r.size);
    }
    if (tag == kHexId) {
      static constexpr char kDigits[] = "0123456789abcdef";
      scratch.clear();
      for (int i = 0; i < 16; ++i) {
        const auto b = static_cast<unsigned char>(at_[i]);
        scratch.push_back(kDigits[b >> 4]);
        scratch.push_back(kDigits[b & 15]);
      }
      at_ += 16;
      return scratch;
    }
    const std::uint32_t n = length(tag);
    const std::string_view s(at_, n);
    at_ += n;
    if (seen_count_ < kMaxRefs) seen_[seen_count_++] = Ref{s.data(), n};
    return s;
  }
  std::string_view text() { return text(scratch_); }
  std::vector<std::string> list() {
    const std::uint32_t n = length(static_cast<unsigned char>(*at_++));
    std::vector<std::string> v;
    v.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) v.emplace_back(text());
    return v;
  }

 private:
  std::uint32_t length(unsigned char tag) {
    std::uint32_t n = tag;
    if (tag == kLong) {
      std::memcpy(&n, at_, sizeof n);
      at_ += sizeof n;
    }
    return n;
  }

  struct Ref {
    const char* at;
    std::uint32_t size;
  };
  const char* at_;      // our own packing: every read stays inside it
  Ref seen_[kMaxRefs];  // filled as texts are read (trivial: no set-up cost per reader)
  std::size_t seen_count_ = 0;
  std::string scratch_;
};

}  // namespace

namespace {

bool has_place(const EntityDoc& d) {
  return !d.area_id.empty() || !d.area_name.empty() || !d.area_aliases.empty() || !d.floor_id.empty() ||
         !d.floor_name.empty() || !d.floor_aliases.empty();
}

std::string pack_place(const EntityDoc& d) {
  std::string out;
  Writer w(out);
  w.text(d.area_id);
  w.text(d.area_name);
  w.list(d.area_aliases);
  w.text(d.floor_id);
  w.text(d.floor_name);
  w.list(d.floor_aliases);
  return out;
}

}  // namespace

PackedDoc::PackedDoc(const EntityDoc& d, PlacePool* pool) : hidden_(d.hidden), disabled_(d.disabled) {
  std::string out;
  out.reserve(64 + d.entity_id.size() + d.friendly_name.size() + d.device_name.size());
  Writer w(out);
  for (const std::string* s : {&d.entity_id, &d.domain, &d.friendly_name, &d.registry_name, &d.original_name})
    w.text(*s);
  w.list(d.aliases);
  w.id(d.device_id);
  for (const std::string* s : {&d.device_name, &d.manufacturer, &d.model}) w.text(*s);
  w.list(d.labels);
  w.text(d.device_class);
  w.text(d.state);
  bytes_ = std::make_unique_for_overwrite<char[]>(out.size());
  std::memcpy(bytes_.get(), out.data(), out.size());
  size_ = static_cast<std::uint32_t>(out.size());
  if (has_place(d)) place_ = pool ? pool->share(pack_place(d)) : std::make_shared<const std::string>(pack_place(d));
}

EntityDoc PackedDoc::unpack() const {
  EntityDoc d;
  if (size_ == 0) return d;
  Reader r(bytes());
  for (std::string* s : {&d.entity_id, &d.domain, &d.friendly_name, &d.registry_name, &d.original_name}) *s = r.text();
  d.aliases = r.list();
  for (std::string* s : {&d.device_id, &d.device_name, &d.manufacturer, &d.model}) *s = r.text();
  d.labels = r.list();
  d.device_class = r.text();
  d.state = r.text();
  if (place_) {
    Reader p(*place_);
    d.area_id = p.text();
    d.area_name = p.text();
    d.area_aliases = p.list();
    d.floor_id = p.text();
    d.floor_name = p.text();
    d.floor_aliases = p.list();
  }
  d.hidden = hidden_;
  d.disabled = disabled_;
  return d;
}

std::shared_ptr<const std::string> PlacePool::share(std::string packed) {
  if (auto it = places_.find(packed); it != places_.end()) return it->second;
  if (++added_since_sweep_ > places_.size() && places_.size() >= 64) drop_unused();  // amortised O(1)
  auto shared = std::make_shared<const std::string>(std::move(packed));
  places_.emplace(std::string_view(*shared), shared);
  return shared;
}

void PlacePool::drop_unused() {
  added_since_sweep_ = 0;
  std::erase_if(places_, [](const auto& kv) { return kv.second.use_count() == 1; });
}

std::size_t PlacePool::heap_bytes() const noexcept {
  std::size_t bytes = places_.bucket_count() * sizeof(void*);
  for (const auto& [view, place] : places_) bytes += 64 + sizeof(std::string) + place->capacity() + 32;
  return bytes;
}

std::string_view PackedDoc::entity_id() const {
  if (size_ == 0) return {};
  // The first text: never a repeat or a hex id (only the device id is packed as one).
  return Reader(bytes()).text();
}

}  // namespace hamcp::search
