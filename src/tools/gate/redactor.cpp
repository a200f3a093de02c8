#include "tools/gate/redactor.hpp"

#include <algorithm>
#include <array>
#include <boost/container/small_vector.hpp>
#include <boost/json.hpp>
#include <cstdint>
#include <cstring>
#include <optional>

#include "common/ascii.hpp"

namespace hamcp::tools {
namespace json = boost::json;

namespace {

// A name's bytes lower-cased, with '-' and ' ' folded to '_': one lookup a byte.
std::array<char, 256> make_fold() {
  std::array<char, 256> fold{};
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    fold[static_cast<std::size_t>(c)] = (ch == '-' || ch == ' ') ? '_' : ascii_lower(ch);
  }
  return fold;
}
const std::array<char, 256> kFold = make_fold();

// The folded name in a fixed buffer: the check runs for every member of every
// result (~15 per ha_get_state call), so it must not allocate, and the buffer
// is not cleared first (only [0, size) is read).
struct FoldedKey {
  std::array<char, 64> buf;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
  std::size_t size = 0;
  bool too_long = false;

  explicit FoldedKey(std::string_view key) {
    if (key.size() > buf.size()) {
      too_long = true;
      return;
    }
    for (const char c : key) buf[size++] = kFold[static_cast<unsigned char>(c)];
  }
  std::string_view view() const { return {buf.data(), size}; }
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Tokens that are not credentials: hamcp's and MCP's own handles, page cursors.
constexpr std::array<std::string_view, 6> kHarmlessTokens = {"confirm_token", "progress_token", "progresstoken",
                                                             "page_token",    "next_token",     "continuation_token"};
// Names containing one of these hold a secret. Grouped by the word each
// contains ("pass", "key"), so that a name without the word is passed over
// with one search: the check runs for every member of every tool result.
constexpr std::array<std::string_view, 3> kPassParts = {"password", "passwd", "passphrase"};
constexpr std::array<std::string_view, 5> kKeyParts = {"api_key", "apikey", "access_key", "private_key", "network_key"};
constexpr std::array<std::string_view, 13> kSecretNames = {
    "pass", "pwd",    "pin",        "psk",           "wpa_psk",       "auth_key",      "app_key",
    "otp",  "cookie", "webhook_id", "cloudhook_url", "authorization", "encryption_key"};

bool is_token_name(std::string_view k) {
  if (!ends_with(k, "token")) return false;
  return std::find(kHarmlessTokens.begin(), kHarmlessTokens.end(), k) == kHarmlessTokens.end();
}

// Z-Wave JS security keys: s0_legacy_key, s2_access_control_key, lr_s2_authenticated_key...
bool is_zwave_key(std::string_view k) {
  return ends_with(k, "_key") && (starts_with(k, "s0_") || starts_with(k, "s2_") || starts_with(k, "lr_s2_"));
}

template <std::size_t N>
bool has_any(std::string_view k, const std::array<std::string_view, N>& parts) {
  return std::any_of(parts.begin(), parts.end(), [&](std::string_view part) { return has(k, part); });
}

bool maskable(const json::value& v) {
  if (const json::string* s = v.if_string()) return !s->empty() && *s != kRedacted;
  return v.is_number();
}

std::string as_text(const json::value& v) {
  if (const json::string* s = v.if_string()) return std::string(*s);
  return json::serialize(v);
}

bool replace_all(json::string& s, std::string_view secret) {
  std::string_view text = s;
  std::size_t at = text.find(secret);
  if (at == std::string_view::npos) return false;
  std::string out;
  std::size_t from = 0;
  while (at != std::string_view::npos) {
    out.append(text.substr(from, at - from)).append(kRedacted);
    from = at + secret.size();
    at = text.find(secret, from);
  }
  out.append(text.substr(from));
  s = out;
  return true;
}

bool secret_by_rules(std::string_view key) {
  const FoldedKey folded(key);
  if (folded.too_long) return false;
  const std::string_view k = folded.view();
  if (is_token_name(k) || is_zwave_key(k)) return true;
  if (std::find(kSecretNames.begin(), kSecretNames.end(), k) != kSecretNames.end()) return true;
  if (has(k, "secret")) return true;
  if (has(k, "pass") && has_any(k, kPassParts)) return true;
  return has(k, "key") && has_any(k, kKeyParts);
}

// The rules' verdicts on recently seen names. Results repeat the same few
// dozen member names call after call (entity_id, state, friendly_name...),
// and the rules cost ~300 instructions per name, ~4 % of an ha_get_state
// call. Per thread (no lock); a slot holds one whole name, compared exactly,
// so a collision only means the rules run again.
class VerdictCache {
 public:
  static constexpr std::size_t kMaxName = 30;
  std::optional<bool> find(std::string_view name) const {
    const Slot& s = slots_[slot_of(name)];
    if (s.size != name.size() || std::memcmp(s.name.data(), name.data(), name.size()) != 0) return std::nullopt;
    return s.secret;
  }
  void store(std::string_view name, bool secret) {
    Slot& s = slots_[slot_of(name)];
    std::memcpy(s.name.data(), name.data(), name.size());
    s.size = static_cast<std::uint8_t>(name.size());
    s.secret = secret;
  }

 private:
  struct Slot {
    std::array<char, kMaxName> name{};
    std::uint8_t size = 0xFF;  // no name has this size: empty
    bool secret = false;
  };
  static constexpr std::size_t kSlots = 256;
  static std::size_t slot_of(std::string_view name) {  // FNV-1a: names are short
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    return static_cast<std::size_t>(h ^ (h >> 29)) % kSlots;
  }
  std::array<Slot, kSlots> slots_;
};

}  // namespace

bool is_secret_key(std::string_view key) {
  if (key.empty() || key.size() > VerdictCache::kMaxName) return secret_by_rules(key);
  thread_local VerdictCache cache;
  if (const std::optional<bool> known = cache.find(key)) return *known;
  const bool secret = secret_by_rules(key);
  cache.store(key, secret);
  return secret;
}

bool Redactor::redact(json::value& value) {
  bool replaced = false;
  // Inline room for a typical result: no allocation per call for the walk.
  boost::container::small_vector<json::string*, 32> strings;  // every long string, for the second pass
  boost::container::small_vector<json::value*, 32> todo{&value};
  while (!todo.empty()) {
    json::value* v = todo.back();
    todo.pop_back();
    if (json::string* s = v->if_string()) {
      if (s->size() >= kMinRemembered) strings.push_back(s);
    } else if (json::array* a = v->if_array()) {
      for (auto& item : *a) todo.push_back(&item);
    } else if (json::object* o = v->if_object()) {
      for (auto& kv : *o) {
        if (is_secret_key(kv.key()) && maskable(kv.value())) {
          remember(as_text(kv.value()));
          kv.value() = kRedacted;
          replaced = true;
        } else {
          todo.push_back(&kv.value());
        }
      }
    }
  }
  if (strings.empty()) return replaced;
  const std::vector<std::string> secrets = snapshot();
  for (json::string* s : strings)
    for (const std::string& secret : secrets) replaced = replace_all(*s, secret) || replaced;
  return replaced;
}

std::size_t Redactor::remembered() const {
  const std::lock_guard lock(mutex_);
  return seen_.size();
}

void Redactor::remember(std::string_view secret) {
  if (secret.size() < kMinRemembered || secret == kRedacted) return;
  const std::lock_guard lock(mutex_);
  if (std::find(seen_.begin(), seen_.end(), secret) != seen_.end()) return;
  if (seen_.size() >= kMaxRemembered) seen_.erase(seen_.begin());
  seen_.emplace_back(secret);
}

std::vector<std::string> Redactor::snapshot() const {
  const std::lock_guard lock(mutex_);
  return seen_;
}

std::optional<std::string> find_placeholder(const json::value& value) {
  std::vector<std::pair<const json::value*, std::string>> todo{{&value, ""}};
  while (!todo.empty()) {
    auto [v, path] = std::move(todo.back());
    todo.pop_back();
    if (const json::string* s = v->if_string()) {
      if (std::string_view(*s).find(kRedacted) != std::string_view::npos) return path;
    } else if (const json::array* a = v->if_array()) {
      for (std::size_t i = 0; i < a->size(); ++i) todo.emplace_back(&(*a)[i], path + "[" + std::to_string(i) + "]");
    } else if (const json::object* o = v->if_object()) {
      for (const auto& kv : *o)
        todo.emplace_back(&kv.value(), path.empty() ? std::string(kv.key()) : path + "." + std::string(kv.key()));
    }
  }
  return std::nullopt;
}

}  // namespace hamcp::tools
