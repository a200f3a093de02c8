#include "ha/detail/packed_json.hpp"

#include <array>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "common/byte_lanes.hpp"

namespace hamcp::ha::detail {
namespace json = boost::json;

namespace {

enum Tag : unsigned char {
  kNull = 0,
  kFalse = 1,
  kTrue = 2,
  kInt = 3,     // zigzag varint
  kUint = 4,    // varint
  kDouble = 5,  // 8 bytes, host order (never leaves the process)
  kString = 6,  // varint length + bytes
  kPooled = 7,  // varint pool index
  kHex = 8,     // varint byte count + bytes: the lowercase hex text of twice that length
  kArray = 9,   // varint count + values
  kObject = 10  // varint count + (key string, value) pairs
};

// Strings worth sharing: long enough that a reference is smaller.
constexpr std::size_t kMinPooled = 4;
constexpr std::size_t kMaxPooled = 256;

// The value of each lowercase hex digit, -1 for every other byte: a registry
// list's strings are all checked (uuids pack as hex), so one lookup per byte.
constexpr std::array<signed char, 256> make_hex_values() {
  std::array<signed char, 256> values{};
  for (auto& v : values) v = -1;
  for (int c = '0'; c <= '9'; ++c) values[c] = static_cast<signed char>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) values[c] = static_cast<signed char>(c - 'a' + 10);
  return values;
}
constexpr std::array<signed char, 256> kHexValues = make_hex_values();

int hex_digit(char c) { return kHexValues[static_cast<unsigned char>(c)]; }

bool packs_as_hex(std::string_view s) {
  if (s.size() < 8 || s.size() % 2 != 0) return false;
  for (char c : s)
    if (hex_digit(c) < 0) return false;
  return true;
}

[[noreturn]] void corrupt() { throw std::logic_error("packed registry value is corrupt"); }

std::uint64_t read_varint(std::string_view& in) {
  std::uint64_t n = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) corrupt();
    const auto byte = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    n |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return n;
  }
  corrupt();
}

std::string_view read_bytes(std::string_view& in, std::uint64_t n) {
  if (n > in.size()) corrupt();
  std::string_view bytes = in.substr(0, n);
  in.remove_prefix(n);
  return bytes;
}

// A string value (kString, kPooled or kHex after its tag) into scratch or as a view.
std::string_view read_string(unsigned char tag, std::string_view& in, const StringPool& pool, std::string& scratch) {
  if (tag == kString) return read_bytes(in, read_varint(in));
  if (tag == kPooled) return pool.at(static_cast<std::uint32_t>(read_varint(in)));
  if (tag != kHex) corrupt();
  static constexpr char kDigits[] = "0123456789abcdef";
  const std::string_view bytes = read_bytes(in, read_varint(in));
  scratch.clear();
  for (char b : bytes) {
    const auto u = static_cast<unsigned char>(b);
    scratch.push_back(kDigits[u >> 4]);
    scratch.push_back(kDigits[u & 0xf]);
  }
  return scratch;
}

unsigned char read_tag(std::string_view& in) {
  if (in.empty()) corrupt();
  const auto tag = static_cast<unsigned char>(in.front());
  in.remove_prefix(1);
  return tag;
}

// The pool's hash (wyhash's construction: 64x64->128-bit multiplies, 16 bytes
// a round). A 100k-entity registry list hashes ~2M strings of 4-256 bytes
// while it is decoded, after its last byte arrived: std::hash (murmur, byte
// tail) was ~30 % of the decode, this is ~3x faster on them. Only the pool's
// table uses it, within one process: the packed bytes do not depend on it.
std::uint64_t mix(std::uint64_t a, std::uint64_t b) noexcept {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}
std::uint64_t load32(const char* p) noexcept {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::size_t text_hash(std::string_view s) noexcept {
  constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
  const char* p = s.data();
  const std::size_t n = s.size();
  std::uint64_t seed = k0 ^ n, a = 0, b = 0;
  if (n >= 4 && n <= 16) {  // two overlapping 4-byte reads from each end
    const std::size_t step = (n >> 3) << 2;
    a = (load32(p) << 32) | load32(p + step);
    b = (load32(p + n - 4) << 32) | load32(p + n - 4 - step);
  } else if (n > 16) {
    std::size_t left = n;
    for (; left > 16; p += 16, left -= 16) seed = mix(lanes::load(p) ^ k1, lanes::load(p + 8) ^ seed);
    a = lanes::load(p + left - 16);  // the last 16 bytes (overlapping the last round's)
    b = lanes::load(p + left - 8);
  } else if (n > 0) {
    const auto byte = [&](std::size_t i) { return std::uint64_t{static_cast<unsigned char>(p[i])}; };
    a = (byte(0) << 16) | (byte(n >> 1) << 8) | byte(n - 1);
  }
  return mix(k1 ^ n, mix(a ^ k1, b ^ seed));
}

}  // namespace

std::optional<std::uint32_t> StringPool::shared(std::string_view s) {
  const auto id = ids_.find(text_hash(s), [&](std::uint32_t i) { return seen_[i].text == s; });
  if (!id) return std::nullopt;
  Seen& seen = seen_[*id];
  if (seen.shared == kSeenOnce) {
    seen.shared = static_cast<std::uint32_t>(strings_.size());
    strings_.push_back(seen.text);
  }
  return seen.shared;
}

void StringPool::remember(std::string_view stored) {
  const std::size_t hash = text_hash(stored);
  if (ids_.find(hash, [&](std::uint32_t i) { return seen_[i].text == stored; })) return;
  seen_.push_back(Seen{stored});
  ids_.insert(static_cast<std::uint32_t>(seen_.size() - 1), hash,
              [&](std::uint32_t i) { return text_hash(seen_[i].text); });
}

void StringPool::freeze() {
  ids_ = {};
  // Not `seen_ = {}`: that assigns an empty initializer list and keeps the
  // capacity (24 bytes for every distinct string seen: ~3 MB per 100k entries).
  std::vector<Seen>().swap(seen_);
  strings_.shrink_to_fit();
}

void PackedWriter::varint(std::uint64_t n) {
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
}

std::size_t PackedWriter::plain_string(std::string_view s) {
  out.push_back(static_cast<char>(kString));
  varint(s.size());
  const std::size_t at = out.size();
  out.append(s);
  return at;
}

void PackedWriter::string(std::string_view s) {
  if (packs_as_hex(s)) {
    out.push_back(static_cast<char>(kHex));
    varint(s.size() / 2);
    const std::size_t at = out.size();
    out.resize(at + s.size() / 2);  // written through a pointer: no capacity check per byte
    char* p = out.data() + at;
    for (std::size_t i = 0; i < s.size(); i += 2)
      *p++ = static_cast<char>((hex_digit(s[i]) << 4) | hex_digit(s[i + 1]));
    return;
  }
  if (s.size() >= kMinPooled && s.size() <= kMaxPooled) {
    if (auto id = pool.shared(s)) {
      out.push_back(static_cast<char>(kPooled));
      varint(*id);
      return;
    }
    const std::size_t at = plain_string(s);
    inline_strings.emplace_back(at, s.size());
    return;
  }
  plain_string(s);
}

void PackedWriter::values_of(const json::object& o) {
  for (const auto& kv : o) value(kv.value());
}

void PackedWriter::value(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      out.push_back(static_cast<char>(kNull));
      return;
    case json::kind::bool_:
      out.push_back(static_cast<char>(v.get_bool() ? kTrue : kFalse));
      return;
    case json::kind::int64: {
      const std::int64_t i = v.get_int64();
      out.push_back(static_cast<char>(kInt));
      varint((static_cast<std::uint64_t>(i) << 1) ^ static_cast<std::uint64_t>(i >> 63));
      return;
    }
    case json::kind::uint64:
      out.push_back(static_cast<char>(kUint));
      varint(v.get_uint64());
      return;
    case json::kind::double_: {
      const double d = v.get_double();
      char bytes[sizeof d];
      std::memcpy(bytes, &d, sizeof d);
      out.push_back(static_cast<char>(kDouble));
      out.append(bytes, sizeof d);
      return;
    }
    case json::kind::string:
      string(v.get_string());
      return;
    case json::kind::array:
      out.push_back(static_cast<char>(kArray));
      varint(v.get_array().size());
      for (const auto& item : v.get_array()) value(item);
      return;
    case json::kind::object:
      out.push_back(static_cast<char>(kObject));
      varint(v.get_object().size());
      for (const auto& kv : v.get_object()) {
        string(kv.key());
        value(kv.value());
      }
      return;
  }
}

json::value unpack_value(std::string_view& in, const StringPool& pool, const json::storage_ptr& sp) {
  const unsigned char tag = read_tag(in);
  switch (tag) {
    case kNull:
      return json::value(nullptr, sp);
    case kFalse:
    case kTrue:
      return json::value(tag == kTrue, sp);
    case kInt: {
      const std::uint64_t z = read_varint(in);
      return json::value(static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1)), sp);
    }
    case kUint:
      return json::value(read_varint(in), sp);
    case kDouble: {
      double d;
      std::memcpy(&d, read_bytes(in, sizeof d).data(), sizeof d);
      return json::value(d, sp);
    }
    case kArray: {
      const std::uint64_t n = read_varint(in);
      if (n > in.size()) corrupt();
      json::array a(sp);
      a.reserve(n);
      for (std::uint64_t i = 0; i < n; ++i) a.push_back(unpack_value(in, pool, sp));
      return a;
    }
    case kObject: {
      const std::uint64_t n = read_varint(in);
      if (n > in.size()) corrupt();
      json::object o(sp);
      o.reserve(n);
      std::string scratch;  // only hex keys need it
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::string_view key = read_string(read_tag(in), in, pool, scratch);
        o.emplace(key, unpack_value(in, pool, sp));
      }
      return o;
    }
    default: {
      std::string scratch;
      return json::value(json::string(read_string(tag, in, pool, scratch), sp));
    }
  }
}

std::string_view take_value(std::string_view& in) {
  const std::string_view start = in;
  const unsigned char tag = read_tag(in);
  switch (tag) {
    case kNull:
    case kFalse:
    case kTrue:
      break;
    case kInt:
    case kUint:
    case kPooled:
      read_varint(in);
      break;
    case kDouble:
      read_bytes(in, sizeof(double));
      break;
    case kString:
    case kHex:
      read_bytes(in, read_varint(in));
      break;
    case kArray: {
      const std::uint64_t n = read_varint(in);
      if (n > in.size()) corrupt();
      for (std::uint64_t i = 0; i < n; ++i) take_value(in);
      break;
    }
    case kObject: {
      const std::uint64_t n = read_varint(in);
      if (n > in.size()) corrupt();
      for (std::uint64_t i = 0; i < 2 * n; ++i) take_value(in);  // key, value
      break;
    }
    default:
      corrupt();
  }
  return start.substr(0, start.size() - in.size());
}

std::optional<std::string_view> string_value(std::string_view value, const StringPool& pool, std::string& scratch) {
  if (value.empty()) return std::nullopt;
  const auto tag = static_cast<unsigned char>(value.front());
  if (tag != kString && tag != kPooled && tag != kHex) return std::nullopt;
  value.remove_prefix(1);
  return read_string(tag, value, pool, scratch);
}

void for_each_array_string(std::string_view value, const StringPool& pool, std::string& scratch,
                           const std::function<void(std::string_view)>& fn) {
  if (value.empty() || static_cast<unsigned char>(value.front()) != kArray) return;
  value.remove_prefix(1);
  const std::uint64_t n = read_varint(value);
  for (std::uint64_t i = 0; i < n; ++i)
    if (const auto s = string_value(take_value(value), pool, scratch)) fn(*s);
}

bool for_each_member(std::string_view value, const StringPool& pool, std::string& key_scratch,
                     const std::function<void(std::string_view key, std::string_view value)>& fn) {
  if (value.empty() || static_cast<unsigned char>(value.front()) != kObject) return false;
  value.remove_prefix(1);
  const std::uint64_t n = read_varint(value);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string_view key = read_string(read_tag(value), value, pool, key_scratch);
    fn(key, take_value(value));
  }
  return true;
}

}  // namespace hamcp::ha::detail
